/**
 * Counts the catalog's names written out in the mock's code (issue 21): string literals
 * (and property keys) of server/src/mock that are an endpoint id, a parameter name or one of
 * its bracket segments, a path placeholder, an enum value, a resource or a field name. The
 * generated `endpointIds.ts` is the catalog itself and is not counted.
 * Run: node --import tsx scripts/mock-catalog-names.ts [--by-file] [--by-name]
 */
import * as ts from 'typescript';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
type Kind = 'endpoint id' | 'enum value' | 'parameter' | 'placeholder' | 'resource' | 'field';
const kinds = new Map<string, Kind>();
const note = (name: string, kind: Kind) => {
  if (!kinds.has(name)) kinds.set(name, kind);
};

interface EndpointJson {
  id: string;
  paths: (string | { path: string })[];
  params: { name: string; enum?: string[] }[];
}
interface ResourcesJson {
  resources: { name: string; fields: { name: string; enum?: string[] }[] }[];
  externalResources: { name: string }[];
}
const endpoints = ['A', 'B', 'C'].flatMap(
  (doc) =>
    (JSON.parse(readFileSync(join(ROOT, `schemas/${doc}.endpoints.json`), 'utf8')) as { endpoints: EndpointJson[] })
      .endpoints,
);
const resources = JSON.parse(readFileSync(join(ROOT, 'schemas/resources.json'), 'utf8')) as ResourcesJson;
// Earlier kinds win: `active` is counted as an enum value, not as a field.
for (const e of endpoints) note(e.id, 'endpoint id');
for (const e of endpoints) for (const p of e.params) for (const v of p.enum ?? []) note(v, 'enum value');
for (const r of resources.resources) for (const f of r.fields) for (const v of f.enum ?? []) note(v, 'enum value');
for (const e of endpoints) {
  for (const p of e.params) {
    note(p.name, 'parameter');
    for (const s of p.name.split(/[[\]]+/)) if (s && !s.startsWith('{')) note(s, 'parameter');
  }
}
for (const e of endpoints)
  for (const path of e.paths)
    for (const m of (typeof path === 'string' ? path : path.path).matchAll(/\{\*?(\w+)\}/g)) note(m[1], 'placeholder');
for (const r of resources.resources) note(r.name, 'resource');
for (const r of resources.externalResources) note(r.name, 'resource');
for (const r of resources.resources) for (const f of r.fields) note(f.name, 'field');

const files: string[] = [];
const walk = (dir: string) => {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (path.endsWith('.ts') && name !== 'endpointIds.ts') files.push(path);
  }
};
walk(join(ROOT, 'server/src/mock'));

type Role = 'handler key' | 'table' | 'parameter read' | 'path placeholder' | 'other';
const TABLE_CALLS = new Set(['rows', 'find', 'insert', 'remove', 'table', 'must']);
const PARAM_CALLS = new Set(['listParam', 'includes']);
const PARAM_METHODS = new Set(['get', 'has', 'int', 'bool', 'all', 'group']);
const PLACEHOLDER_CALLS = new Set(['pathId', 'course', 'user', 'section', 'account', 'folderById', 'moduleOf']);

/** What a literal does where it stands, told from the call or the object it is in. */
function roleOf(node: ts.StringLiteralLike): Role {
  const parent = node.parent;
  if (ts.isPropertyAssignment(parent) && parent.name === node) return 'handler key';
  if (!ts.isCallExpression(parent)) return 'other';
  const callee = parent.expression;
  const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : '';
  const on = ts.isPropertyAccessExpression(callee) ? callee.expression.getText() : '';
  if (TABLE_CALLS.has(name) || (name === 'get' && on.endsWith('state'))) return 'table';
  if (PARAM_CALLS.has(name) || (PARAM_METHODS.has(name) && on.endsWith('params'))) return 'parameter read';
  if (PLACEHOLDER_CALLS.has(name) || on.endsWith('bindings')) return 'path placeholder';
  return 'other';
}

const literalsByKind = new Map<Kind, number>();
const literalsByRole = new Map<Role, number>();
const byFile: Record<string, { literals: number; keys: number }> = {};
const byName = new Map<string, number>();
let literals = 0;
let keys = 0;
for (const file of files) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const counts = { literals: 0, keys: 0 };
  const visit = (node: ts.Node) => {
    if (
      (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) &&
      !ts.isImportDeclaration(node.parent) &&
      !ts.isExportDeclaration(node.parent)
    ) {
      const kind = kinds.get(node.text);
      if (kind) {
        counts.literals++;
        literalsByKind.set(kind, (literalsByKind.get(kind) ?? 0) + 1);
        const role = roleOf(node);
        literalsByRole.set(role, (literalsByRole.get(role) ?? 0) + 1);
        byName.set(node.text, (byName.get(node.text) ?? 0) + 1);
      }
    }
    const parent = node.parent as ts.Node | undefined;
    if (ts.isIdentifier(node) && parent && kinds.has(node.text)) {
      const isKey =
        (ts.isPropertyAccessExpression(parent) && parent.name === node) ||
        (ts.isPropertyAssignment(parent) && parent.name === node) ||
        (ts.isBindingElement(parent) && parent.propertyName === node);
      if (isKey) counts.keys++;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  byFile[relative(ROOT, file)] = counts;
  literals += counts.literals;
  keys += counts.keys;
}
if (process.argv.includes('--by-file')) console.log(byFile);
if (process.argv.includes('--by-name'))
  console.log(
    [...byName]
      .sort((a, b) => b[1] - a[1])
      .map(([n, c]) => `${n}:${c}`)
      .join(' '),
  );
console.log(
  JSON.stringify({
    stringLiterals: literals,
    byKind: Object.fromEntries(literalsByKind),
    byRole: Object.fromEntries(literalsByRole),
    propertyKeys: keys,
  }),
);
