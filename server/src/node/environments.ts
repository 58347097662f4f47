/**
 * Environment files (LPREQ-FORMAT section 4): http-client.env.json (shared) and
 * http-client.private.env.json (private), beside the request file or in a folder above
 * it, up to the workspace root. A private value overrides a shared one of the same name.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Environments } from '../core/checker';
import type * as EnvironmentSchemas from './environmentSchema';

export const SHARED_ENV_FILE = 'http-client.env.json';
export const PRIVATE_ENV_FILE = 'http-client.private.env.json';

let schemas: typeof EnvironmentSchemas | undefined;

/** The zod schema, built on first use (like the catalog's, it costs a server start otherwise). */
function environmentSchemas(): typeof EnvironmentSchemas {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  schemas ??= require('./environmentSchema') as typeof EnvironmentSchemas;
  return schemas;
}

export class EnvironmentFileError extends Error {}

export interface EnvironmentFiles {
  shared?: string;
  private?: string;
  environments: Record<string, Record<string, string>>;
  /** Variables that come from the private file, by environment (never shown in hovers or logs). */
  privateNames: Record<string, Set<string>>;
}

function isRoot(dir: string, stopAt?: string): boolean {
  return dir === dirname(dir) || (stopAt !== undefined && dir === stopAt) || existsSync(join(dir, '.git'));
}

/** The nearest file of this name at or above `dir`, stopping at the workspace root. */
export function findUp(dir: string, name: string, stopAt?: string): string | undefined {
  let current = resolve(dir);
  for (;;) {
    const candidate = join(current, name);
    if (existsSync(candidate)) return candidate;
    if (isRoot(current, stopAt)) return undefined;
    current = dirname(current);
  }
}

export function parseEnvironmentFile(text: string, file: string): Record<string, Record<string, string>> {
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    throw new EnvironmentFileError(`${file}: not valid JSON (${(e as Error).message})`);
  }
  const parsed = environmentSchemas().EnvironmentFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new EnvironmentFileError(
      `${file}: expected { "env name": { "variable": "value" } }; at ${issue.path.join('.') || '(top)'}: ${issue.message}`,
    );
  }
  return parsed.data;
}

/** Reads the environment files that apply to a request file in `dir`. */
export function loadEnvironmentFiles(dir: string, stopAt?: string): EnvironmentFiles {
  const shared = findUp(dir, SHARED_ENV_FILE, stopAt);
  const priv = findUp(dir, PRIVATE_ENV_FILE, stopAt);
  const environments: Record<string, Record<string, string>> = {};
  const privateNames: Record<string, Set<string>> = {};
  if (shared) {
    for (const [env, vars] of Object.entries(parseEnvironmentFile(readFileSync(shared, 'utf8'), shared))) {
      environments[env] = { ...vars };
    }
  }
  if (priv) {
    for (const [env, vars] of Object.entries(parseEnvironmentFile(readFileSync(priv, 'utf8'), priv))) {
      environments[env] = { ...(environments[env] ?? {}), ...vars };
      privateNames[env] = new Set(Object.keys(vars));
    }
  }
  return { shared, private: priv, environments, privateNames };
}

export function toEnvironments(files: EnvironmentFiles, selected?: string): Environments {
  return { environments: files.environments, selected };
}
