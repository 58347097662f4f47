/**
 * Environment files (LPREQ-FORMAT section 4): http-client.env.json (shared) and
 * http-client.private.env.json (private), beside the request file or in a folder above
 * it, up to the workspace root. A private value overrides a shared one of the same name.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseTree } from 'jsonc-parser';
import { hasOwn, own, readScopeList, setOwn, type ScopeSite } from '../core/index';
import { mergeAuth, readSecurity, type AuthSettings } from './authSettings';
import { readScopeFile } from './scopeFiles';
import { readConfinedText } from './textInput';

const SHARED_ENV_FILE = 'http-client.env.json';
const PRIVATE_ENV_FILE = 'http-client.private.env.json';

export class EnvironmentFileError extends Error {}

export interface EnvironmentFiles {
  shared?: string;
  private?: string;
  environments: Record<string, Record<string, string>>;
  /** Variables that come from the private file, by environment (never shown in hovers or logs). */
  privateNames: Record<string, Set<string>>;
  /** The `$tls` and `$defaultHeaders` settings of each environment that has any. */
  options?: Record<string, EnvironmentOptions>;
}

/**
 * `$tls` of an environment: how lpreq connects to its base_url's origin over https (a staging
 * host with a company CA or one that asks for a client certificate). Paths are absolute,
 * resolved from the folder of the environment file that wrote them.
 */
export interface TlsSettings {
  /** false: any certificate is accepted (a test host with a self-signed one). Default true. */
  rejectUnauthorized?: boolean;
  /** PEM file of the certificate authorities to trust (instead of the system's). */
  ca?: string;
  /** PEM files of the client certificate and its key, for a server that asks for one. */
  cert?: string;
  key?: string;
  /** The workspace the files must be inside (that of the environment files which name them). */
  workspace?: string;
}

export interface EnvironmentOptions {
  tls?: TlsSettings;
  /** `$defaultHeaders`: headers every request of the environment gets unless it sets them. */
  defaultHeaders?: [string, string][];
  /** The default headers (lower-case names) whose value comes from the private file: secrets, like the token. */
  privateHeaders?: string[];
  /** `$scopes`: the token scopes the environment's token is limited to, and where the list is written. */
  scopes?: { list: string[]; site: ScopeSite };
  /** JetBrains' `Security.Auth`: how the environment's token is obtained by OAuth 2.0, by configuration id (authSettings.ts). */
  auth?: Record<string, AuthSettings>;
}

/** What one environment of one file says besides its variables. */
type FileOptions = Record<string, EnvironmentOptions>;

function isRoot(dir: string, stopAt?: string): boolean {
  return dir === dirname(dir) || (stopAt !== undefined && dir === stopAt) || existsSync(join(dir, '.git'));
}

/** The nearest file of this name at or above `dir`, stopping at the workspace root. */
function findUp(dir: string, name: string, stopAt?: string): string | undefined {
  let current = resolve(dir);
  for (;;) {
    const candidate = join(current, name);
    if (existsSync(candidate)) return candidate;
    if (isRoot(current, stopAt)) return undefined;
    current = dirname(current);
  }
}

function parseEnvironmentFile(
  text: string,
  file: string,
  isPrivate: boolean,
): { environments: Record<string, Record<string, string>>; options: FileOptions } {
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    // JSON.parse quotes the text around the mistake; in a private file that can be a token, so only the place is told.
    const at = /position (\d+)/.exec((e as Error).message);
    let where = '';
    if (at) {
      const before = text.slice(0, Number(at[1]));
      const line = before.split('\n').length;
      where = ` at line ${line}, column ${Number(at[1]) - before.lastIndexOf('\n')}`;
    } else if (/end of JSON input/i.test((e as Error).message)) where = ': it ends too early';
    throw new EnvironmentFileError(`${file}: not valid JSON${where}`);
  }
  const read = readEnvironments(json);
  if ('problem' in read)
    throw new EnvironmentFileError(
      `${file}: expected { "env name": { "variable": "value" } }; at ${read.at}: ${read.problem}`,
    );
  const options: FileOptions = Object.create(null) as FileOptions;
  for (const [name, vars] of Object.entries(json as Record<string, unknown>)) {
    if (!hasOwn(read.environments, name)) continue;
    const found = readOptions(vars as Record<string, unknown>, file, name, isPrivate);
    if ('problem' in found) throw new EnvironmentFileError(`${file}: at ${name}.${found.at}: ${found.problem}`);
    if (found.options.tls || found.options.defaultHeaders || found.options.scopes || found.options.auth)
      setOwn(options, name, found.options);
  }
  return { environments: read.environments, options };
}

const TLS_KEYS = new Set(['rejectUnauthorized', 'ca', 'cert', 'key']);

/**
 * `$tls`, `$defaultHeaders` and `$scopes` of the environment `name` of `file`, checked: a
 * misspelt key of `$tls` would otherwise be a certificate check silently left as it was, so it
 * is a mistake of the file.
 */
function readOptions(
  vars: Record<string, unknown>,
  file: string,
  name: string,
  isPrivate: boolean,
): { options: EnvironmentOptions } | { at: string; problem: string } {
  const dir = dirname(file);
  const options: EnvironmentOptions = {};
  const isObject = (v: unknown): v is Record<string, unknown> =>
    v !== null && typeof v === 'object' && !Array.isArray(v);
  const tls = own(vars, '$tls');
  if (tls !== undefined) {
    if (!isObject(tls)) return { at: '$tls', problem: 'expected an object such as { "ca": "./ca.pem" }' };
    const out: TlsSettings = {};
    for (const [k, v] of Object.entries(tls)) {
      if (!TLS_KEYS.has(k)) return { at: `$tls.${k}`, problem: 'not a TLS option (rejectUnauthorized, ca, cert, key)' };
      if (k === 'rejectUnauthorized') {
        if (typeof v !== 'boolean') return { at: `$tls.${k}`, problem: 'expected true or false' };
        out.rejectUnauthorized = v;
      } else {
        if (typeof v !== 'string' || v.trim().length === 0)
          return { at: `$tls.${k}`, problem: 'expected the path of a PEM file, relative to this file' };
        out[k as 'ca' | 'cert' | 'key'] = resolve(dir, v);
      }
    }
    options.tls = out;
  }
  const headers = own(vars, '$defaultHeaders');
  if (headers !== undefined) {
    if (!isObject(headers)) return { at: '$defaultHeaders', problem: 'expected an object of header names and values' };
    const out: [string, string][] = [];
    for (const [k, v] of Object.entries(headers)) {
      if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean')
        return { at: `$defaultHeaders.${k}`, problem: 'expected a text value' };
      out.push([k, String(v)]);
    }
    options.defaultHeaders = out;
  }
  const scopes = own(vars, '$scopes');
  if (scopes !== undefined) {
    // A list, or the name of a file that holds one (the mock's --scopes file, `lpreq scopes --format json`).
    if (typeof scopes === 'string') {
      if (scopes.trim().length === 0)
        return { at: '$scopes', problem: 'expected a list of scopes or the path of a JSON file that holds one' };
      const listFile = resolve(dir, scopes);
      const read = readScopeFile(listFile, dir);
      if ('problem' in read) return { at: '$scopes', problem: `${scopes}: ${read.problem}` };
      options.scopes = { list: read.scopes, site: { file, environment: name, listFile } };
    } else {
      const read = readScopeList(scopes);
      if ('problem' in read) return { at: '$scopes', problem: read.problem };
      options.scopes = { list: read.scopes, site: { file, environment: name } };
    }
  }
  const security = own(vars, 'Security');
  if (security !== undefined) {
    const read = readSecurity(security, isPrivate);
    if ('problem' in read) return read;
    if (Object.keys(read.auth).length > 0) options.auth = read.auth;
  }
  return { options };
}

/**
 * An environment file's JSON as environment name to variable name to value. Every key
 * JSON.parse gives is kept as an own property, `__proto__` too: a name such as `constructor`
 * is a name like any other (zod's records drop `__proto__`), read back through own().
 * Numbers and booleans are read as the strings they send. Objects, arrays and null are other
 * clients' settings, not variables (JetBrains' `"Security": { "Auth": ... }`), and so are
 * top-level keys starting with `$` other than `$shared` (Kulala's `$schema`): they are left out.
 */
function readEnvironments(
  json: unknown,
): { environments: Record<string, Record<string, string>> } | { at: string; problem: string } {
  const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v);
  const isObject = (v: unknown): v is Record<string, unknown> =>
    v !== null && typeof v === 'object' && !Array.isArray(v);
  if (!isObject(json)) return { at: '(top)', problem: `expected an object, got ${kind(json)}` };
  const environments: Record<string, Record<string, string>> = {};
  for (const [name, vars] of Object.entries(json)) {
    if (name.startsWith('$') && name !== SHARED_ENVIRONMENT) continue;
    if (!isObject(vars)) return { at: name, problem: `expected an object, got ${kind(vars)}` };
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(vars))
      if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') setOwn(out, k, String(v));
    setOwn(environments, name, out);
  }
  return { environments };
}

/**
 * An environment file's text, read as request files are (size limit, UTF-16 with a byte order
 * mark, as PowerShell writes it) through the confined reader: a link that leads out of the
 * workspace (a clone's `http-client.private.env.json -> ~/secrets.json`), a pipe or a device
 * is not read, and a file that cannot be read (a folder, no permission) is named in the error.
 */
function readEnvironmentFile(file: string, workspace: string): string {
  const read = readConfinedText(file, workspace);
  if (read.problem !== undefined) throw new EnvironmentFileError(`${file}: ${read.problem}`);
  return read.text;
}

/** The environment whose variables every environment has (httpYac, Kulala and JetBrains read it too); not one to choose. */
const SHARED_ENVIRONMENT = '$shared';

/**
 * Reads the environment files that apply to a request file in `dir`. A variable of an
 * environment comes, first found, from the private file's entry for it, the shared file's,
 * the private file's `$shared`, then the shared file's `$shared`.
 *
 * A file that cannot be read, or is not an environment file, throws an EnvironmentFileError;
 * with `onProblem`, the error goes there instead and that file alone is left out (checking
 * goes on without its variables; sending needs them and passes none).
 */
export function loadEnvironmentFiles(
  dir: string,
  stopAt?: string,
  onProblem?: (error: EnvironmentFileError) => void,
): EnvironmentFiles {
  const shared = findUp(dir, SHARED_ENV_FILE, stopAt);
  const priv = findUp(dir, PRIVATE_ENV_FILE, stopAt);
  // The workspace: the editor's folder, else the folder of the environment files (the higher one).
  const workspace = stopAt ?? environmentsFolder([shared, priv]) ?? resolve(dir);
  const load = (
    file: string | undefined,
  ): { environments: Record<string, Record<string, string>>; options: FileOptions } => {
    const none = { environments: {}, options: Object.create(null) as FileOptions };
    if (!file) return none;
    try {
      return parseEnvironmentFile(readEnvironmentFile(file, workspace), file, file === priv);
    } catch (e) {
      if (!onProblem || !(e instanceof EnvironmentFileError)) throw e;
      onProblem(e);
      return none;
    }
  };
  const sharedFile = load(shared);
  const privateFile = load(priv);
  const sharedEnvs = sharedFile.environments;
  const privateEnvs = privateFile.environments;
  const names = new Set(
    [...Object.keys(sharedEnvs), ...Object.keys(privateEnvs)].filter((n) => n !== SHARED_ENVIRONMENT),
  );
  // With no environment of its own, `$shared` is all there is: it stays, so its variables count.
  if (names.size === 0 && (hasOwn(sharedEnvs, SHARED_ENVIRONMENT) || hasOwn(privateEnvs, SHARED_ENVIRONMENT)))
    names.add(SHARED_ENVIRONMENT);
  const environments: Record<string, Record<string, string>> = {};
  const privateNames: Record<string, Set<string>> = {};
  const options: Record<string, EnvironmentOptions> = Object.create(null) as Record<string, EnvironmentOptions>;
  for (const name of names) {
    // Settings are layered as variables are: each TLS option and each header (by its name, in any case) from the nearest layer that has it.
    const merged = mergeOptions([
      [own(sharedFile.options, SHARED_ENVIRONMENT), false],
      [own(privateFile.options, SHARED_ENVIRONMENT), true],
      [own(sharedFile.options, name), false],
      [own(privateFile.options, name), true],
    ]);
    if (merged?.tls) merged.tls.workspace = workspace;
    if (merged) setOwn(options, name, merged);
    const vars: Record<string, string> = {};
    const fromPrivate = new Set<string>();
    const layers: [Record<string, string> | undefined, boolean][] = [
      [own(sharedEnvs, SHARED_ENVIRONMENT), false],
      [own(privateEnvs, SHARED_ENVIRONMENT), true],
      [own(sharedEnvs, name), false],
      [own(privateEnvs, name), true],
    ];
    for (const [layer, isPrivate] of layers) {
      for (const [k, v] of Object.entries(layer ?? {})) {
        setOwn(vars, k, v);
        if (isPrivate) fromPrivate.add(k);
        else fromPrivate.delete(k);
      }
    }
    setOwn(environments, name, vars);
    if (fromPrivate.size > 0) setOwn(privateNames, name, fromPrivate);
  }
  return { shared, private: priv, environments, privateNames, options };
}

/** The higher folder of the environment files found, or undefined when there are none. */
export function environmentsFolder(files: (string | undefined)[]): string | undefined {
  const folders = files.filter((f): f is string => f !== undefined).map((f) => dirname(resolve(f)));
  return folders.length === 0 ? undefined : folders.reduce((a, b) => (b.length < a.length ? b : a));
}

/** Layers of settings, nearest last, each marked private or not: a header's value is private when its nearest layer is. */
function mergeOptions(layers: [EnvironmentOptions | undefined, boolean][]): EnvironmentOptions | undefined {
  let tls: TlsSettings | undefined;
  let headers: Map<string, [string, string]> | undefined;
  const fromPrivate = new Set<string>();
  // A list of scopes is one value: the nearest layer's, whole.
  let scopes: EnvironmentOptions['scopes'];
  // An auth configuration is layered setting by setting (the client secret in the private file, the rest in the shared one).
  const auth = mergeAuth(layers.map(([layer]) => layer?.auth));
  for (const [layer, isPrivate] of layers) {
    if (layer?.tls) tls = { ...tls, ...layer.tls };
    for (const [n, v] of layer?.defaultHeaders ?? []) {
      (headers ??= new Map()).set(n.toLowerCase(), [n, v]);
      if (isPrivate) fromPrivate.add(n.toLowerCase());
      else fromPrivate.delete(n.toLowerCase());
    }
    if (layer?.scopes) scopes = layer.scopes;
  }
  if (!tls && !headers && !scopes && !auth) return undefined;
  return {
    ...(tls ? { tls } : {}),
    ...(headers ? { defaultHeaders: [...headers.values()] } : {}),
    ...(fromPrivate.size > 0 ? { privateHeaders: [...fromPrivate] } : {}),
    ...(scopes ? { scopes } : {}),
    ...(auth ? { auth } : {}),
  };
}

/**
 * The `$scopes` of the environments as the checker takes them (`Environments.scopes`), and
 * where each list is written (`EnvironmentInfo.scopeSites`); empty when none declares any.
 */
export function environmentScopes(files: Pick<EnvironmentFiles, 'options'>): {
  scopes?: Record<string, readonly string[]>;
  scopeSites?: Record<string, ScopeSite>;
} {
  let scopes: Record<string, readonly string[]> | undefined;
  let scopeSites: Record<string, ScopeSite> | undefined;
  for (const [name, options] of Object.entries(files.options ?? {})) {
    if (!options.scopes) continue;
    setOwn((scopes ??= Object.create(null) as Record<string, readonly string[]>), name, options.scopes.list);
    setOwn((scopeSites ??= Object.create(null) as Record<string, ScopeSite>), name, options.scopes.site);
  }
  return scopes ? { scopes, scopeSites } : {};
}

/** Where a variable is written in an environment file: the key's offsets in the file's text. */
export interface VariableDefinitionSite {
  file: string;
  text: string;
  start: number;
  end: number;
}

/**
 * The places that define `name` in these environment files (go to definition): the key in
 * each environment that has it, the chosen one (and `$shared`) only when one is chosen.
 * A file that cannot be read or parsed gives none.
 */
export function environmentDefinitions(
  files: (string | undefined)[],
  name: string,
  selected?: string,
): VariableDefinitionSite[] {
  const out: VariableDefinitionSite[] = [];
  for (const file of files) {
    if (!file) continue;
    const read = readConfinedText(file, dirname(file));
    if (read.problem !== undefined) continue;
    const text = read.text;
    const root = parseTree(text);
    if (!root || root.type !== 'object') continue;
    for (const envProp of root.children ?? []) {
      const [envKey, envValue] = envProp.children ?? [];
      if (!envKey || !envValue || envValue.type !== 'object') continue;
      if (selected !== undefined && envKey.value !== selected && envKey.value !== SHARED_ENVIRONMENT) continue;
      for (const varProp of envValue.children ?? []) {
        const key = varProp.children?.[0];
        if (key && key.value === name)
          out.push({ file, text, start: key.offset + 1, end: key.offset + key.length - 1 });
      }
    }
  }
  return out;
}
