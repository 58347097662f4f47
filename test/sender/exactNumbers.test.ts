/** Integers beyond 2^53 kept as the server wrote them (exactNumbers.ts), on odd bodies too. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exactIntegers, shiftExact, stringifyExact } from '../../server/src/sender/exactNumbers';

test('a body nested thousands deep is not a crash', () => {
  let text = '12345678901234567891';
  for (let i = 0; i < 20_000; i++) text = `[${text}]`;
  // Too deep to walk: no exact integers, and no throw.
  assert.equal(exactIntegers(text), undefined);
  assert.deepEqual(exactIntegers('[[[12345678901234567891]]]'), { '$[0][0][0]': '12345678901234567891' });
  // Not too deep to write again: the exact integer is kept.
  assert.equal(stringifyExact([[1]], { '$[0][0]': '12345678901234567891' }), '[[12345678901234567891]]');
});

test('pages: the items of an array a later page brings first keep their indexes', () => {
  const lengths = new Map([['$.meta', 0]]);
  assert.deepEqual(shiftExact({ '$.items[0].id': '12345678901234567891' }, lengths), {
    '$.items[0].id': '12345678901234567891',
  });
  assert.deepEqual(shiftExact({ '$.items[1].id': '12345678901234567891' }, new Map([['$.items', 5]])), {
    '$.items[6].id': '12345678901234567891',
  });
});
