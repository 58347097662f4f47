/** Each rule kind of the core (server/src/core/rules) has its annotated fixture in test/fixtures/rules/. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sharedChecker, ROOT } from '../../helpers';
import { documentScope, parseDocument } from '../../../server/src/core/index';
import { RULE_KINDS } from '../../../server/src/core/rules';

/** One fixture a rule kind, named by the kind (`required.lpreq`). */
const rulesDir = join(ROOT, 'test', 'fixtures', 'rules');

test('every rule kind has its fixture, whose requests reach an endpoint with a rule of that kind', () => {
  const checker = sharedChecker();
  for (const kind of RULE_KINDS.map((k) => k.kind)) {
    const file = join(rulesDir, `${kind}.lpreq`);
    assert.ok(existsSync(file), `test/fixtures/rules/${kind}.lpreq`);
    const doc = parseDocument(readFileSync(file, 'utf8'));
    const scope = documentScope(doc);
    const reached = doc.blocks.some(({ block }) => {
      const match = checker.matchBlock(block, scope);
      return match?.kind === 'matched' && match.endpoint.rules.some((r) => r.kind === kind);
    });
    assert.ok(reached, `no request of ${kind}.lpreq reaches an endpoint with a ${kind} rule`);
  }
});
