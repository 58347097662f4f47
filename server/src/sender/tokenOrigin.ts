/**
 * Which token goes to which origin, decided once for every host. A token is bound to the
 * origins it was given for: the editor keeps each environment's token with the origin of the
 * environment's base_url when it was set, and any other origin the user confirmed since; the
 * command line pins LPREQ_TOKEN to one origin with LPREQ_TOKEN_ORIGIN (or --token-origin).
 * An environment's name says nothing: a cloned repository can call any server `production`.
 * Pure: the hosts keep the tokens and ask the questions.
 */

/** A token as a host keeps it: with the origins it may go to (none for one kept before tokens were bound). */
export interface BoundToken {
  token: string;
  origins: string[];
}

/** What a host does with its kept token for a send whose environment's base_url has `origin`. */
export type TokenDecision =
  /** No token is kept. */
  | { kind: 'none' }
  /** The environment has no base_url: no token goes anywhere (`token` is kept out of output all the same). */
  | { kind: 'nowhere'; token: string }
  /** The token is bound to this origin: it goes there. */
  | { kind: 'send'; token: string; origin: string }
  /**
   * The token is bound to other origins (`boundTo`; empty for one kept before tokens were bound):
   * it goes to `origin` only after the user confirms that origin, in words that name both
   * (confirmationOf). Until then it goes nowhere.
   */
  | { kind: 'confirm'; token: string; origin: string; boundTo: string[] };

/** The origin (`https://host:port`) of an http(s) URL, or undefined. */
export function originOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const u = new URL(url.trim());
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * An origin as a user writes it (LPREQ_TOKEN_ORIGIN, --token-origin): a scheme, a host and
 * perhaps a port, with or without a final `/`. A path, a query or credentials are refused: an
 * origin names a server, nothing in it.
 */
export function parseOrigin(text: string): { origin: string } | { problem: string } {
  const problem = `'${text}' is not an origin: write the scheme, the host and the port if it is not the default, as https://lms.example.edu`;
  let u: URL;
  try {
    u = new URL(text.trim());
  } catch {
    return { problem };
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return { problem };
  if (u.username !== '' || u.password !== '' || u.search !== '' || u.hash !== '' || u.pathname !== '/')
    return { problem };
  return { origin: u.origin };
}

/** The decision for a kept token and the origin of the chosen environment's base_url (undefined: it has none). */
export function tokenFor(kept: BoundToken | undefined, origin: string | undefined): TokenDecision {
  if (kept === undefined || kept.token.length === 0) return { kind: 'none' };
  if (origin === undefined) return { kind: 'nowhere', token: kept.token };
  if (kept.origins.includes(origin)) return { kind: 'send', token: kept.token, origin };
  return { kind: 'confirm', token: kept.token, origin, boundTo: [...kept.origins] };
}

/** The token with `origin` confirmed: it keeps its other origins (each was confirmed once), and goes to this one from now on. */
export function confirmed(kept: BoundToken, origin: string): BoundToken {
  return kept.origins.includes(origin) ? kept : { token: kept.token, origins: [...kept.origins, origin] };
}

/** A bound token as a host stores it (one JSON text, in the editor's secret storage). */
export function storedToken(kept: BoundToken): string {
  return JSON.stringify({ token: kept.token, origins: kept.origins });
}

/**
 * A stored token read back: the JSON of storedToken, or, with `legacy`, a token kept before
 * tokens were bound (a bare string under the environment's name), which is bound to no origin
 * and so goes nowhere until the user confirms one. Anything else is no token.
 */
export function readStoredToken(stored: string | undefined, legacy?: string): BoundToken | undefined {
  if (stored !== undefined) {
    try {
      const value = JSON.parse(stored) as unknown;
      if (value !== null && typeof value === 'object') {
        const { token, origins } = value as { token?: unknown; origins?: unknown };
        if (typeof token === 'string' && token.length > 0 && Array.isArray(origins))
          return {
            token,
            origins: origins.filter((o): o is string => typeof o === 'string' && originOf(o) === o),
          };
      }
    } catch {
      // Not a stored token: the legacy one, if any, is read.
    }
  }
  return legacy !== undefined && legacy.length > 0 ? { token: legacy, origins: [] } : undefined;
}

/**
 * The question to ask before a token goes to an origin it is not bound to, in words that name
 * both origins (or say that it was kept before tokens were bound), and what confirming does.
 */
export function confirmationOf(
  decision: Extract<TokenDecision, { kind: 'confirm' }>,
  environment: string | undefined,
): { message: string; detail: string; confirm: string } {
  const which = environment === undefined ? 'The access token' : `The access token of '${environment}'`;
  const was =
    decision.boundTo.length === 0
      ? `${which} was kept before lpreq bound tokens to the server they were set for, so it is bound to none.`
      : `${which} was set for ${decision.boundTo.join(' and ')}.`;
  return {
    message: `${was} Send it to ${decision.origin}?`,
    detail:
      `${environment === undefined ? 'The environment' : `The environment '${environment}'`} of this workspace sends to ${decision.origin} (its base_url). ` +
      'A repository can name any server there, under any environment name: send the token only to a server you would give it to. ' +
      `lpreq then remembers ${decision.origin} with this token and does not ask again; until then the token goes nowhere.`,
    confirm: `Send the Token to ${decision.origin}`,
  };
}

/**
 * Why a send must not start when the token is pinned to `pinned` (LPREQ_TOKEN_ORIGIN,
 * --token-origin) and the chosen environment sends to `origin`; undefined when they agree.
 */
export function pinnedOriginProblem(
  pinned: { origin: string; from: string },
  origin: string | undefined,
  environment: string | undefined,
): string | undefined {
  if (origin === pinned.origin) return undefined;
  const env = environment === undefined ? 'no environment is chosen' : `the environment '${environment}'`;
  return origin === undefined
    ? `${pinned.from} pins the token to ${pinned.origin}, and ${env}${environment === undefined ? '' : ' has no base_url'}: nothing was sent`
    : `${pinned.from} pins the token to ${pinned.origin}, and ${env} sends to ${origin} (its base_url): nothing was sent; if ${origin} is right, pin it instead`;
}
