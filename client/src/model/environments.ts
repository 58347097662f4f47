/**
 * Environments as the extension shows them: the picker's entries, the protected rule, the
 * keys of each environment's token in secret storage, and how the token's origin is shown.
 * Pure: the files are read by server/src/node/environments.ts and handed in; which token goes
 * to which origin is the sender's decision (tokenOrigin.ts).
 */
import { own, setOwn } from '../../../server/src/core/index';
import type { TokenDecision } from '../../../server/src/sender/index';

/** Methods that change data: in a protected environment they ask before they are sent. */
const CHANGING_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Keys that start with `$` are settings of the environment (`$protected`), not variables. */
function isMetaKey(name: string): boolean {
  return name.startsWith('$');
}

/** The variables of each environment without its `$` settings. */
export function withoutMetaKeys(
  environments: Record<string, Record<string, string>>,
): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const [env, vars] of Object.entries(environments)) {
    const kept: Record<string, string> = {};
    for (const [k, v] of Object.entries(vars)) if (!isMetaKey(k)) setOwn(kept, k, v);
    setOwn(out, env, kept);
  }
  return out;
}

/**
 * Whether an environment is protected: named in the `lpreq.protectedEnvironments` setting,
 * or marked `"$protected": true` in its environment file (the file loader turns the
 * boolean into the text `true`).
 */
export function isProtected(
  name: string | undefined,
  variables: Record<string, string> | undefined,
  setting: readonly string[],
): boolean {
  if (name === undefined) return false;
  if (setting.includes(name)) return true;
  const flag = own(variables, '$protected');
  return flag !== undefined && String(flag).toLowerCase() === 'true';
}

/** Whether a request asks for confirmation before it is sent. */
export function needsConfirmation(method: string, environmentProtected: boolean): boolean {
  return environmentProtected && CHANGING_METHODS.has(method.toUpperCase());
}

export interface EnvironmentChoice {
  /** The environment's name; undefined for "no environment". */
  name: string | undefined;
  label: string;
  description: string;
  detail?: string;
  protected: boolean;
  picked: boolean;
}

/**
 * The entries of the environment picker: every environment by name, then "no environment" (an
 * Enter on a picker opened by a send takes an environment, not the choice that sends nothing).
 */
export function environmentChoices(
  environments: Record<string, Record<string, string>>,
  options: {
    selected?: string;
    protectedSetting: readonly string[];
    withToken: ReadonlySet<string>;
    privateNames?: Record<string, Set<string>>;
  },
): EnvironmentChoice[] {
  const out: EnvironmentChoice[] = [];
  for (const name of Object.keys(environments).sort()) {
    const vars = own(environments, name) ?? {};
    const prot = isProtected(name, vars, options.protectedSetting);
    const names = Object.keys(vars).filter((k) => !isMetaKey(k));
    const parts: string[] = [];
    if (vars.base_url) parts.push(vars.base_url);
    parts.push(`${names.length} ${names.length === 1 ? 'variable' : 'variables'}`);
    if (options.withToken.has(name)) parts.push('token set');
    const privateCount = own(options.privateNames, name)?.size ?? 0;
    out.push({
      name,
      label: `${prot ? '$(lock) ' : ''}${name}`,
      description: parts.join(' · '),
      detail: prot
        ? 'protected: POST, PUT, PATCH and DELETE ask for confirmation'
        : privateCount > 0
          ? `${privateCount} from the private file`
          : undefined,
      protected: prot,
      picked: options.selected === name,
    });
  }
  out.push({
    name: undefined,
    label: 'No environment',
    description:
      'variables of every environment count as defined when checking; nothing that needs an environment is sent',
    protected: false,
    picked: options.selected === undefined,
  });
  return out;
}

/**
 * The status bar text of the active environment: a key when its token goes to base_url's
 * origin, a key and a warning when one is kept that is not bound to it (the next send asks);
 * `undecided`: several environments, none called local, none chosen yet.
 */
export function statusBarText(
  selected: string | undefined,
  protectedEnv: boolean,
  token: TokenDecision['kind'],
  undecided = false,
): string {
  const name = selected ?? (undecided ? 'choose environment' : 'no environment');
  const mark = token === 'send' ? ' $(key)' : token === 'confirm' ? ' $(key)$(warning)' : '';
  return `${protectedEnv ? '$(lock)' : '$(server-environment)'} ${name}${mark}`;
}

/**
 * What the tooltip says of the token, as plain text (the caller escapes it for Markdown): the
 * origins it is bound to, and what happens at this environment's base_url.
 */
export function tokenTooltip(decision: TokenDecision, boundTo: readonly string[]): string {
  const bound = boundTo.length > 0 ? `bound to ${boundTo.join(', ')}` : 'kept before lpreq bound tokens to origins';
  switch (decision.kind) {
    case 'none':
      return 'No access token is set.';
    case 'nowhere':
      return `An access token is set (${bound}). This environment has no base_url, so it goes nowhere.`;
    case 'send':
      return `An access token is set, ${bound}: it goes to ${decision.origin}, this environment's base_url.`;
    case 'confirm':
      return `An access token is set, ${bound}. This environment's base_url is ${decision.origin}: the token is not sent there until you confirm that origin (the next send asks).`;
  }
}

/**
 * The key an environment's token was kept under before tokens were bound to origins (a bare
 * token): read as a token bound to no origin, and moved to tokenKey's when an origin is confirmed.
 */
export function legacyTokenKey(environment: string | undefined): string {
  return `lpreq.token.${environment === undefined ? '(no environment)' : environment}`;
}

/** The key of an environment's token in secret storage, kept with its origins (tokenOrigin.ts's storedToken); one token per environment. */
export function tokenKey(environment: string | undefined): string {
  return `lpreq.boundToken.${environment === undefined ? '(no environment)' : environment}`;
}
