/**
 * No export of the core, the Node helpers or the command line goes unused: a value only its
 * own file reads is not exported, and an export nothing reads is removed
 * (scripts/unused-exports.ts lists them, over every file of the project; run it with no
 * folder to see the other hosts' too).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { unusedExports } from '../../scripts/unused-exports';

test('every export of server/src/core, server/src/node and server/src/cli is used by another file', () => {
  const found = unusedExports(['server/src/core', 'server/src/node', 'server/src/cli']);
  assert.deepEqual(
    found.map((u) => `${u.file}: ${u.name}${u.usedInOwnFile ? ' (used only in its own file)' : ' (used nowhere)'}`),
    [],
  );
});
