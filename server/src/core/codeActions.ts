/**
 * Quick fixes and refactors. The fixes are built from the diagnostics of the current
 * text (never from ones an editor sends back, whose offsets may be stale): add missing
 * parameters, remove a conflicting or ignored one, take the closest documented name or
 * value (of a parameter, or of a response field or enum value an assertion names), replace a deprecated name, fill a placeholder with a variable; and a refactor
 * that extracts a repeated literal into a file variable.
 */
import type { Diagnostic } from './checker';
import { blockAt, isSecretVariable, type ScopeSite, type ServiceContext } from './documentIndex';
import { own } from './own';
import { findVariableReferences, type Block, type BlockRef, type LpreqDocument } from './parser';
import { snippetText } from './completion';

export interface TextEdit {
  start: number;
  end: number;
  newText: string;
  /**
   * The same edit as a snippet (`module_item[type] = $0`), for an editor that takes snippet
   * edits: the cursor lands on a tab stop where the user types next. `newText` is what others get.
   */
  snippet?: string;
}

export interface CodeAction {
  title: string;
  kind: 'quickfix' | 'refactor.extract' | 'refactor.rewrite';
  edits: TextEdit[];
  /** The diagnostics this action fixes. */
  diagnostics: Diagnostic[];
  isPreferred?: boolean;
  /**
   * An edit of another file, which the host makes (the core reads no file): add `scope` to the
   * list of scopes `site` points at. `edits` is empty then.
   */
  grant?: { scope: string; site: ScopeSite };
}

/** Where to insert new parameter lines in a block (absolute offset) and the text before them. */
function parameterInsertion(blockStart: number, block: Block): { at: number; prefix: string; suffix?: string } {
  const text = block.text;
  const lastParam = [...block.params].filter((p) => p.source === 'body').sort((a, b) => b.end - a.end)[0];
  if (lastParam) return { at: blockStart + lastParam.end, prefix: '\n' };
  const request = block.request;
  let end = request ? request.end : 0;
  for (const q of block.queryLines) end = Math.max(end, q.end);
  for (const h of block.headers) end = Math.max(end, h.end);
  if (block.bodyStart !== undefined) {
    // After the blank line: the parameters begin on the line that follows it.
    const nl = text.indexOf('\n', block.bodyStart);
    const after = nl === -1 ? text.length : nl + 1;
    if (nl === -1) return { at: blockStart + text.length, prefix: '\n', suffix: '\n' };
    return { at: blockStart + after, prefix: '' };
  }
  return { at: blockStart + end, prefix: '\n\n' };
}

function lineRangeWithBreak(text: string, start: number, end: number): { start: number; end: number } {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  let lineEnd = text.indexOf('\n', end);
  lineEnd = lineEnd === -1 ? text.length : lineEnd + 1;
  return { start: lineStart, end: lineEnd };
}

/**
 * Code actions for the range [start, end] (absolute offsets). `diagnostics` are those of
 * the current text, absolute.
 */
export function codeActions(
  ctx: ServiceContext,
  doc: LpreqDocument,
  start: number,
  end: number,
  diagnostics: Diagnostic[],
): CodeAction[] {
  const ref = blockAt(doc, start);
  if (!ref) return [];
  const actions: CodeAction[] = [];
  // Fixes written for parameter lines would break a JSON body: there only replacing a key or a value in place applies.
  const json = ref.block.jsonBody;
  const inJson = (d: Diagnostic) =>
    json !== undefined && d.start >= ref.start + json.start && d.end <= ref.start + json.end;
  const here = diagnostics.filter(
    (d) =>
      d.start <= end &&
      d.end >= start &&
      (!inJson(d) || d.code === 'unknown-parameter' || d.code === 'invalid-enum' || d.code === 'unknown-field'),
  );
  const missingAll: { name: string; d: Diagnostic }[] = [];
  for (const d of here) {
    const data = d.data ?? {};
    switch (d.code) {
      case 'missing-required':
        if (json) break;
        for (const name of data.missing ?? []) missingAll.push({ name, d });
        break;
      case 'unknown-parameter':
      case 'invalid-enum':
      case 'unknown-endpoint':
      case 'unknown-field':
        actions.push(...replaceFixes(doc, d, inJson(d)));
        break;
      case 'deprecated':
        actions.push(...deprecatedFixes(ctx, doc, ref, d));
        break;
      case 'conflicting-parameters':
        actions.push(...conflictFixes(ctx, doc, d));
        break;
      case 'ignored-parameter':
      case 'duplicate-parameter':
        if (data.lineStart !== undefined && data.lineEnd !== undefined) {
          actions.push(
            removeLine(
              doc,
              data.lineStart,
              data.lineEnd,
              d.code === 'ignored-parameter' ? 'Remove the ignored parameter' : 'Remove the duplicate',
              d,
            ),
          );
        }
        break;
      case 'unfilled-placeholder':
        actions.push(fillPlaceholder(ctx, doc, d));
        break;
      case 'scope-not-granted':
        actions.push(...grantFixes(ctx, d));
        break;
      default:
        break;
    }
  }
  if (missingAll.length > 0) actions.push(...addMissing(ref, missingAll));
  const extract = extractLiteral(doc, start, end, ctx);
  if (extract) actions.push(extract);
  // The lines an action adds end as the document's lines do.
  if (doc.text.includes('\r\n')) {
    for (const a of actions) {
      for (const e of a.edits) {
        e.newText = e.newText.replace(/\r?\n/g, '\r\n');
        if (e.snippet !== undefined) e.snippet = e.snippet.replace(/\r?\n/g, '\r\n');
      }
    }
  }
  return actions;
}

/** A name or value replaced by the closest documented one, or by each of a short list; an undocumented parameter's line removed. */
function replaceFixes(doc: LpreqDocument, d: Diagnostic, inJson: boolean): CodeAction[] {
  const out: CodeAction[] = [];
  const data = d.data ?? {};
  if (data.replacement !== undefined) {
    out.push({
      title: `Change to '${data.replacement}'`,
      kind: 'quickfix',
      edits: [{ start: d.start, end: d.end, newText: data.replacement }],
      diagnostics: [d],
      isPreferred: true,
    });
  }
  for (const choice of data.choices ?? []) {
    out.push({
      title: `Change to '${choice}'`,
      kind: 'quickfix',
      edits: [{ start: d.start, end: d.end, newText: choice }],
      diagnostics: [d],
    });
  }
  if (d.code === 'unknown-parameter' && data.lineStart !== undefined && data.lineEnd !== undefined && !inJson) {
    out.push(removeLine(doc, data.lineStart, data.lineEnd, 'Remove the undocumented parameter', d));
  }
  return out;
}

/** A deprecated name replaced by its successor, or removed where the successor is sent already. */
function deprecatedFixes(ctx: ServiceContext, doc: LpreqDocument, ref: BlockRef, d: Diagnostic): CodeAction[] {
  const out: CodeAction[] = [];
  const data = d.data ?? {};
  const old = ref.block.params.find((p) => ref.start + p.name.start === d.start);
  if (old && data.replacement !== undefined && ref.block.params.some((p) => p.decodedName === data.replacement)) {
    // The successor is sent already (`label` beside `role`): the old name goes.
    out.push(
      removeLine(
        doc,
        ref.start + old.start,
        ref.start + old.end,
        `Remove the deprecated parameter (${data.replacement} is given)`,
        d,
      ),
    );
  } else if (data.replacement !== undefined) {
    const onPath = data.replacement.startsWith('/');
    const replacement = onPath ? fillTemplate(ctx, doc, d, data.replacement) : data.replacement;
    if (replacement !== undefined) {
      out.push({
        title: `Replace with ${onPath ? 'the current path' : `'${replacement}'`}`,
        kind: 'quickfix',
        edits: [{ start: d.start, end: d.end, newText: replacement }],
        diagnostics: [d],
        isPreferred: true,
      });
    }
  }
  return out;
}

/** Each missing required parameter added below the request (its value a tab stop), and all of them at once. */
function addMissing(ref: BlockRef, missingAll: { name: string; d: Diagnostic }[]): CodeAction[] {
  const out: CodeAction[] = [];
  const { at, prefix, suffix } = parameterInsertion(ref.start, ref.block);
  const names = [...new Set(missingAll.map((m) => m.name))];
  const end = suffix ?? (prefix === '' ? '\n' : '');
  const text = (list: string[]) => prefix + list.map((n) => `${n} = `).join('\n') + end;
  // Each value is a tab stop: the cursor waits at the first, Tab goes on to the next.
  const snippet = (list: string[]) =>
    prefix + list.map((n, i) => `${snippetText(n)} = ${list.length === 1 ? '$0' : `\${${i + 1}}`}`).join('\n') + end;
  const edit = (list: string[]): TextEdit => ({ start: at, end: at, newText: text(list), snippet: snippet(list) });
  for (const m of missingAll) {
    out.push({
      title: `Add ${m.name}`,
      kind: 'quickfix',
      edits: [edit([m.name])],
      diagnostics: [m.d],
      isPreferred: names.length === 1,
    });
  }
  if (names.length > 1) {
    out.push({
      title: 'Add all missing required parameters',
      kind: 'quickfix',
      edits: [edit(names)],
      diagnostics: missingAll.map((m) => m.d),
      isPreferred: true,
    });
  }
  return out;
}

/** Add the scope to the `$scopes` of each environment that lacks it (once per list: several may share `$shared`'s). */
function grantFixes(ctx: ServiceContext, d: Diagnostic): CodeAction[] {
  const scope = d.data?.scope;
  if (scope === undefined) return [];
  const out: CodeAction[] = [];
  const seen = new Set<string>();
  for (const environment of d.data?.grantTo ?? []) {
    const site = own(ctx.env?.scopeSites, environment);
    if (!site) continue;
    const key = `${site.file}\n${site.environment}\n${site.listFile ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const fileName = (path: string) => path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
    const where =
      site.listFile !== undefined
        ? `${fileName(site.listFile)} (the $scopes of ${site.environment})`
        : `the $scopes of ${site.environment} in ${fileName(site.file)}`;
    out.push({
      title: `Add ${scope} to ${where}`,
      kind: 'quickfix',
      edits: [],
      diagnostics: [d],
      grant: { scope, site },
    });
  }
  if (out.length === 1) out[0].isPreferred = true;
  return out;
}

function removeLine(doc: LpreqDocument, lineStart: number, lineEnd: number, title: string, d: Diagnostic): CodeAction {
  const text = doc.text;
  const ref = blockAt(doc, lineStart);
  const param = ref?.block.params.find((p) => ref.start + p.start === lineStart);
  if (param?.source === 'query') {
    // A pair in the query string: remove it and one separator.
    let s = lineStart;
    let e = lineEnd;
    if (text[e] === '&') e++;
    else if (text[s - 1] === '&' || text[s - 1] === '?') {
      if (text[s - 1] === '&') s--;
    }
    return { title, kind: 'quickfix', edits: [{ start: s, end: e, newText: '' }], diagnostics: [d] };
  }
  const r = lineRangeWithBreak(text, lineStart, lineEnd);
  return { title, kind: 'quickfix', edits: [{ start: r.start, end: r.end, newText: '' }], diagnostics: [d] };
}

function conflictFixes(ctx: ServiceContext, doc: LpreqDocument, d: Diagnostic): CodeAction[] {
  const out: CodeAction[] = [];
  const data = d.data ?? {};
  const ref = blockAt(doc, d.start);
  if (!ref) return out;
  const laterName = doc.text.slice(d.start, d.end);
  if (data.lineStart !== undefined && data.lineEnd !== undefined)
    out.push(removeLine(doc, data.lineStart, data.lineEnd, `Remove ${laterName}`, d));
  const match = ctx.checker.matchBlock(ref.block, ctx.scope);
  if (match?.kind !== 'matched') return out;
  for (const rule of match.endpoint.rules) {
    if (rule.kind !== 'conflicts' || !rule.params.includes(laterName)) continue;
    for (const other of rule.params) {
      if (other === laterName) continue;
      for (const p of ref.block.params) {
        if (p.decodedName !== other) continue;
        out.push(removeLine(doc, ref.start + p.start, ref.start + p.end, `Remove ${other}`, d));
      }
    }
  }
  return out;
}

/** Fills a deprecated path's successor template with the ids the request already carries. */
function fillTemplate(ctx: ServiceContext, doc: LpreqDocument, d: Diagnostic, template: string): string | undefined {
  const ref = blockAt(doc, d.start);
  const request = ref?.block.request;
  // A path that goes on over JetBrains' path lines is not rewritten from its first line.
  if (!ref || !request || (request.pathLines?.length ?? 0) > 0) return undefined;
  const match = ctx.checker.matchBlock(ref.block, ctx.scope);
  if (match?.kind !== 'matched') return undefined;
  const target = request.target.text;
  const path = template.replace(/\{\*?(\w+)\}/g, (all, name: string) => match.bindings.get(name) ?? all);
  const apiAt = target.indexOf('/api/');
  const query = target.search(/[?#]/);
  return (apiAt > 0 ? target.slice(0, apiAt) : '') + path + (query !== -1 ? target.slice(query) : '');
}

function fillPlaceholder(ctx: ServiceContext, doc: LpreqDocument, d: Diagnostic): CodeAction {
  const name = doc.text.slice(d.start, d.end).replace(/^\{|\}$/g, '');
  const edits: TextEdit[] = [{ start: d.start, end: d.end, newText: `{{${name}}}` }];
  const defined = ctx.scope.values.has(name);
  if (!defined) {
    const at = doc.text.charCodeAt(0) === 0xfeff ? 1 : 0;
    edits.unshift({ start: at, end: at, newText: `@${name} = \n` });
  }
  return {
    title: defined ? `Use {{${name}}}` : `Use {{${name}}} and define @${name}`,
    kind: 'quickfix',
    edits,
    diagnostics: [d],
    isPreferred: true,
  };
}

/**
 * A value worth a variable under the cursor: an id (a path segment a placeholder of the matched
 * endpoint takes, or the value of a parameter whose name ends in `id`) or a host (the origin of
 * an absolute target). A path segment such as `v1`, a name, an enum value or a flag is not one.
 */
interface Literal {
  text: string;
  start: number;
  end: number;
  /** The variable's name to start from. */
  hint: string;
  /** Where its other occurrences stand: after this path segment, as this parameter's value, or as a target's origin. */
  after?: string;
  param?: string;
  host?: boolean;
}

const ID = /^(?:\d+|sis_[a-z_]+:[\w.:@-]+)$/;

function literalAt(ctx: ServiceContext, doc: LpreqDocument, offset: number): Literal | undefined {
  const ref = blockAt(doc, offset);
  if (!ref) return undefined;
  const rel = offset - ref.start;
  const block = ref.block;
  const request = block.request;
  if (request && rel >= request.target.start && rel <= request.target.end) {
    const target = request.target.text;
    const at = rel - request.target.start;
    const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/?#\s{}]+/i.exec(target)?.[0];
    if (origin && at <= origin.length)
      return {
        text: origin,
        start: ref.start + request.target.start,
        end: ref.start + request.target.start + origin.length,
        hint: 'base_url',
        host: true,
      };
    const q = target.search(/[?#]/);
    if (q !== -1 && at > q) return undefined;
    const s = target.lastIndexOf('/', at - 1) + 1;
    let e = target.indexOf('/', at);
    if (e === -1 || (q !== -1 && e > q)) e = q === -1 ? target.length : q;
    const seg = target.slice(s, e);
    if (!ID.test(seg)) return undefined;
    // Only a value a placeholder of the documented path takes: `42` in courses/42, never `v1`.
    const match = ctx.checker.matchBlock(block, ctx.scope);
    if (match?.kind !== 'matched') return undefined;
    const placeholder = [...match.bindings].find(([, v]) => v === seg)?.[0];
    if (placeholder === undefined) return undefined;
    const prev =
      target
        .slice(0, Math.max(0, s - 1))
        .split('/')
        .pop() ?? '';
    const hint =
      placeholder !== 'id' ? placeholder : /^[a-z_]+$/.test(prev) && prev.endsWith('s') ? `${singular(prev)}_id` : 'id';
    return {
      text: seg,
      start: ref.start + request.target.start + s,
      end: ref.start + request.target.start + e,
      hint,
      after: prev,
    };
  }
  const p = block.params.find(
    (x) => x.source === 'body' && rel >= x.value.start && rel <= x.value.end && x.value.end > x.value.start,
  );
  if (!p || !ID.test(p.value.text)) return undefined;
  const segments = p.decodedName.split(/[[\]]+/).filter((seg) => seg.length > 0);
  const last = segments[segments.length - 1] ?? '';
  if (!/(^|_)ids?$/.test(last)) return undefined;
  return {
    text: p.value.text,
    start: ref.start + p.value.start,
    end: ref.start + p.value.end,
    hint: last.replace(/ids$/, 'id'),
    param: p.name.text,
  };
}

/** The parameter lines `name = value` of a block's text (`&name=value` and comments are not), as offsets of their values. */
function valueOccurrences(text: string, name: string, value: string, base: number, out: TextEdit[]): void {
  let from = text.indexOf(value);
  while (from !== -1) {
    const lineStart = text.lastIndexOf('\n', from - 1) + 1;
    let lineEnd = text.indexOf('\n', from);
    if (lineEnd === -1) lineEnd = text.length;
    const line = text.slice(lineStart, lineEnd).replace(/\r$/, '');
    const m = /^(\s*)([^\s#@/?&=][^=]*?)\s*=\s*(.*?)\s*$/.exec(line);
    if (m && m[2] === name && m[3] === value) {
      const at = lineStart + line.lastIndexOf(value);
      out.push({ start: base + at, end: base + at + value.length, newText: '' });
    }
    from = text.indexOf(value, lineEnd);
  }
}

function extractLiteral(doc: LpreqDocument, start: number, end: number, ctx: ServiceContext): CodeAction | undefined {
  const lit = literalAt(ctx, doc, start);
  if (!lit || end > lit.end) return undefined;
  const edits: TextEdit[] = [];
  // The other occurrences from each block's request line and text: a block may be an outline
  // (the server parses in full only the block at the cursor), whose request line is there.
  for (const { start: bs, block } of doc.blocks) {
    const request = block.request;
    if (request && request.target.text.includes(lit.text)) {
      const target = request.target.text;
      if (lit.host) {
        if (target.startsWith(lit.text) && /^($|[/?#])/.test(target.slice(lit.text.length)))
          edits.push({
            start: bs + request.target.start,
            end: bs + request.target.start + lit.text.length,
            newText: '',
          });
      } else if (lit.after !== undefined) {
        const q = target.search(/[?#]/);
        const path = q === -1 ? target : target.slice(0, q);
        const segments = path.split('/');
        let from = 0;
        segments.forEach((seg, i) => {
          if (seg === lit.text && i > 0 && segments[i - 1] === lit.after)
            edits.push({
              start: bs + request.target.start + from,
              end: bs + request.target.start + from + seg.length,
              newText: '',
            });
          from += seg.length + 1;
        });
      }
    }
    if (lit.param !== undefined && block.text.includes(lit.text))
      valueOccurrences(block.text, lit.param, lit.text, bs, edits);
    if (edits.length > 10000) return undefined;
  }
  // An id is worth a variable when it recurs; a host at once.
  if (edits.length < (lit.host ? 1 : 2)) return undefined;
  // A name taken anywhere (a file variable, any environment, a {{name}} in use) would change what other requests send.
  const names = new Set<string>(ctx.scope.values.keys());
  for (const vars of Object.values(ctx.env?.environments ?? {})) for (const n of Object.keys(vars)) names.add(n);
  for (const r of findVariableReferences(doc.text, 0)) names.add(r.expression);
  // A variable that holds this value already (base_url for its host) is used, not defined again.
  const existing = [...ctx.scope.values].find(([n, v]) => v === lit.text && !isSecretVariable(n, ctx.env))?.[0];
  let name = existing ?? (lit.hint.replace(/[^\w]/g, '_') || 'value');
  const hint = name;
  for (let n = 2; existing === undefined && names.has(name); n++) name = `${hint}_${n}`;
  for (const e of edits) e.newText = `{{${name}}}`;
  const count = edits.length;
  const at = doc.text.charCodeAt(0) === 0xfeff ? 1 : 0;
  if (existing === undefined) edits.unshift({ start: at, end: at, newText: `@${name} = ${lit.text}\n` });
  const occurrences = count > 1 ? ` (${count} occurrences)` : '';
  return {
    title: existing
      ? `Use {{${name}}} for '${lit.text}'${occurrences}`
      : `Extract '${lit.text}' into @${name}${occurrences}`,
    kind: 'refactor.extract',
    edits,
    diagnostics: [],
  };
}

/** `courses` -> `course`, `quizzes` -> `quiz`, `categories` -> `category`, for a variable's name. */
function singular(word: string): string {
  if (word.endsWith('zzes')) return word.slice(0, -3);
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (/(ches|shes|sses|xes)$/.test(word)) return word.slice(0, -2);
  return word.slice(0, -1);
}
