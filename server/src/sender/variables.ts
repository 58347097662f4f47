/**
 * Resolving `{{...}}` when a request is sent (LPREQ-FORMAT section 4): file variables,
 * the chosen environment, system variables and references to earlier responses.
 * Pure: the clock, randomness, the process environment and `.env` values come in as data.
 */
import { randomUUID } from 'node:crypto';
import {
  findVariableReferences,
  SECRET_NAME,
  ENV_VARIABLE,
  parseRequestReference,
  type RequestReference,
  own,
  setOwn,
} from '../core/index';

/** What system variables read; every member can be replaced in tests. */
export interface SystemContext {
  now?: () => Date;
  /** A number in [0, 1). */
  random?: () => number;
  uuid?: () => string;
  /** For `{{$processEnv NAME}}`. */
  processEnv?: Record<string, string | undefined>;
  /** For `{{$dotenv NAME}}`: the `.env` file beside the request file, already read. */
  dotenv?: Record<string, string>;
  /** For `{{$projectRoot}}`: the folder of the environment file, or of the request file. */
  projectRoot?: string;
  /**
   * For `{{$auth.token("id")}}` and `{{$auth.idToken("id")}}`: the environment's OAuth 2.0
   * sign-ins (oauth2/environmentAuth.ts), their tokens readied before the request is prepared.
   */
  auth?: { value(kind: 'token' | 'idToken', id: string): { value: string } | { error: string } };
}

/** The value of a `{{name.response...}}` reference, or why there is none. */
export type ReferenceResolver = (ref: RequestReference) => { value: string } | { error: string };

export interface ResolveContext {
  /** File variables over the environment's (documentScope(...).values). */
  values: Map<string, string>;
  system?: SystemContext;
  reference?: ReferenceResolver;
  /** Names that JetBrains scripts set (`client.global.set`), for a plain error: lpreq does not run scripts. */
  scriptNames?: ReadonlySet<string>;
  /** `{{%name}}` gives the plain value (the text is encoded later as a whole). */
  plainPercent?: boolean;
  /** Why a name that `values` lacks is missing, when an environment would give it (another one, or one when none is chosen). */
  missing?: (name: string) => string | undefined;
}

export interface Resolved {
  text: string;
  /** Problems in words: unresolved names, bad system variables. Empty when all resolved. */
  errors: string[];
  /** Values read from a process or `.env` variable whose name reads like a secret (`{{$processEnv LPREQ_TOKEN}}`): secrets of the request. */
  secrets: string[];
}

/**
 * Whether a system variable reads a process or `.env` variable whose name reads like a secret
 * (`$processEnv LPREQ_TOKEN`, `$env.API_KEY`, `$dotenv PASSWORD`): its value is then a secret,
 * kept from other origins and out of output, history and copied commands like the token.
 */
function readsSecret(expression: string): boolean {
  const name = ENV_VARIABLE.exec(expression)?.[1] ?? /^\$(?:processEnv|dotenv)\s+(\S+)\s*$/.exec(expression)?.[1];
  return name !== undefined && SECRET_NAME.test(name);
}

const MAX_DEPTH = 10;

/**
 * Replaces the `{{...}}` of a text. `encode` encodes each value as data (a query value);
 * `formEncoded` says the result is form-encoded later, so `{{%name}}` gives the plain value
 * there instead of encoding it twice. Unresolved references stay as written and are listed
 * in `errors`.
 */
export function resolveText(
  text: string,
  ctx: ResolveContext,
  encode?: (value: string) => string,
  formEncoded = false,
): Resolved {
  const errors: string[] = [];
  const secrets: string[] = [];
  const out = substitute(text, { ...ctx, ...(formEncoded ? { plainPercent: true } : {}), secrets }, encode, errors, []);
  return { text: out, errors, secrets };
}

type Walk = ResolveContext & { secrets: string[] };

function substitute(
  text: string,
  ctx: Walk,
  encode: ((v: string) => string) | undefined,
  errors: string[],
  stack: string[],
): string {
  const refs = findVariableReferences(text, 0);
  if (refs.length === 0) return text;
  let out = '';
  let at = 0;
  for (const ref of refs) {
    out += text.slice(at, ref.start);
    at = ref.end;
    const value = resolveExpression(ref.expression, ctx, errors, stack);
    // `{{%name}}` is encoded already: it goes in as it is.
    out +=
      value === undefined
        ? text.slice(ref.start, ref.end)
        : encode && !ref.expression.startsWith('%')
          ? encode(value)
          : value;
  }
  return out + text.slice(at);
}

function resolveExpression(expression: string, ctx: Walk, errors: string[], stack: string[]): string | undefined {
  if (expression.startsWith('$')) {
    const result = systemVariable(expression, ctx.system ?? {});
    if ('error' in result) {
      errors.push(result.error);
      return undefined;
    }
    // A sign-in's token is a secret like a secret variable's value.
    if ((readsSecret(expression) || expression.startsWith('$auth.')) && result.value.length > 0)
      ctx.secrets.push(result.value);
    return result.value;
  }
  const reference = parseRequestReference(expression);
  if (reference) {
    if (!ctx.reference) {
      errors.push(`{{${expression}}} refers to the request '${reference.name}', whose response is not available here`);
      return undefined;
    }
    const result = ctx.reference(reference);
    if ('error' in result) {
      errors.push(result.error);
      return undefined;
    }
    return result.value;
  }
  if (expression.startsWith('%') && expression.length > 1) {
    // REST Client's `{{%name}}`: the value of `name`, percent-encoded (unless the whole text is encoded later).
    const plain = resolveExpression(expression.slice(1), ctx, errors, stack);
    return plain === undefined || ctx.plainPercent ? plain : encodeURIComponent(plain);
  }
  const value = ctx.values.get(expression);
  if (value === undefined && ctx.scriptNames?.has(expression)) {
    errors.push(
      `{{${expression}}} is set by a JetBrains script (client.global.set), which lpreq does not run: give it a value with @${expression} = ... or in the environment`,
    );
    return undefined;
  }
  if (value === undefined) {
    errors.push(
      ctx.missing?.(expression) ?? `{{${expression}}} is defined nowhere (not a file variable, not in the environment)`,
    );
    return undefined;
  }
  if (stack.includes(expression) || stack.length >= MAX_DEPTH) {
    errors.push(`{{${expression}}} refers to itself through ${[...stack, expression].join(' -> ')}`);
    return undefined;
  }
  // A variable's value may use other variables (`@items = {{base_url}}/items`).
  return substitute(value, ctx, undefined, errors, [...stack, expression]);
}

/** REST Client's offset units (a Map: a unit is looked up by the name a file gives). */
const UNITS = new Map<string, (d: Date, n: number) => void>([
  ['y', (d, n) => d.setUTCFullYear(d.getUTCFullYear() + n)],
  ['M', (d, n) => d.setUTCMonth(d.getUTCMonth() + n)],
  ['w', (d, n) => d.setTime(d.getTime() + n * 7 * 86_400_000)],
  ['d', (d, n) => d.setTime(d.getTime() + n * 86_400_000)],
  ['h', (d, n) => d.setTime(d.getTime() + n * 3_600_000)],
  ['m', (d, n) => d.setTime(d.getTime() + n * 60_000)],
  ['s', (d, n) => d.setTime(d.getTime() + n * 1000)],
  ['ms', (d, n) => d.setTime(d.getTime() + n)],
]);

/** Applies an offset `1 d`, `-2 h` (REST Client's units) to a date. */
function offsetDate(base: Date, args: string[], name: string): Date | string {
  const d = new Date(base.getTime());
  if (args.length === 0) return d;
  const unit = args.length === 2 && /^[+-]?\d+$/.test(args[0]) ? UNITS.get(args[1]) : undefined;
  if (!unit) return `{{${name} ...}}: an offset is a number and a unit (y, M, w, d, h, m, s, ms), for example '1 d'`;
  unit(d, Number(args[0]));
  return d;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** A custom `$datetime` format with the tokens YYYY, MM, DD, HH, mm, ss, SSS. */
function formatCustom(d: Date, format: string, local: boolean): string {
  const parts = local
    ? [
        d.getFullYear(),
        d.getMonth() + 1,
        d.getDate(),
        d.getHours(),
        d.getMinutes(),
        d.getSeconds(),
        d.getMilliseconds(),
      ]
    : [
        d.getUTCFullYear(),
        d.getUTCMonth() + 1,
        d.getUTCDate(),
        d.getUTCHours(),
        d.getUTCMinutes(),
        d.getUTCSeconds(),
        d.getUTCMilliseconds(),
      ];
  return format.replace(/YYYY|MM|DD|HH|mm|ss|SSS/g, (t) => {
    const [y, mo, da, h, mi, s, ms] = parts;
    switch (t) {
      case 'YYYY':
        return String(y);
      case 'MM':
        return pad(mo);
      case 'DD':
        return pad(da);
      case 'HH':
        return pad(h);
      case 'mm':
        return pad(mi);
      case 'ss':
        return pad(s);
      default:
        return pad(ms, 3);
    }
  });
}

function localIso(d: Date): string {
  const off = -d.getTimezoneOffset();
  const sign = off >= 0 ? '+' : '-';
  const abs = Math.abs(off);
  return `${formatCustom(d, 'YYYY-MM-DDTHH:mm:ss', true)}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** Splits arguments, keeping a quoted custom format (`"YYYY-MM-DD"` or `'...'`) whole. */
function splitArgs(text: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) out.push(m[1] ?? m[2] ?? m[3]);
  return out;
}

/** The value of one system variable (`$guid`, `$datetime iso8601 1 d`, ...). */
export function systemVariable(expression: string, system: SystemContext): { value: string } | { error: string } {
  const now = system.now?.() ?? new Date();
  const random = system.random ?? Math.random;
  const uuid = system.uuid ?? randomUUID;
  const jb = /^\$random\.integer\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)$/.exec(expression);
  if (jb) return randomInt(Number(jb[1]), Number(jb[2]), random, '$random.integer');
  const auth = /^\$auth\.(token|idToken)\(\s*(?:"([^"]*)"|'([^']*)')\s*\)$/.exec(expression);
  if (auth) {
    if (system.auth) return system.auth.value(auth[1] as 'token' | 'idToken', auth[2] ?? auth[3] ?? '');
    return {
      error: `{{${expression}}}: no sign-in of the environment's Security.Auth is at hand here (docs/oauth2.md)`,
    };
  }
  if (/^\$auth\./.test(expression))
    return { error: `{{${expression}}}: write $auth.token("id") or $auth.idToken("id")` };
  const [name, ...args] = splitArgs(expression);
  switch (name) {
    case '$projectRoot':
      return system.projectRoot === undefined
        ? { error: '{{$projectRoot}}: no project folder is known here' }
        : { value: system.projectRoot };
    case '$historyFolder':
      return {
        error: "{{$historyFolder}} is JetBrains' history folder; lpreq keeps its own history and cannot give it",
      };
    case '$guid':
    case '$uuid':
    case '$random.uuid':
      return { value: uuid() };
    case '$timestamp': {
      const d = offsetDate(now, args, name);
      return typeof d === 'string' ? { error: d } : { value: String(Math.floor(d.getTime() / 1000)) };
    }
    case '$isoTimestamp':
      return { value: now.toISOString() };
    case '$datetime':
    case '$localDatetime': {
      const [format, ...rest] = args;
      if (format === undefined)
        return { error: `{{${name}}} needs a format: rfc1123, iso8601 or a quoted custom format` };
      const d = offsetDate(now, rest, name);
      if (typeof d === 'string') return { error: d };
      const local = name === '$localDatetime';
      if (format === 'rfc1123') return { value: local ? d.toString() : d.toUTCString() };
      if (format === 'iso8601') return { value: local ? localIso(d) : d.toISOString() };
      return { value: formatCustom(d, format, local) };
    }
    case '$randomInt': {
      if (args.length !== 2 || !args.every((a) => /^-?\d+$/.test(a))) {
        return {
          error: `{{$randomInt}} needs two integers, min (inclusive) and max (exclusive): {{$randomInt 1 100}}`,
        };
      }
      return randomInt(Number(args[0]), Number(args[1]), random, name);
    }
    case '$random.integer':
      return randomInt(0, 1000, random, name);
    case '$processEnv': {
      if (args.length !== 1) return { error: '{{$processEnv}} needs the name of an environment variable' };
      const value = own(system.processEnv, args[0]);
      return value === undefined
        ? { error: `{{$processEnv ${args[0]}}}: the environment variable ${args[0]} is not set` }
        : { value };
    }
    case '$dotenv': {
      if (args.length !== 1) return { error: '{{$dotenv}} needs the name of a variable of the .env file' };
      const value = own(system.dotenv, args[0]);
      return value === undefined
        ? { error: `{{$dotenv ${args[0]}}}: ${args[0]} is not in the .env file beside the request file` }
        : { value };
    }
    case '$aadToken':
    case '$aadV2Token':
    case '$oidcAccessToken':
    case '$exampleServer':
      return {
        error: `{{${name}}} is recognised but lpreq cannot give it a value: set the access token with LPREQ_TOKEN (or the editor's secret storage) instead`,
      };
    default: {
      const env = ENV_VARIABLE.exec(expression);
      if (env) {
        const value = own(system.processEnv, env[1]);
        return value === undefined
          ? { error: `{{${expression}}}: the environment variable ${env[1]} is not set` }
          : { value };
      }
      return { error: `{{${expression}}} is not a system variable lpreq knows` };
    }
  }
}

function randomInt(
  min: number,
  max: number,
  random: () => number,
  name: string,
): { value: string } | { error: string } {
  if (!(max > min)) return { error: `{{${name}}}: max must be greater than min` };
  return { value: String(min + Math.floor(random() * (max - min))) };
}

/** Reads a `.env` file's text: `NAME=value` lines, `#` comments, optional quotes. */
export function parseDotenv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*(?:export\s+)?([A-Za-z_][\w.-]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!m) continue;
    let value = m[2];
    if (/^".*"$/.test(value) || /^'.*'$/.test(value)) value = value.slice(1, -1);
    else value = value.replace(/\s+#.*$/, '');
    setOwn(out, m[1], value);
  }
  return out;
}
