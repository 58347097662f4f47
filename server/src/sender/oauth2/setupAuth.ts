/**
 * The OAuth 2.0 sign-in of a send setup: the environment's own configuration gives the token
 * (signed in, or refreshed, when needed) in place of the private file's, unless LPREQ_TOKEN is
 * set (an explicit token wins, as it does over the private file); and the setup's sends get the
 * sign-ins for `{{$auth.token("id")}}` and a new token after a 401.
 */
import { own } from '../../core/index';
import { environmentTls } from '../send';
import { SetupError, type SendSetup } from '../setup';
import { EnvironmentAuth } from './environmentAuth';
import type { OAuthTokens } from './tokens';

export interface SignedInSetup<T extends SendSetup> {
  setup: T;
  /** The sign-ins of the setup's environment, for its sends (SendBlockOptions.auth); none when it has no Security.Auth. */
  auth?: EnvironmentAuth;
}

/** The setup with the token of its environment's sign-in; a SetupError says why there is none to send with. */
export async function signInFor<T extends SendSetup>(
  setup: T,
  tokens: OAuthTokens,
  options: {
    signal?: AbortSignal;
    foreignSecrets?: string[];
    /** LPREQ_TOKEN, when it gave the setup's token, is sent instead of the sign-in's (the command line's rule); true unless said. */
    explicitTokenWins?: boolean;
    /** Wraps the sign-in (a host's progress, and its cancellation through the signal it gives). */
    wrap?: <R>(id: string, run: (signal: AbortSignal | undefined) => Promise<R>) => Promise<R>;
  } = {},
): Promise<SignedInSetup<T>> {
  const selected = setup.selected;
  if (selected === undefined || setup.environments.options === undefined) return { setup };
  const tls = environmentTls(setup.environments);
  const auth = new EnvironmentAuth(tokens, setup.environments, setup.system, {
    ...('tls' in tls ? { tls: tls.tls } : {}),
    foreignSecrets: options.foreignSecrets,
  });
  const id = auth.ownId;
  if (id === undefined) {
    return Object.keys(own(setup.environments.options, selected)?.auth ?? {}).length > 0 ? { setup, auth } : { setup };
  }
  if (setup.tokenFrom === 'LPREQ_TOKEN' && options.explicitTokenWins !== false) return { setup, auth };
  let token: string | undefined;
  try {
    token = options.wrap
      ? await options.wrap(id, (signal) => auth.environmentToken(signal ?? options.signal))
      : await auth.environmentToken(options.signal);
  } catch (e) {
    throw new SetupError(
      `not sent: signing in with Security.Auth.${id} of '${selected}' failed: ${(e as Error).message}`,
    );
  }
  return { setup: { ...setup, token, tokenFrom: 'oauth2', oauth2: id }, auth };
}
