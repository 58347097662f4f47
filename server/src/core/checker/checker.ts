/**
 * The checker: a request block against the catalog (LPREQ-FORMAT sections 2 to 4, and the
 * assertions of section 6).
 * One interpreter for every rule kind of the catalog; no endpoint is special-cased here.
 */
import type { Catalog, Endpoint } from '../catalog/catalog';
import { EndpointMatcher, targetPath, type MatchResult } from '../matcher';
import { blockBoundaries, parseBlock, parseDocument, requestTarget, type Block, type LpreqDocument } from '../parser';
import { jsonBodyParameters } from '../jsonParams';
import { documented, endpointFact } from './phrases';
import { byPosition, diag, NO_DIAGNOSTICS, shiftDiagnostic, type Diagnostic } from './diagnostics';
import {
  documentVariables,
  environmentValues,
  grantedScopes,
  otherEnvironments,
  RequestsBefore,
  scopeValue,
  type Environments,
  type VariableScope,
} from './scope';
import { checkDurations, checkHeaders, checkVariables } from './text';
import { checkTarget } from './path';
import { NO_PARAMS, type RequestCheck } from './context';
import { checkJsonBody, guardDepth } from './jsonBody';
import { checkParameters } from './parameters';
import { AssertionVerdicts } from './assertions';
import { checkSnapshotLines } from './snapshot';

export class Checker {
  readonly matcher: EndpointMatcher;
  /**
   * The walk from the top of a document that diagnose and checkDocument make, kept from call
   * to call (both are synchronous) and emptied after each. V8 keeps the hidden classes of a
   * walk's objects only while one of them lives: a walk made for each call would take them,
   * and the code optimised for them, along when it is collected.
   */
  private readonly walk = new RequestsBefore(emptyScope());
  /** The assertion lines checked so far, by their text as written. */
  private readonly assertionVerdicts: AssertionVerdicts;

  constructor(readonly catalog: Catalog) {
    this.matcher = new EndpointMatcher(catalog);
    this.assertionVerdicts = new AssertionVerdicts(catalog);
  }

  /** Checks a whole text (parse + check). */
  checkText(text: string, env?: Environments): { document: LpreqDocument; diagnostics: Diagnostic[] } {
    const document = parseDocument(text);
    return { document, diagnostics: this.checkDocument(document, env) };
  }

  /**
   * The diagnostics of a text, without keeping its tree: what `lpreq check` needs. Each block
   * is parsed, checked and dropped; nothing outlives its block, so a large file costs the
   * garbage collector little. The result equals checkDocument(parseDocument(text), env).
   * (A host that keeps an outline of the blocks reads it afterwards, `parseOutline`: kept
   * while this runs, it would live through the collections of all its garbage.)
   * `onChecked` is told, at the end, each block's final diagnostics (offsets relative to the
   * block, sorted), those checkBlock gives the block in the document's scope where it stands,
   * and the endpoint its request was checked against (when its target could be read and
   * matched one): a host that caches per block need not check or match the blocks again.
   */
  diagnose(
    text: string,
    env?: Environments,
    onChecked?: (index: number, diagnostics: readonly Diagnostic[], endpoint: Endpoint | undefined) => void,
  ): Diagnostic[] {
    const starts = blockBoundaries(text);
    const blockText = (k: number) => text.slice(starts[k], k + 1 < starts.length ? starts[k + 1] : text.length);
    // One pass: each block is checked with the scope of the blocks up to it, and every
    // variable it looks up is noted. A variable defined again or first by a later block makes
    // that block's check stale; those few blocks are checked again, with the whole document's
    // variables, at the end. Request names are another matter: a request can only use the
    // response of an earlier one (section 4), so each block sees the names before it.
    let current = 0;
    /** The blocks that looked each variable up, in order (a block once per name). */
    const lookedUp = new Map<string, number[]>();
    const before = this.walk;
    before.restart({
      values: environmentValues(env),
      otherEnvironments: otherEnvironments(env),
      granted: grantedScopes(env),
      onLookup: (name) => {
        const blocks = lookedUp.get(name);
        if (!blocks) lookedUp.set(name, [current]);
        else if (blocks[blocks.length - 1] !== current) blocks.push(current);
      },
    });
    const scope = before.scope;
    /** The block that defines each variable (a file variable's last definition, a script's first); the count of named requests before each block. */
    const setAt = new Map<string, number>();
    let lastDefinition = -1;
    const keys: number[] = [];
    const found: Diagnostic[][] = [];
    /** The endpoint each block was checked against (only for onChecked). */
    const endpoints: (Endpoint | undefined)[] = [];
    for (let k = 0; k < starts.length; k++) {
      current = k;
      const block = parseBlock(blockText(k));
      for (let i = 0; i < block.variables.length; i++) {
        const v = block.variables[i];
        scope.values.set(v.name.text, v.value.text);
        setAt.set(v.name.text, k);
        lastDefinition = k;
      }
      for (let i = 0; i < block.scriptSets.length; i++) {
        const set = block.scriptSets[i];
        if (!set.global) continue;
        (scope.scriptNames ??= new Set()).add(set.name);
        if (!setAt.has(set.name)) {
          setAt.set(set.name, k);
          lastDefinition = k;
        }
      }
      keys.push(before.key);
      const diagnostics: Diagnostic[] = [];
      const endpoint = this.checkInto(block, scope, diagnostics);
      if (onChecked) endpoints.push(endpoint);
      // Most blocks have none: their empty lists are not kept to the end.
      found.push(diagnostics.length === 0 ? NO_DIAGNOSTICS : diagnostics);
      before.pass(block);
    }
    scope.onLookup = undefined;
    // The blocks that looked a variable up before its (last) definition, in order.
    const stale: number[] = [];
    if (lastDefinition > 0) {
      for (const [name, blocks] of lookedUp) {
        const definedAt = setAt.get(name);
        if (definedAt === undefined) continue;
        for (let i = 0; i < blocks.length && blocks[i] < definedAt; i++) stale.push(blocks[i]);
      }
      stale.sort((a, b) => a - b);
    }
    for (let i = 0; i < stale.length; i++) {
      const k = stale[i];
      if (i > 0 && stale[i - 1] === k) continue;
      const diagnostics: Diagnostic[] = [];
      const endpoint = this.checkInto(parseBlock(blockText(k)), before.scopeAt(keys[k]), diagnostics);
      found[k] = diagnostics;
      if (onChecked) endpoints[k] = endpoint;
    }
    before.restart(NOTHING);
    const out: Diagnostic[] = [];
    for (let k = 0; k < found.length; k++) {
      const diagnostics = found[k];
      if (diagnostics.length > 1) diagnostics.sort(byPosition);
      onChecked?.(k, diagnostics, endpoints[k]);
      if (diagnostics.length === 0) continue;
      for (const d of diagnostics) out.push(shiftDiagnostic(d, starts[k]));
    }
    return out;
  }

  checkDocument(doc: LpreqDocument, env?: Environments): Diagnostic[] {
    // The whole document's variables; the request names of the blocks before each one (section 4).
    const before = this.walk;
    before.restart(documentVariables(doc, env));
    const out: Diagnostic[] = [];
    for (let k = 0; k < doc.blocks.length; k++) {
      const { start, block } = doc.blocks[k];
      const diagnostics = this.checkBlock(block, before.scope);
      before.pass(block);
      if (diagnostics.length === 0) continue;
      if (diagnostics.length > 1) diagnostics.sort(byPosition);
      for (const d of diagnostics) out.push(shiftDiagnostic(d, start));
    }
    before.restart(NOTHING);
    return out;
  }

  /** Matches a block's request to the catalog (also used by completion, hover and sending). */
  matchBlock(block: Block, scope: VariableScope): MatchResult | undefined {
    const request = block.request;
    if (!request || !request.methodKnown) return undefined;
    const path = targetPath(requestTarget(request), (name) => scopeValue(scope, name));
    if (!path) return undefined;
    return this.matcher.match(path, request.method.text);
  }

  /** Checks one block; offsets in the result are relative to the block. Never throws on any input. */
  checkBlock(block: Block, scope: VariableScope): Diagnostic[] {
    const out: Diagnostic[] = [];
    this.checkInto(block, scope, out);
    return out;
  }

  /** Checks one block into `out`; returns the endpoint its request was checked against, if its target could be read and matched one. */
  private checkInto(block: Block, scope: VariableScope, out: Diagnostic[]): Endpoint | undefined {
    for (let i = 0; i < block.problems.length; i++) {
      const p = block.problems[i];
      out.push(diag('syntax', p.message, p.start, p.end));
    }
    checkVariables(block, scope, out);
    checkHeaders(block, out);
    if (block.metadata.length > 0) checkDurations(block, out);
    const check = checkTarget(this.matcher, block, scope, out);
    if (check) checkSent(check);
    if (block.metadata.length > 0) checkSnapshotLines(this.catalog, block, check, out);
    if (block.assertionLines.length > 0) this.assertionVerdicts.checkBlock(block, check, out);
    return check?.endpoint;
  }
}

/** What the request sends, by where it stands: the parameters (query, form body, a JSON body read as them) or a JSON body. */
function checkSent(check: RequestCheck): void {
  const { block, endpoint, label, lineStart, lineEnd, out } = check;
  // A body read from a file (`< ./body.json`) is not here to check: what it holds, required or not, is unknown.
  if (block.fileBody) {
    if (endpoint.body !== 'json') checkParameters(check, block.params, false);
    return;
  }
  if (endpoint.body === 'json') {
    // Beside a JSON body, a query string is not the body: it is checked as parameters, and the body as JSON.
    // Without one, parameters anywhere are form parameters sent where JSON is expected.
    const query = block.jsonBody ? block.params.filter((p) => p.source === 'query') : NO_PARAMS;
    if (query.length > 0) checkParameters(check, query, false);
    if (query.length < block.params.length) {
      out.push(
        diag(
          'json-body-expected',
          'this endpoint takes a JSON body, not form parameters: write the body as JSON',
          lineStart,
          lineEnd,
          undefined,
          [documented(endpoint.jsonBody?.description), endpointFact(label)],
        ),
      );
      return;
    }
    if (endpoint.jsonBody) guardDepth(block, out, () => checkJsonBody(check, endpoint.jsonBody!));
    return;
  }
  let params = block.params;
  if (block.jsonBody) {
    // The API reads a JSON body of a form endpoint as its parameters: check them by their bracket names.
    let json: ReturnType<typeof jsonBodyParameters> | undefined;
    guardDepth(block, out, () => (json = jsonBodyParameters(block.jsonBody!)));
    if (!json) return;
    if (json.error) {
      out.push(diag('syntax', json.error.message, json.error.start, json.error.end));
      return;
    }
    params = [...block.params, ...json.params];
    // A variable standing for a whole value (`"column": {{column}}`) may hold anything: what is missing cannot be known.
    if (json.variableValues) {
      checkParameters(check, params, false);
      return;
    }
  }
  checkParameters(check, params);
}

function emptyScope(): VariableScope {
  return { values: new Map(), requestNames: new Set() };
}

/** What the kept walk holds between two calls: no variables of any document. */
const NOTHING: VariableScope = emptyScope();
