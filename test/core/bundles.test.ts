/**
 * What the bundles hold of zod: the catalog schemas use zod's functions by name (the rule
 * kinds are handed only the ones they use), so the bundles leave out what no schema uses,
 * zod's locales among them. A namespace passed around as a value would keep all of it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers';

for (const bundle of ['lpreq.js', 'lsp.js', 'send.js', 'mock.js', 'server.js', 'library.js']) {
  test(`dist/${bundle} leaves zod's locales out`, () => {
    const text = readFileSync(join(ROOT, 'dist', bundle), 'utf8');
    assert.ok(text.includes('zod/v4/core/schemas.js'), 'the bundle holds zod');
    assert.ok(!text.includes('zod/v4/locales/de.js'), "zod's German messages are in the bundle");
  });
}
