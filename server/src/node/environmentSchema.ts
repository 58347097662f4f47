/** The zod schema of an environment file (required on first use by environments.ts). */
import * as z from 'zod';

/** Environment name to variables; numbers and booleans are read as the strings they send. */
export const EnvironmentFileSchema = z.record(
  z.string(),
  z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]).transform((v) => String(v))),
);
