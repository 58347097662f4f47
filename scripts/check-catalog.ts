// Authoring aid: loads schemas/, prints schema errors and consistency problems.
// Run: node --import tsx scripts/check-catalog.ts
import { join } from 'node:path';
import { loadCatalogFromDir } from '../server/src/node/catalogFiles';
import { lintCatalog } from '../server/src/core/catalog/lint';

const catalog = loadCatalogFromDir(join(import.meta.dirname, '..', 'schemas'));
const problems = lintCatalog(catalog);
for (const p of problems) console.log(p);
console.log(
  `${catalog.endpoints.length} endpoints, ${catalog.endpoints.reduce((n, e) => n + e.paths.length, 0)} paths, ${catalog.resources.size} resources; ${problems.length} problems`,
);
process.exitCode = problems.length ? 1 : 0;
