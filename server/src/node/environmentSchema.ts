/** The zod schema of an environment file (required on first use by environments.ts). */
import * as z from 'zod';

// As for the catalog's schemas (core/catalog/schema.ts): no generated code, nothing to compile at each start.
z.config({ jitless: true });

/**
 * One environment: variable name to value. Numbers and booleans are read as the strings
 * they send. Objects, arrays and null are other clients' settings, not variables
 * (JetBrains' `"Security": { "Auth": ... }`): they are left out.
 */
export const EnvironmentSchema = z.record(z.string(), z.unknown()).transform((vars) => {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(vars)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') out[name] = String(value);
  }
  return out;
});

/**
 * Environment name to variables. Top-level keys starting with `$`, other than `$shared`, are
 * settings of other clients (Kulala's `$schema`, `$kulalaDefaultHeaders`): left out too.
 */
export const EnvironmentFileSchema = z
  .record(z.string(), z.unknown())
  .transform((file) => Object.fromEntries(Object.entries(file).filter(([name]) => !name.startsWith('$') || name === '$shared')))
  .pipe(z.record(z.string(), EnvironmentSchema));
