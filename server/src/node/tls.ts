/**
 * The files an environment's `$tls` names (a CA, a client certificate and its key), read when
 * a request is sent, not when the environment files are read: the language server reads those
 * at every change, and a key file is read only by what uses it.
 */
import { dirname } from 'node:path';
import { readConfinedFile } from './confinedFile';
import type { TlsSettings } from './environments';

/** What undici's connector is given. */
export interface TlsFiles {
  rejectUnauthorized?: boolean;
  ca?: Buffer;
  cert?: Buffer;
  key?: Buffer;
}

/** A PEM file is a few kilobytes; a bundle of every public CA is under a megabyte. */
const MAX_PEM_BYTES = 4 * 1024 * 1024;

/** The files of `$tls` read, or why they cannot be (the message names the option and the file, never its content). */
export function readTlsFiles(
  settings: TlsSettings,
  environment: string | undefined,
): { tls: TlsFiles } | { error: string } {
  const where = `$tls of ${environment !== undefined ? `'${environment}'` : 'the environment'}`;
  if ((settings.cert === undefined) !== (settings.key === undefined)) {
    return { error: `${where}: a client certificate needs both "cert" and "key"` };
  }
  const tls: TlsFiles = {};
  if (settings.rejectUnauthorized !== undefined) tls.rejectUnauthorized = settings.rejectUnauthorized;
  for (const k of ['ca', 'cert', 'key'] as const) {
    const path = settings[k];
    if (path === undefined) continue;
    // Inside the workspace of the environment files that name it, as every file a repository makes lpreq read.
    const read = readConfinedFile(path, settings.workspace ?? dirname(path), MAX_PEM_BYTES);
    if (read.problem !== undefined) return { error: `${where}: "${k}" cannot be read from ${path}: ${read.problem}` };
    tls[k] = read.bytes;
  }
  return { tls };
}
