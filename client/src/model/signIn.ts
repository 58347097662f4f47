/**
 * The status bar entry of an environment's OAuth 2.0 sign-in (docs/oauth2.md): who is signed
 * in and until when, or that one can sign in, or why one cannot. Pure: the sign-in's state is
 * the sender's (oauth2/tokens.ts), handed in.
 */
import type { SignInStatus } from '../../../server/src/sender/index';

export interface SignInView {
  /** The environment's configuration (`Security.Auth.<id>`). */
  id: string;
  environment: string;
  /** Where the token goes (base_url's origin), when the configuration can be signed in with. */
  origin?: string;
  /** Why it cannot be signed in with, when it cannot. */
  problem?: string;
  status?: SignInStatus;
  /** Now, in ms since 1970 (to say "until 14:05" or "expired"). */
  now: number;
}

/** A time of day (14:05) when it is today, else the day and the time (2026-03-04 14:05). */
export function untilText(at: number, now: number): string {
  const d = new Date(at);
  const pad = (n: number) => String(n).padStart(2, '0');
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  return new Date(now).toDateString() === d.toDateString()
    ? time
    : `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${time}`;
}

/** The status bar's text and tooltip (plain text: the caller shows it as text, never as Markdown). */
export function signInStatusBar(view: SignInView): { text: string; tooltip: string } {
  const where = `Security.Auth.${view.id} of '${view.environment}'`;
  if (view.problem !== undefined)
    return { text: '$(warning) Sign In', tooltip: `lpreq cannot sign in with ${where}: ${view.problem}` };
  const status = view.status;
  if (status === undefined || !status.signedIn)
    return {
      text: '$(sign-in) Sign In',
      tooltip: `Not signed in. ${where} signs in with OAuth 2.0; its token goes only to ${view.origin ?? "base_url's origin"}. Click to sign in (the first send signs in too).`,
    };
  const who = status.who ?? 'signed in';
  if (status.expiresAt === undefined)
    return {
      text: `$(account) ${who}`,
      tooltip: `Signed in to ${view.origin ?? "base_url's origin"}${status.who ? ` as ${status.who}` : ''} (${where}); the token says no end. Click to sign in again or sign out.`,
    };
  const until = untilText(status.expiresAt, view.now);
  if (status.expired)
    return {
      text: `$(account) ${who} · expired`,
      tooltip: `Signed in to ${view.origin ?? "base_url's origin"}${status.who ? ` as ${status.who}` : ''} (${where}); the token expired at ${until}. ${status.refreshable ? 'The next send refreshes it.' : 'The next send signs in again.'} Click to sign in again or sign out.`,
    };
  return {
    text: `$(account) ${who} · until ${until}`,
    tooltip: `Signed in to ${view.origin ?? "base_url's origin"}${status.who ? ` as ${status.who}` : ''} (${where}) until ${until}; ${status.refreshable ? 'refreshed before then' : 'signed in again after that'}. Click to sign in again or sign out.`,
  };
}
