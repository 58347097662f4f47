/**
 * Hover: the endpoint on the request line, a parameter's documentation on its name, an
 * enum value's meaning on the value, a variable's value and origin on `{{name}}` (never the
 * value of a secret), and on an assertion line what its field, operator and each segment of
 * its path are in the documented response.
 */
import { lookupParameter } from './catalog/parameters';
import { code, describeEndpoint, describeEnumValue, describeParameter, md } from './describe';
import { blockAt, environmentSource, isSecretVariable, lineNumberOf, type ServiceContext } from './documentIndex';
import {
  assertionsOf,
  findVariableReferences,
  promptVariables,
  requestName,
  type Block,
  type LpreqDocument,
} from './parser';
import { isSystemVariable, parseRequestReference, SYSTEM_VARIABLES } from './variables';
import { METADATA } from './metadata';
import { CODES } from './codes';
import { hasOwn, own } from './own';
import { nameSpan, type Assertion } from './assertion';
import { ASSERTION_FIELDS, describeFieldValue, describePlace, operatorDoc, RESPONSE_HEADERS } from './assertionDocs';
import { walkPath, type Step } from './catalog/resources';

export interface HoverResult {
  /** Markdown. */
  contents: string;
  /** Absolute offsets of the hovered text. */
  start: number;
  end: number;
}

export function hover(
  ctx: ServiceContext,
  doc: LpreqDocument,
  offset: number,
  given?: readonly string[],
): HoverResult | undefined {
  const ref = blockAt(doc, offset);
  if (!ref) return undefined;
  const block = ref.block;
  const rel = offset - ref.start;
  if (rel < 0 || rel > block.text.length) return undefined;
  const found = hoverInBlock(ctx, doc, block, ref.start, rel);
  if (!found) return undefined;
  // An editor shows the diagnostics at the cursor beside the hover (their messages and related
  // lines): what they say already is left out, and nothing is said twice. A host that keeps the
  // block's diagnostics gives them; else the block is checked.
  let said = given;
  if (said === undefined) {
    const found: string[] = [];
    for (const d of ctx.checker.checkBlock(block, ctx.scope)) {
      if (d.start > rel || d.end < rel) continue;
      found.push(d.message, ...(d.related ?? []));
    }
    said = found;
  }
  const contents = withoutRepeats(found.contents, said);
  return contents === ''
    ? undefined
    : { ...found, start: found.start + ref.start, end: found.end + ref.start, contents };
}

function hoverInBlock(
  ctx: ServiceContext,
  doc: LpreqDocument,
  block: Block,
  blockStart: number,
  rel: number,
): HoverResult | undefined {
  const ref = { start: blockStart, block };
  const shift = (r: HoverResult | undefined) => r;

  // `# @no-redirect`: what the key does.
  const key = block.metadata.find((m) => rel >= m.key.start - 1 && rel <= m.key.end);
  const known = key && METADATA.find((k) => k.key === key.key.text);
  if (key && known)
    return shift({
      contents: `${code(`# @${known.key}`)} · request metadata\n\n${known.doc}`,
      start: key.key.start - 1,
      end: key.key.end,
    });

  const variable = variableAt(block, rel);
  if (variable)
    return shift({
      contents: describeVariable(ctx, doc, variable.expression, { start: ref.start, block }),
      start: variable.start,
      end: variable.end,
    });

  const assertion = assertionsOf(block).find(
    (a) => a.assertion !== undefined && rel >= a.assertion.start && rel <= a.assertion.end,
  )?.assertion;
  if (assertion) return shift(hoverAssertion(ctx, block, assertion, rel));

  const request = block.request;
  if (request && request.methodKnown && rel >= request.start && rel <= request.end) {
    const inTarget = rel >= request.target.start && rel <= request.target.end;
    const q = request.target.text.indexOf('?');
    if (inTarget && q !== -1 && rel > request.target.start + q) return shift(hoverParameter(ctx, block, rel));
    if (rel <= request.method.end || inTarget)
      return shift(hoverEndpoint(ctx, block, request.target.start, request.target.end));
    return undefined;
  }
  // A path line of JetBrains' client (`    /items`): the endpoint, unless the cursor is in its query.
  const pathLine = request?.methodKnown ? request.pathLines?.find((p) => rel >= p.start && rel <= p.end) : undefined;
  if (pathLine) {
    const q = pathLine.text.indexOf('?');
    if (q === -1 || rel <= pathLine.start + q) return shift(hoverEndpoint(ctx, block, pathLine.start, pathLine.end));
  }
  return shift(hoverParameter(ctx, block, rel));
}

/** An assertion line: what its field, operator and path segments are, and an enum value's meaning. */
function hoverAssertion(ctx: ServiceContext, block: Block, a: Assertion, rel: number): HoverResult | undefined {
  const within = (s: { start: number; end: number }) => rel >= s.start && rel <= s.end;
  const field = a.field;
  const keyword = { start: field.start, end: field.start + field.kind.length };
  if (within(keyword)) {
    const doc = ASSERTION_FIELDS.find((f) => f.name === field.kind);
    return doc ? { contents: `${code(field.kind)} · assertion field\n\n${doc.doc}`, ...keyword } : undefined;
  }
  if (within(a.operatorSpan)) return { contents: operatorDoc(a.operator), ...a.operatorSpan };
  if (field.kind === 'header' && within(field.nameSpan)) {
    const known = RESPONSE_HEADERS.find((h) => h.name === field.name.toLowerCase());
    return known
      ? { contents: `${code(known.name)} · response header\n\n${md(known.doc)}`, ...field.nameSpan }
      : undefined;
  }
  if (field.kind !== 'body' || !field.path) return undefined;
  const match = ctx.checker.matchBlock(block, ctx.scope);
  if (match?.kind !== 'matched') return undefined;
  const catalog = ctx.checker.catalog;
  const path = field.path;
  const steps: Step[] = [];
  const end = walkPath(catalog, match.endpoint.returns, path.segments, steps);
  const label = `${match.endpoint.method} ${match.path.template}`;
  for (let i = 0; i < path.segments.length; i++) {
    const segment = path.segments[i];
    if (!within(segment)) continue;
    const reached = steps[i];
    const at = segment.kind === 'name' ? nameSpan(segment) : { start: segment.start, end: segment.end };
    if (reached === undefined || reached.kind === 'unknown') return undefined;
    if (reached.kind === 'not-shown')
      return {
        contents: `The documentation does not show what this holds (${code(label)} returns ${code(match.endpoint.returns ?? 'a response not shown')}).`,
        ...at,
      };
    return { contents: describePlace(catalog, reached.types), ...at };
  }
  if (path.text.startsWith('$') && rel <= path.start + 1) {
    const returns = match.endpoint.returns;
    return {
      contents: returns
        ? `The response of ${code(label)}: ${code(returns)}`
        : `The response of ${code(label)} is not shown in the documentation.`,
      start: path.start,
      end: path.start + 1,
    };
  }
  const expected = a.expected;
  if (expected && within(expected) && end.kind === 'documented') {
    for (const t of end.types) {
      const value = describeFieldValue(t, expected.text);
      if (value) return { contents: value, start: expected.start, end: expected.end };
    }
  }
  return undefined;
}

function variableAt(block: Block, rel: number) {
  const lineStart = block.text.lastIndexOf('\n', rel - 1) + 1;
  let lineEnd = block.text.indexOf('\n', rel);
  if (lineEnd === -1) lineEnd = block.text.length;
  const line = block.text.slice(lineStart, lineEnd);
  const reference = line.includes('{{')
    ? findVariableReferences(line, lineStart).find((r) => rel >= r.start && rel <= r.end)
    : undefined;
  if (reference) return reference;
  // `@name = value` and `# @prompt name`: hover on the definition's name shows the same (whatever the value holds).
  const v = block.variables.find((x) => rel >= x.name.start && rel <= x.name.end);
  if (v) return { expression: v.name.text, start: v.name.start, end: v.name.end };
  const p = block.metadata.length > 0 ? promptVariables(block).find((x) => rel >= x.start && rel <= x.end) : undefined;
  return p ? { expression: p.name, start: p.start, end: p.end } : undefined;
}

function hoverEndpoint(ctx: ServiceContext, block: Block, start: number, end: number): HoverResult | undefined {
  const match = ctx.checker.matchBlock(block, ctx.scope);
  if (!match) return undefined;
  if (match.kind === 'matched')
    return { contents: describeEndpoint(match.endpoint, match.path, ctx.scope.granted), start, end };
  if (match.kind === 'method-not-allowed') {
    return {
      contents: `${match.templates.map(code).join(', ')}\n\nDocumented methods: ${match.allowed.join(', ')}`,
      start,
      end,
    };
  }
  if (match.kind === 'unknown-endpoint') {
    return {
      contents: `${CODES['unknown-endpoint'].help}${match.near ? `\n\nNearest documented path: ${code(match.near)}` : ''}`,
      start,
      end,
    };
  }
  return undefined;
}

function hoverParameter(ctx: ServiceContext, block: Block, rel: number): HoverResult | undefined {
  const line = block.params.find((p) => rel >= p.start && rel <= p.end);
  if (!line) return undefined;
  const match = ctx.checker.matchBlock(block, ctx.scope);
  if (match?.kind !== 'matched') return undefined;
  const found = lookupParameter(match.endpoint, line.decodedName);
  if (!found) return undefined;
  const param = found.param;
  if (rel >= line.value.start && rel <= line.value.end && line.value.end > line.value.start) {
    if (param.enum?.includes(line.decodedValue)) {
      return { contents: describeEnumValue(param, line.decodedValue), start: line.value.start, end: line.value.end };
    }
    return undefined;
  }
  if (rel >= line.name.start && rel <= line.name.end) {
    return { contents: describeParameter(match.endpoint, param), start: line.name.start, end: line.name.end };
  }
  return undefined;
}

function describeVariable(
  ctx: ServiceContext,
  doc: LpreqDocument,
  expression: string,
  at: { start: number; block: Block },
): string {
  if (expression.startsWith('%') && expression.length > 1) {
    return `${describeVariable(ctx, doc, expression.slice(1), at)}\n\nWritten \`{{%...}}\`: sent percent-encoded.`;
  }
  // A prompt of the request itself wins over every other definition when it is sent.
  const prompt =
    at.block.metadata.length > 0 ? promptVariables(at.block).find((p) => p.name === expression) : undefined;
  if (prompt) {
    const line = lineNumberOf(doc.text, at.start + prompt.start) + 1;
    const asked = prompt.description ? `: ${md(prompt.description)}` : '';
    return `${code(`{{${expression}}}`)} · prompt variable (line ${line})\n\nAsked for when this request is sent${asked}`;
  }
  if (expression.startsWith('$')) {
    const head = expression.split(/\s+/, 1)[0];
    const sys = SYSTEM_VARIABLES.find(
      (v) => v.name === head || (v.name.endsWith('.') && head.startsWith(v.name)) || head.startsWith(`${v.name}(`),
    );
    if (sys && isSystemVariable(expression)) return `${code(sys.name)} · system variable\n\n${md(sys.description)}`;
    return `${code(expression)} is not a known system variable`;
  }
  const reference = parseRequestReference(expression);
  if (reference) {
    const at = doc.blocks.find((b) => requestName(b.block) === reference.name);
    if (!at) return `${code(reference.name)}: no request has \`# @name ${md(reference.name)}\``;
    const line = lineNumberOf(doc.text, at.start + (at.block.request?.start ?? 0)) + 1;
    const what =
      reference.source === 'body'
        ? `the response body, ${code(reference.selector)}`
        : `the response header ${code(reference.selector)}`;
    return `Named request ${code(reference.name)} (line ${line}): ${what}\n\nThe value comes from the last response of that request.`;
  }
  const secret = isSecretVariable(expression, ctx.env);
  let definition: { line: number; value: string } | undefined;
  for (const b of doc.blocks) {
    for (const v of b.block.variables) {
      if (v.name.text === expression) definition = { line: b.start + v.start, value: v.value.text };
    }
  }
  if (definition) {
    const line = lineNumberOf(doc.text, definition.line) + 1;
    return `${code(`{{${expression}}}`)} = ${secret ? '(secret)' : code(definition.value)}\n\nFile variable, defined on line ${line}`;
  }
  const source = environmentSource(expression, ctx.env);
  if (source && ctx.env && ctx.env.selected === undefined) {
    // No environment chosen: the value in each one that defines it.
    const rows = Object.entries(ctx.env.environments)
      .filter(([, vars]) => hasOwn(vars, expression))
      .map(
        ([name, vars]) =>
          `- ${code(name)}: ${secret || own(ctx.env?.privateNames, name)?.has(expression) ? '(secret)' : code(String(own(vars, expression)))}`,
      );
    if (rows.length > 1)
      return `${code(`{{${expression}}}`)} · no environment chosen; its value in each:\n\n${rows.join('\n')}`;
  }
  if (source) {
    const where = source.file ? ` (${md(source.file)})` : '';
    return `${code(`{{${expression}}}`)} = ${secret ? '(secret)' : code(source.value)}\n\nEnvironment ${code(source.environment)}${where}`;
  }
  const set =
    at.block.scriptSets.find((x) => x.name === expression) ??
    (ctx.scope.scriptNames?.has(expression) ? { global: true } : undefined);
  if (set) {
    const how = set.global
      ? '`client.global.set`, in the response handler of an earlier request'
      : "`request.variables.set`, in this request's script";
    return `${code(`{{${expression}}}`)} · set by a script of JetBrains' HTTP client (${how})\n\nlpreq does not run scripts: it has no value when lpreq sends this request`;
  }
  const others = ctx.scope.otherEnvironments;
  const elsewhere = others?.definedIn.get(expression);
  if (others && elsewhere)
    return `${code(`{{${expression}}}`)} is not in environment ${code(others.selected)}; defined in ${elsewhere.map(code).join(', ')}`;
  return `${code(`{{${expression}}}`)} is defined nowhere: not as a file variable (\`@${md(expression)} = ...\`), not in the environment`;
}

/** A sentence as compared for repeats: without Markdown, a leading label (`Applies:`), case and the closing stop. */
function sentenceKey(sentence: string): string {
  return sentence
    .replace(/[`*_\\]/g, '')
    .replace(/^\s*(?:-\s+)?(?:[A-Z][\w ]{0,24}:\s+)?/, '')
    .replace(/[.;:\s]+$/, '')
    .trim()
    .toLowerCase();
}

/** The sentences of a text: split at a stop followed by a space, and at line ends. */
function sentencesOf(text: string): string[] {
  return text.split(/\n|(?<=[.;])\s+(?=\S)/);
}

/**
 * Markdown without a sentence said before in it, nor one that `said` holds (the diagnostics the
 * editor shows beside it). A line left empty goes; blank lines around it do not pile up.
 */
function withoutRepeats(markdown: string, said: readonly string[]): string {
  const known = said
    .flatMap(sentencesOf)
    .map(sentenceKey)
    .filter((k) => k.length >= 12);
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const line of markdown.split('\n')) {
    const kept = line.split(/(?<=[.;])\s+(?=\S)/).filter((sentence) => {
      const key = sentenceKey(sentence);
      if (key.length < 12) return true;
      if (seen.has(key) || known.some((k) => k.includes(key) || key.includes(k))) return false;
      seen.add(key);
      return true;
    });
    if (kept.length === 0 && line.trim() !== '') continue;
    const text = kept.join(' ');
    if (text.trim() === '' && (lines.length === 0 || lines[lines.length - 1].trim() === '')) continue;
    lines.push(text);
  }
  while (lines.length > 0 && lines[lines.length - 1].trim() === '') lines.pop();
  return lines.join('\n');
}
