/**
 * Requests a client should not send, answered plainly: parameters in undocumented shapes,
 * very many parameters, deep JSON, broken HTTP framing. Never a 500, never a stalled mock.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_PARAMETERS } from '../../server/src/mock/index';
import { errorsOf, withMock } from './mockClient';

test('many unknown parameters are answered quickly, and other clients meanwhile; too many are a 400', () =>
  withMock(async (call) => {
    const form = (n: number) => {
      const pairs: [string, string][] = [['module[name]', 'x']];
      for (let i = 0; i < n; i++) pairs.push(['zz', '1']);
      return pairs;
    };
    const deadline = <T>(p: Promise<T>, what: string) =>
      Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: no answer within 10 s`)), 10_000).unref())]);
    const many = deadline(call('POST', '/api/v1/courses/42/modules', { form: form(50_000) }), 'the form of 50,000 parameters');
    const tooMany = deadline(call('POST', '/api/v1/courses/42/modules', { form: form(MAX_PARAMETERS + 50_000) }), 'the form over the limit');
    const other = deadline(call('GET', '/api/v1/courses/42/modules/7'), 'the concurrent GET');
    const [manyAnswer, tooManyAnswer, otherAnswer] = await Promise.all([many, tooMany, other]);
    assert.equal(manyAnswer.status, 200);
    assert.equal(tooManyAnswer.status, 400);
    assert.equal(errorsOf(tooManyAnswer)[0].code, 'too-many-parameters');
    assert.equal(otherAnswer.status, 200);
  }));
