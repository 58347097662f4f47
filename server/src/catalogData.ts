/**
 * The catalog bundled with lpreq: the JSON of schemas/ imported statically (esbuild and
 * tsx inline it), checked by zod and indexed once, on first use.
 */
import A from '../../schemas/A.endpoints.json';
import B from '../../schemas/B.endpoints.json';
import C from '../../schemas/C.endpoints.json';
import resources from '../../schemas/resources.json';
import { loadCatalog, type Catalog } from './core/index';

let cached: Catalog | undefined;

/** The bundles embed the catalog files as text (scripts/build.mjs); tsx and tsc see objects. */
function json(value: unknown): unknown {
  return typeof value === 'string' ? JSON.parse(value) : value;
}

export function bundledCatalog(): Catalog {
  cached ??= loadCatalog({
    endpointFiles: { 'A.endpoints.json': json(A), 'B.endpoints.json': json(B), 'C.endpoints.json': json(C) },
    resourceFile: () => json(resources),
  });
  return cached;
}
