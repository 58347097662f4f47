/**
 * The catalog bundled with lpreq: the JSON of schemas/ imported statically (esbuild and
 * tsx inline it), checked by zod and indexed once, on first use.
 */
import A from '../../schemas/A.endpoints.json';
import B from '../../schemas/B.endpoints.json';
import C from '../../schemas/C.endpoints.json';
import resources from '../../schemas/resources.json';
import { loadCatalog, type Catalog } from './core/catalog/catalog';

let cached: Catalog | undefined;

export function bundledCatalog(): Catalog {
  cached ??= loadCatalog({
    endpointFiles: { 'A.endpoints.json': A, 'B.endpoints.json': B, 'C.endpoints.json': C },
    resourceFile: resources,
  });
  return cached;
}
