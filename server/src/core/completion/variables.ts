/**
 * Completion inside `{{`: the request's prompt variables, file variables, environment
 * variables, names scripts set, the responses of named requests above, system variables.
 */
import { RequestsBefore, requestNamesOf } from '../checker';
import { code, md } from '../describe';
import { environmentSource, isSecretVariable, type ServiceContext } from '../documentIndex';
import { promptVariables, type Block, type LpreqDocument } from '../parser';
import { SYSTEM_VARIABLES } from '../variables';
import { rank, snippetText, type CompletionEntry } from './items';

export function completeVariables(
  ctx: ServiceContext,
  doc: LpreqDocument,
  text: string,
  from: number,
  col: number,
  abs: (n: number) => number,
  out: CompletionEntry[],
  exclude: { defining?: string; request?: string },
  block: Block,
) {
  const { start, end, close } = replacedRange(text, from, col, abs);
  const fileVariables = new Map<string, string>();
  for (const { block } of doc.blocks) {
    if (block.variables.length === 0) continue;
    for (const v of block.variables) fileVariables.set(v.name.text, v.value.text);
  }
  let i = 0;
  if (exclude.defining !== undefined) fileVariables.delete(exclude.defining);
  // The request's own prompt variables first: asked for when it is sent, they win over the rest.
  const asked = new Set<string>();
  for (const p of block.metadata.length > 0 ? promptVariables(block) : []) {
    if (asked.has(p.name)) continue;
    asked.add(p.name);
    out.push({
      label: p.name,
      kind: 'variable',
      detail: 'prompt variable',
      documentation: `Asked for when this request is sent${p.description ? `: ${md(p.description)}` : ''} (${code(`# @prompt ${p.name}`)})`,
      insertText: p.name + close,
      snippet: false,
      start,
      end,
      sortText: rank(0, i++),
    });
  }
  for (const [name, value] of fileVariables) {
    if (asked.has(name)) continue;
    out.push({
      label: name,
      kind: 'variable',
      detail: 'file variable',
      documentation: `${code(`@${name}`)} = ${isSecretVariable(name, ctx.env) ? '(secret)' : code(value)}`,
      insertText: name + close,
      snippet: false,
      start,
      end,
      sortText: rank(0, i++),
    });
  }
  const envNames = new Set<string>();
  for (const [e2, vars] of Object.entries(ctx.env?.environments ?? {})) {
    if (ctx.env?.selected !== undefined && ctx.env.selected !== e2) continue;
    for (const name of Object.keys(vars)) if (!name.startsWith('$')) envNames.add(name);
  }
  for (const name of envNames) {
    if (fileVariables.has(name) || asked.has(name)) continue;
    const source = environmentSource(name, ctx.env);
    const shown = isSecretVariable(name, ctx.env) ? '(secret)' : source ? code(source.value) : '';
    out.push({
      label: name,
      kind: 'variable',
      detail: `environment${source ? ` ${source.environment}` : ''}`,
      documentation: `${code(name)} = ${shown}${source?.file ? `\n\nfrom ${md(source.file)}` : ''}`,
      insertText: name + close,
      snippet: false,
      start,
      end,
      sortText: rank(1, i++),
    });
  }
  // Variables that scripts of JetBrains' client set: named, so they can be written; lpreq does not run the scripts.
  const scripted = new Set<string>([...(ctx.scope.scriptNames ?? []), ...block.scriptSets.map((x) => x.name)]);
  for (const name of scripted) {
    if (fileVariables.has(name) || envNames.has(name) || asked.has(name)) continue;
    out.push({
      label: name,
      kind: 'variable',
      detail: 'set by a script',
      documentation: `Set by a script of JetBrains' HTTP client (${code('client.global.set')} or ${code('request.variables.set')}); lpreq does not run scripts, so it has no value when lpreq sends`,
      insertText: name + close,
      snippet: false,
      start,
      end,
      sortText: rank(1, i++),
    });
  }
  i = requestReferences(ctx, doc, block, exclude.request, { start, end, close }, out, i);
  for (const v of SYSTEM_VARIABLES) {
    out.push({
      label: v.name,
      kind: 'variable',
      detail: 'system variable',
      documentation: md(v.description),
      insertText: v.insert + close,
      snippet: false,
      start,
      end,
      sortText: rank(3, i++),
    });
  }
}

/**
 * What an item replaces inside `{{`: the name typed so far and the rest of its expression,
 * and the closing braces already there (both, one the editor closed, or ` }}`), so that an
 * item closes them once with the cursor after them.
 */
function replacedRange(
  text: string,
  from: number,
  col: number,
  abs: (n: number) => number,
): { start: number; end: number; close: string } {
  let s = from;
  while (s < col && text[s] === ' ') s++;
  // `{{%name}}` (percent-encoded): the `%` stays, the name is completed after it.
  if (text[s] === '%') s++;
  let e = col;
  while (e < text.length && /[\w.$-]/.test(text[e])) e++;
  // The rest of an expression up to its closing braces (a request's JSONPath: `[0].id`) goes with the name it follows.
  const closing = text.indexOf('}}', e);
  if (closing !== -1 && /^[^\s{}"]*$/.test(text.slice(e, closing))) e = closing;
  // The closing braces once, and the cursor after them: those already there (both, one the
  // editor closed, or ` }}`) are replaced with the name, never added to.
  const spaced = text.startsWith(' }}', e);
  const kept = spaced ? 3 : text.startsWith('}}', e) ? 2 : text[e] === '}' ? 1 : 0;
  const close = spaced ? ' }}' : '}}';
  return { start: abs(s), end: abs(e + kept), close };
}

/** The responses of the named requests above `block` (a request can only use an earlier one's), from rank `i`; the next rank. */
function requestReferences(
  ctx: ServiceContext,
  doc: LpreqDocument,
  block: Block,
  excluded: string | undefined,
  { start, end, close }: { start: number; end: number; close: string },
  out: CompletionEntry[],
  i: number,
): number {
  // Only requests above this one: a request can only use the response of an earlier one.
  const before = new RequestsBefore(ctx.scope);
  for (const ref of doc.blocks) {
    if (ref.block === block) break;
    before.pass(ref.block);
  }
  for (const name of requestNamesOf(before.scope)) {
    if (name === excluded) continue;
    for (const part of ['response.body.$.', 'response.headers.']) {
      out.push({
        label: `${name}.${part}`,
        kind: 'reference',
        detail: `named request ${name}`,
        documentation: part.includes('body')
          ? `A value of the response body of ${code(name)}, by JSONPath: ${code(`${name}.response.body.$.id`)}`
          : `A response header of ${code(name)}: ${code(`${name}.response.headers.Location`)}`,
        insertText: `${snippetText(`${name}.${part}`)}$0${snippetText(close)}`,
        snippet: true,
        start,
        end,
        sortText: rank(2, i++),
      });
    }
  }
  return i;
}
