/** Reads the catalog JSON files from schemas/ (used by tests and authoring scripts; bundles import them). */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadCatalog, type Catalog, dict, setOwn } from '../core/index';

export function readCatalogFiles(schemasDir: string): {
  endpointFiles: Record<string, unknown>;
  resourceFile: unknown;
} {
  const endpointFiles = dict<unknown>();
  for (const name of readdirSync(schemasDir)
    .filter((n) => n.endsWith('.endpoints.json'))
    .sort()) {
    setOwn(endpointFiles, name, JSON.parse(readFileSync(join(schemasDir, name), 'utf8')));
  }
  return { endpointFiles, resourceFile: JSON.parse(readFileSync(join(schemasDir, 'resources.json'), 'utf8')) };
}

export function loadCatalogFromDir(schemasDir: string): Catalog {
  return loadCatalog(readCatalogFiles(schemasDir));
}
