/**
 * The handler table is typed by the endpoint ids of the catalog (server/src/mock/endpointIds.ts,
 * generated): the file must be what the generator writes for today's catalog, and a table that
 * misses an endpoint or has one too many must not compile (tsc checks the expectations below).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENDPOINT_IDS_FILE, endpointIdsSource, ROOT } from '../../scripts/generate-endpoint-ids';
import { readCatalogFiles } from '../../server/src/node/catalogFiles';
import { bundledCatalog } from '../../server/src/catalogData';
import { HANDLERS } from '../../server/src/mock/handlers';
import type { Handler, HandlersOf } from '../../server/src/mock/context';
import { moduleHandlers } from '../../server/src/mock/resources/modules';

test('endpointIds.ts is what the generator writes for the catalog', () => {
  const expected = endpointIdsSource(readCatalogFiles(join(ROOT, 'schemas')).endpointFiles);
  assert.equal(
    readFileSync(ENDPOINT_IDS_FILE, 'utf8'),
    expected,
    'schemas/*.endpoints.json changed: run node --import tsx scripts/generate-endpoint-ids.ts',
  );
});

test('a documented endpoint added to the catalog is a new id of the generated file', () => {
  const files = readCatalogFiles(join(ROOT, 'schemas')).endpointFiles as Record<
    string,
    { endpoints: { id: string }[] }
  >;
  const copy = structuredClone(files);
  copy['C.endpoints.json'].endpoints.push({ ...copy['C.endpoints.json'].endpoints[0], id: 'planner_notes.archive' });
  const before = endpointIdsSource(files);
  const after = endpointIdsSource(copy);
  assert.ok(!before.includes("'planner_notes.archive'"));
  assert.ok(after.includes("  | 'planner_notes.archive';\n"));
});

test('the handler table has exactly the endpoints of the catalog', () => {
  const documented = bundledCatalog()
    .endpoints.map((e) => e.id)
    .sort();
  assert.deepEqual(Object.keys(HANDLERS).sort(), documented);
});

test('a resource table that misses an endpoint of its area, or has one the catalog lacks, does not compile', () => {
  const extra: Handler = () => ({ kind: 'raw', status: 204 });
  const { 'modules.relock': relock, ...withoutRelock } = moduleHandlers;
  // @ts-expect-error: modules.relock is documented, so a table of the modules without it is not all of them.
  const missing = withoutRelock satisfies HandlersOf<'modules'>;
  // @ts-expect-error: modules.archive is not documented.
  const undocumented = { ...moduleHandlers, 'modules.archive': extra } satisfies HandlersOf<'modules'>;
  assert.equal(typeof relock, 'function');
  assert.equal(Object.keys(missing).length, Object.keys(moduleHandlers).length - 1);
  assert.equal(Object.keys(undocumented).length, Object.keys(moduleHandlers).length + 1);
});
