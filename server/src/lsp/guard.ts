/**
 * The one guard every handler runs in, whether it answers at once or later (in slices): an
 * exception or a rejection becomes a log line and the handler's empty answer, never a dead
 * server; a request cancelled before or while it runs gets the empty answer too. A
 * ResponseError is meant for the user (a rename that cannot be done) and goes back as the
 * request's error.
 */
import { ResponseError } from './protocol';
import type { CancellationToken } from 'vscode-languageserver/node';
import { MalformedParams } from './fromProto';

export type Guard = <T>(
  name: string,
  empty: T,
  token: CancellationToken | undefined,
  run: () => T | Promise<T>,
) => T | Promise<T>;

export function createGuard(log: (message: string) => void): Guard {
  const failed = <T>(name: string, e: unknown, empty: T): T => {
    if (e instanceof ResponseError) throw e;
    if (e instanceof MalformedParams) log(`${name}: refused: ${e.message}`);
    else log(`${name} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return empty;
  };
  return <T>(
    name: string,
    empty: T,
    token: CancellationToken | undefined,
    run: () => T | Promise<T>,
  ): T | Promise<T> => {
    if (token?.isCancellationRequested) return empty;
    let result: T | Promise<T>;
    try {
      result = run();
    } catch (e) {
      return failed(name, e, empty);
    }
    if (result instanceof Promise) {
      return result.then(
        (value) => (token?.isCancellationRequested ? empty : value),
        (e: unknown) => failed(name, e, empty),
      );
    }
    return token?.isCancellationRequested ? empty : result;
  };
}
