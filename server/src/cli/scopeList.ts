/** `--scopes FILE` of `lpreq mock` and `lpreq proxy`: a list of scopes, as `lpreq scopes --format json` prints it. */
import { resolve } from 'node:path';
import { undocumentedScopes, type Catalog } from '../core/index';
import { readScopeFile } from '../node/index';
import { UsageError } from './args';

/**
 * The scopes of the file, or a usage error saying why it cannot be used. A scope no documented
 * path has grants nothing here: each is a warning (with the documented scope it most likely
 * means), not an error, since a real token's list may name endpoints these docs do not cover.
 */
export function readScopesOption(
  path: string,
  cwd: string,
  catalog: Catalog,
  warn: (message: string) => void,
): string[] {
  const read = readScopeFile(resolve(cwd, path));
  if ('problem' in read) throw new UsageError(`the scopes file ${path}: ${read.problem}`);
  for (const u of undocumentedScopes(catalog, read.scopes))
    warn(
      `the scopes file ${path}: ${u.scope} is not the scope of a documented endpoint; it grants nothing here${u.suggestion ? ` (did you mean ${u.suggestion}?)` : ''}`,
    );
  return read.scopes;
}
