// A name a user gives (a parameter, a variable, a header, an environment, a JSON key) must
// never find a member of Object.prototype: `record[name]` on a plain object answers
// `constructor` or `toString` with a function, and `record[name] = value` with `__proto__`
// replaces the object's prototype. This rule, with type information, reports every computed
// read, write, `in` test and `delete` on a string-keyed record whose key is not a literal
// the code chose: such lookups go through own(), hasOwn() and setOwn() of
// server/src/core/own.ts, or the table is a Map.
import ts from 'typescript';

/** Whether every type a key can have is a literal the code wrote, a number or a symbol. */
function isChosenKey(type) {
  const parts = type.isUnion() ? type.types : [type];
  return parts.every((t) => {
    const f = t.flags;
    if (f & (ts.TypeFlags.NumberLike | ts.TypeFlags.ESSymbolLike | ts.TypeFlags.BigIntLike)) return true;
    if (
      f &
      (ts.TypeFlags.StringLiteral |
        ts.TypeFlags.EnumLiteral |
        ts.TypeFlags.BooleanLiteral |
        ts.TypeFlags.Undefined |
        ts.TypeFlags.Null)
    )
      return true;
    return false;
  });
}

/** Whether an object type is (or may be) a record read by arbitrary string keys. */
function isStringKeyed(checker, type) {
  const parts = type.isUnion() ? type.types : [type];
  return parts.some((t) => {
    if (t.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return true;
    if (
      t.flags &
      (ts.TypeFlags.Undefined |
        ts.TypeFlags.Null |
        ts.TypeFlags.StringLike |
        ts.TypeFlags.NumberLike |
        ts.TypeFlags.BooleanLike)
    )
      return false;
    if (checker.isArrayType(t) || checker.isTupleType(t)) return false;
    const apparent = checker.getApparentType(t);
    return checker.getIndexInfoOfType(apparent, ts.IndexKind.String) !== undefined;
  });
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'string-keyed records are read and written by user-given names as own properties only' },
    messages: {
      member:
        'A computed name on a string-keyed record can reach Object.prototype (`constructor`, `__proto__`): use own()/setOwn() of server/src/core/own.ts, or a Map.',
      in: 'The `in` operator sees Object.prototype (`constructor` in {} is true): use hasOwn() of server/src/core/own.ts, or a Map.',
    },
    schema: [],
  },
  create(context) {
    const services = context.sourceCode.parserServices;
    if (!services?.program) return {};
    const checker = services.program.getTypeChecker();
    const typeOf = (node) => checker.getTypeAtLocation(services.esTreeNodeToTSNodeMap.get(node));
    return {
      MemberExpression(node) {
        if (!node.computed) return;
        if (node.property.type === 'Literal') return;
        if (node.property.type === 'TemplateLiteral' && node.property.expressions.length === 0) return;
        if (isChosenKey(typeOf(node.property))) return;
        if (!isStringKeyed(checker, typeOf(node.object))) return;
        context.report({ node, messageId: 'member' });
      },
      BinaryExpression(node) {
        if (node.operator !== 'in' || node.left.type === 'Literal' || node.left.type === 'PrivateIdentifier') return;
        if (isChosenKey(typeOf(node.left))) return;
        context.report({ node, messageId: 'in' });
      },
    };
  },
};
