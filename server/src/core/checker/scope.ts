/**
 * What a check sees of the variables and requests around a block: the document's variables
 * over the environment's, and the names of the requests before the block (section 4).
 */
import { requestName, type Block, type LpreqDocument } from '../parser';
import { own } from '../own';

/** Variables as the checker sees them: names and (for resolving base addresses) values. */
export interface VariableScope {
  /** File variables and the environment's, by name (file variables win). */
  values: Map<string, string>;
  /** Names of requests (`# @name`): of the whole file, or of the requests above a block when it is checked (RequestsBefore). */
  requestNames: Set<string>;
  /** Variables JetBrains scripts set for later requests (`client.global.set`): defined, of unknown value. */
  scriptNames?: Set<string>;
  /** Told of every variable a check looks up (`diagnose` uses it to find the blocks it checked before a later definition). */
  onLookup?: (name: string) => void;
  /** Brings requestNames up to date before it is read: RequestsBefore fills it only when a check asks (requestNamesOf). */
  syncRequestNames?: () => void;
  /** With an environment chosen: the other environments that define each of their names, to say where a missing name is. */
  otherEnvironments?: OtherEnvironments;
  /** The token scopes the environment grants (`$scopes`); undefined: not limited. */
  granted?: GrantedScopes;
}

/** The token scopes (document A, convention 8) a request may use: what `scope-not-granted` checks against. */
export interface GrantedScopes {
  scopes: ReadonlySet<string>;
  /** Whose `$scopes` these are: the chosen environment, or, with none chosen, every environment. */
  environments: readonly string[];
}

/** The environments besides the chosen one, by the names they define. */
export interface OtherEnvironments {
  selected: string;
  /** Variable name to the other environments that define it, in the file's order. */
  definedIn: ReadonlyMap<string, readonly string[]>;
}

/** A file or environment variable's value, as a check sees it. */
export function scopeValue(scope: VariableScope, name: string): string | undefined {
  scope.onLookup?.(name);
  return scope.values.get(name);
}

export function scopeHasValue(scope: VariableScope, name: string): boolean {
  scope.onLookup?.(name);
  return scope.values.has(name);
}

export function scopeHasRequest(scope: VariableScope, name: string): boolean {
  return requestNamesOf(scope).has(name);
}

/** The names of the requests a scope sees (read them through this: a RequestsBefore scope fills its set on demand). */
export function requestNamesOf(scope: VariableScope): ReadonlySet<string> {
  scope.syncRequestNames?.();
  return scope.requestNames;
}

export interface Environments {
  /** Environment name to variables, the private file already merged over the shared one. */
  environments: Record<string, Record<string, string>>;
  /** The chosen environment; without one, a variable defined in any environment counts. */
  selected?: string;
  /** The token scopes of the environments that declare them (`$scopes`), by environment; one not here is not limited. */
  scopes?: Record<string, readonly string[]>;
}

export function environmentValues(env: Environments | undefined): Map<string, string> {
  const values = new Map<string, string>();
  if (!env) return values;
  if (env.selected !== undefined) {
    for (const [k, v] of Object.entries(own(env.environments, env.selected) ?? {})) values.set(k, String(v));
    return values;
  }
  for (const vars of Object.values(env.environments)) {
    for (const [k, v] of Object.entries(vars)) if (!values.has(k)) values.set(k, String(v));
  }
  return values;
}

/** Where the names missing from the chosen environment are defined; undefined without a choice (every environment counts then). */
export function otherEnvironments(env: Environments | undefined): OtherEnvironments | undefined {
  if (env?.selected === undefined) return undefined;
  const definedIn = new Map<string, string[]>();
  for (const [name, vars] of Object.entries(env.environments)) {
    if (name === env.selected) continue;
    for (const k of Object.keys(vars)) {
      const list = definedIn.get(k);
      if (list) list.push(name);
      else definedIn.set(k, [name]);
    }
  }
  return { selected: env.selected, definedIn };
}

/**
 * The scopes a request may use in these environments: the chosen one's `$scopes`; with none
 * chosen, a scope any environment grants (as a variable any environment defines counts), so
 * that only when every environment declares its scopes is anything limited.
 */
export function grantedScopes(env: Environments | undefined): GrantedScopes | undefined {
  const declared = env?.scopes;
  if (!env || !declared) return undefined;
  if (env.selected !== undefined) {
    const list = own(declared, env.selected);
    return list ? { scopes: new Set(list), environments: [env.selected] } : undefined;
  }
  const names = Object.keys(env.environments);
  if (names.length === 0) return undefined;
  const scopes = new Set<string>();
  for (const name of names) {
    const list = own(declared, name);
    if (!list) return undefined;
    for (const s of list) scopes.add(s);
  }
  return { scopes, environments: names };
}

/** Collects the scope of a document: its file variables over the environment's, and all its request names. */
export function documentScope(doc: LpreqDocument, env?: Environments): VariableScope {
  const scope = documentVariables(doc, env);
  for (let k = 0; k < doc.blocks.length; k++) {
    const name = requestName(doc.blocks[k].block);
    if (name) scope.requestNames.add(name);
  }
  return scope;
}

/** A document's variables (file variables over the environment's, names its scripts set), without its request names: what RequestsBefore starts from. */
export function documentVariables(doc: LpreqDocument, env?: Environments): VariableScope {
  const scope: VariableScope = {
    values: environmentValues(env),
    requestNames: new Set(),
    otherEnvironments: otherEnvironments(env),
    granted: grantedScopes(env),
  };
  for (let k = 0; k < doc.blocks.length; k++) {
    const block = doc.blocks[k].block;
    for (const v of block.variables) scope.values.set(v.name.text, v.value.text);
    for (const set of block.scriptSets) if (set.global) (scope.scriptNames ??= new Set()).add(set.name);
  }
  return scope;
}

/**
 * The scope a block's check sees, walking a document from the top: the whole document's
 * variables, and the names of the requests before the block (a request can only use the
 * response of an earlier one). `key` tells the blocks' positions apart for caches: while the
 * document's named requests and their order stay the same, the count of named requests
 * before a block fixes which names it sees.
 *
 * The names are kept in a list; the set a check reads is filled from it only when a check
 * asks (requestNamesOf), which most blocks never do: a file of named requests costs no
 * hashing of every name.
 */
export class RequestsBefore {
  private readonly names: string[] = [];
  private readonly seen = new Set<string>();
  /** How many of `names` are in `seen`. */
  private synced = 0;
  /** The scope to check the next block with (its set is current whenever it is read through requestNamesOf). */
  readonly scope: VariableScope;

  constructor(whole: VariableScope) {
    this.scope = {
      values: whole.values,
      requestNames: this.seen,
      scriptNames: whole.scriptNames,
      onLookup: whole.onLookup,
      otherEnvironments: whole.otherEnvironments,
      granted: whole.granted,
      syncRequestNames: () => this.sync(),
    };
  }

  get key(): number {
    return this.names.length;
  }

  private sync(): void {
    while (this.synced < this.names.length) this.seen.add(this.names[this.synced++]);
  }

  /** Steps past a block: its name, if any, is seen by the blocks after it. */
  pass(block: Block): void {
    const name = requestName(block);
    if (name) this.names.push(name);
  }

  /**
   * Starts again at the top of a document, with its variables: what a checker does with the
   * one it keeps (Checker.walk), and with an empty scope after the walk, so that nothing of
   * the document stays reachable from it.
   */
  restart(whole: Pick<VariableScope, 'values' | 'scriptNames' | 'onLookup' | 'otherEnvironments' | 'granted'>): void {
    this.names.length = 0;
    this.seen.clear();
    this.synced = 0;
    const scope = this.scope;
    scope.values = whole.values;
    scope.scriptNames = whole.scriptNames;
    scope.onLookup = whole.onLookup;
    scope.otherEnvironments = whole.otherEnvironments;
    scope.granted = whole.granted;
  }

  /**
   * A scope of its own for a block seen earlier, the one whose `key` was given: the same
   * variables, and a set of the names of the requests before that block.
   */
  scopeAt(key: number): VariableScope {
    return { ...this.scope, requestNames: new Set(this.names.slice(0, key)), syncRequestNames: undefined };
  }
}
