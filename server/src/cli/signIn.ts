/**
 * OAuth 2.0 sign-ins on the command line (docs/oauth2.md): kept in the process's memory, so
 * `lpreq send` and `lpreq test` sign in once a run and write nothing anywhere. A client
 * credentials sign-in is silent; an authorization code sign-in prints the address to open (a
 * machine without a browser signs in from another) and opens the browser at a terminal, then
 * waits for the answer on the loopback redirect. In CI (`CI` set) no one can sign in in a
 * browser: that is refused at once. A refresh token refused is an error that says to sign in again.
 */
import { spawn } from 'node:child_process';
import { MemoryStore, OAuthTokens } from '../sender/index';
import type { Io } from './check';

/** The command line's sign-ins, for one process. */
export function commandLineSignIns(io: Io, proxy?: string): OAuthTokens {
  return new OAuthTokens({
    store: new MemoryStore(),
    // At a terminal the browser opens; elsewhere (a pipe, a test, a remote shell) the address is printed to open by hand.
    openBrowser: (url) =>
      io.isTTY && io.env.LPREQ_NO_BROWSER === undefined ? openBrowser(url) : Promise.resolve(false),
    tell: (message) => io.stderr(`lpreq: ${message}\n`),
    interactive: io.env.CI === undefined || io.env.CI === '' || io.env.CI === 'false',
    signInAgain: false,
    requests: { env: io.env, ...(proxy !== undefined ? { proxy } : {}) },
  });
}

/** Opens a URL with the system's opener; false when there is none. The URL is an argument, never a shell's text. */
function openBrowser(url: string): Promise<boolean> {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['rundll32', ['url.dll,FileProtocolHandler', url]]
        : ['xdg-open', [url]];
  return new Promise((resolve) => {
    try {
      const child = spawn(command, args, { detached: true, stdio: 'ignore' });
      child.once('error', () => resolve(false));
      child.once('spawn', () => {
        child.unref();
        resolve(true);
      });
    } catch {
      resolve(false);
    }
  });
}
