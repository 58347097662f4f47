/**
 * JetBrains' `"Security": {"Auth": {"<id>": {...}}}` of an environment (docs/oauth2.md): how its
 * token is obtained by OAuth 2.0. Read here as the files write it, each setting with the file it
 * came from, layered like variables (the private file over the shared one, an environment over
 * `$shared`); what the settings mean, and whether lpreq can sign in with them, is the sender's
 * (sender/oauth2/config.ts). A client secret written in the shared file is never kept: it is a
 * finding of that file (`client-secret-in-shared-file`), and the sign-in refuses to start.
 */
import { parseTree, type Node } from 'jsonc-parser';
import { own, setOwn } from '../core/index';
import { readConfinedText } from './textInput';

/** One setting of an auth configuration, from the nearest file that writes it. */
export interface AuthValue {
  value: string | boolean | Record<string, unknown>;
  /** It comes from http-client.private.env.json. */
  private: boolean;
  /** The shared file writes a client secret here: it is not kept, and the sign-in refuses to start. */
  sharedSecret?: true;
}

/** One `Security.Auth.<id>`: its settings by their JetBrains names (`Token URL`, `Client ID`...). */
export type AuthSettings = Record<string, AuthValue>;

type Kind = 'text' | 'boolean' | 'pkce' | 'object' | 'number';

/** The settings of JetBrains' client (and Kulala's few more), with the JSON each takes; a name is matched in any case. */
const SETTINGS = new Map<string, Kind>(
  Object.entries({
    Type: 'text',
    'Grant Type': 'text',
    'Auth URL': 'text',
    'Token URL': 'text',
    'Redirect URL': 'text',
    'Client ID': 'text',
    'Client Secret': 'text',
    'Client Credentials': 'text',
    Scope: 'text',
    PKCE: 'pkce',
    'Use ID Token': 'boolean',
    'Acquire Automatically': 'boolean',
    'Custom Request Parameters': 'object',
    'Device Auth URL': 'text',
    'Open Complete URI': 'boolean',
    'Start Polling After Browser': 'boolean',
    Username: 'text',
    Password: 'text',
    'Revoke URL': 'text',
    'Expires In': 'number',
  } satisfies Record<string, Kind>),
);
const CANONICAL = new Map([...SETTINGS.keys()].map((k) => [k.toLowerCase(), k]));

/** The setting that holds the client's secret: it belongs in the private file. */
const CLIENT_SECRET = 'Client Secret';

/** A value that is wholly one `{{...}}` reference (`{{client_secret}}`, `{{$processEnv LMS_SECRET}}`): it names where the secret is, it is not one. */
function isReference(value: string): boolean {
  return /^\s*\{\{[^{}]+\}\}\s*$/.test(value);
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The `Security` object of one environment of one file, checked: settings by auth id, or the
 * place and the mistake. Settings of other clients (`Security.SSLConfiguration`) are left out.
 */
export function readSecurity(
  security: unknown,
  isPrivate: boolean,
): { auth: Record<string, AuthSettings> } | { at: string; problem: string } {
  if (!isObject(security)) return { at: 'Security', problem: 'expected an object such as { "Auth": { ... } }' };
  const auth = own(security, 'Auth');
  const out = Object.create(null) as Record<string, AuthSettings>;
  if (auth === undefined) return { auth: out };
  if (!isObject(auth)) return { at: 'Security.Auth', problem: 'expected an object of auth configurations by name' };
  for (const [id, config] of Object.entries(auth)) {
    const at = `Security.Auth.${id}`;
    if (!isObject(config)) return { at, problem: 'expected an object such as { "Type": "OAuth2", ... }' };
    const settings = Object.create(null) as AuthSettings;
    for (const [written, value] of Object.entries(config)) {
      const name = CANONICAL.get(written.toLowerCase());
      // Another client's setting: left to it.
      if (name === undefined) continue;
      const kind = SETTINGS.get(name) as Kind;
      const read = readValue(kind, value);
      if ('problem' in read) return { at: `${at}.${written}`, problem: read.problem };
      if (
        name === CLIENT_SECRET &&
        !isPrivate &&
        typeof read.value === 'string' &&
        read.value !== '' &&
        !isReference(read.value)
      ) {
        // Never kept: a secret anyone with the repository can read is no secret.
        setOwn(settings, name, { value: '', private: false, sharedSecret: true });
        continue;
      }
      setOwn(settings, name, { value: read.value, private: isPrivate });
    }
    setOwn(out, id, settings);
  }
  return { auth: out };
}

function readValue(kind: Kind, value: unknown): { value: AuthValue['value'] } | { problem: string } {
  switch (kind) {
    case 'text':
      // An id may be written as a number (a developer key's id); it is sent as written.
      if (typeof value === 'number' && Number.isSafeInteger(value)) return { value: String(value) };
      return typeof value === 'string' ? { value } : { problem: 'expected a text value' };
    case 'number':
      return typeof value === 'number' && value > 0 ? { value: String(value) } : { problem: 'expected a number' };
    case 'boolean':
      return typeof value === 'boolean' ? { value } : { problem: 'expected true or false' };
    case 'pkce':
      if (typeof value === 'boolean') return { value };
      if (!isObject(value))
        return { problem: 'expected true, false or { "Code Challenge Method": "SHA-256", "Code Verifier": "..." }' };
      for (const [k, v] of Object.entries(value)) {
        if (k !== 'Code Challenge Method' && k !== 'Code Verifier')
          return { problem: `${k} is not a PKCE setting (Code Challenge Method, Code Verifier)` };
        if (typeof v !== 'string') return { problem: `${k}: expected a text value` };
      }
      return { value };
    case 'object':
      return isObject(value) ? { value } : { problem: 'expected an object of parameter names and values' };
  }
}

/** Auth configurations of layers, nearest last, merged setting by setting (a configuration of one id in several files is one). */
export function mergeAuth(
  layers: (Record<string, AuthSettings> | undefined)[],
): Record<string, AuthSettings> | undefined {
  let out: Record<string, AuthSettings> | undefined;
  for (const layer of layers) {
    for (const [id, settings] of Object.entries(layer ?? {})) {
      out ??= Object.create(null) as Record<string, AuthSettings>;
      const merged = own(out, id) ?? (Object.create(null) as AuthSettings);
      for (const [name, value] of Object.entries(settings)) setOwn(merged, name, value);
      setOwn(out, id, merged);
    }
  }
  return out;
}

/** A client secret written in a shared environment file: the file, where it stands, and which configuration has it. */
export interface SharedSecretFinding {
  file: string;
  /** The offsets of the value in the file's text. */
  start: number;
  end: number;
  environment: string;
  id: string;
}

/**
 * Every client secret the shared file `file` writes (a value that is not a `{{...}}`
 * reference): each one is reported where it stands, and never used. A file that cannot be
 * read gives none (loading it tells why).
 */
export function sharedClientSecrets(
  file: string,
  workspace: string,
): { findings: SharedSecretFinding[]; text?: string } {
  const read = readConfinedText(file, workspace);
  if (read.problem !== undefined) return { findings: [] };
  return { findings: clientSecretsIn(read.text, file), text: read.text };
}

/** The client secrets a shared environment file's text writes (see sharedClientSecrets). */
function clientSecretsIn(text: string, file: string): SharedSecretFinding[] {
  const root = parseTree(text.replace(/^\uFEFF/, ' '));
  const findings: SharedSecretFinding[] = [];
  const member = (node: Node | undefined, name: (key: string) => boolean): Node[] =>
    node?.type === 'object'
      ? (node.children ?? [])
          .filter((p) => typeof p.children?.[0]?.value === 'string' && name(p.children[0].value as string))
          .map((p) => p.children?.[1])
          .filter((v): v is Node => v !== undefined)
      : [];
  for (const prop of root?.type === 'object' ? (root.children ?? []) : []) {
    const environment = prop.children?.[0]?.value;
    if (typeof environment !== 'string') continue;
    for (const security of member(prop.children?.[1], (k) => k === 'Security'))
      for (const auth of member(security, (k) => k === 'Auth'))
        for (const config of auth.children ?? []) {
          const id = config.children?.[0]?.value;
          if (typeof id !== 'string') continue;
          for (const value of member(config.children?.[1], (k) => k.toLowerCase() === CLIENT_SECRET.toLowerCase())) {
            if (value.type !== 'string' && value.type !== 'number') continue;
            if (typeof value.value === 'string' && (value.value.length === 0 || isReference(value.value))) continue;
            findings.push({ file, start: value.offset, end: value.offset + value.length, environment, id });
          }
        }
  }
  return findings;
}
