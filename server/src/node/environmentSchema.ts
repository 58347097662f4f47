/** The zod schema of an environment file (required on first use by environments.ts). */
import * as z from 'zod';

// As for the catalog's schemas (core/catalog/schema.ts): no generated code, nothing to compile at each start.
z.config({ jitless: true });

/** Environment name to variables; numbers and booleans are read as the strings they send. */
export const EnvironmentFileSchema = z.record(
  z.string(),
  z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]).transform((v) => String(v))),
);
