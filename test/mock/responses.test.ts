/**
 * Every GET endpoint of the catalog (each documented path form) and the creates, against
 * the mock: 2xx, and a body that the sender's checkResponse finds no issue with.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bundledCatalog } from '../../server/src/catalogData';
import { checkResponse } from '../../server/src/sender/typed';
import { CREATES, getRequests } from './requests';
import { withMock } from './mockClient';

test('every GET endpoint answers with its documented resource', () =>
  withMock(async (call) => {
    const catalog = bundledCatalog();
    const problems: string[] = [];
    let checked = 0;
    for (const { id, returns, url } of getRequests(catalog)) {
      const answer = await call('GET', url);
      checked++;
      if (answer.status !== 200) {
        problems.push(`${id} ${url}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
        continue;
      }
      const { issues } = checkResponse(catalog, returns, answer.body);
      for (const i of issues) problems.push(`${id} ${url}: ${i.path} ${i.code} ${i.message}`);
      if (
        returns?.endsWith('[]') &&
        Array.isArray(answer.body) &&
        answer.body.length === 0 &&
        !['appointment_groups.groups', 'appointment_groups.next_appointment', 'gradebook_history.submissions'].includes(
          id,
        )
      ) {
        problems.push(`${id} ${url}: an empty list (the seed should give it something to show)`);
      }
    }
    assert.ok(checked > 60, `${checked} paths checked`);
    assert.deepEqual(problems, []);
  }));

test('creates and updates answer with their documented resource', () =>
  withMock(async (call) => {
    const catalog = bundledCatalog();
    const problems: string[] = [];
    for (const [id, path, form] of CREATES) {
      const endpoint = catalog.endpointById.get(id);
      assert.ok(endpoint, id);
      const answer = await call(endpoint.method, path, { form });
      if (answer.status !== 200) {
        problems.push(`${id}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
        continue;
      }
      for (const i of checkResponse(catalog, endpoint.returns, answer.body).issues)
        problems.push(`${id}: ${i.path} ${i.code} ${i.message}`);
    }
    assert.deepEqual(problems, []);
  }));

test('every documented endpoint has a handler', async () => {
  const { HANDLERS } = await import('../../server/src/mock/index');
  const missing = bundledCatalog()
    .endpoints.filter((e) => !HANDLERS[e.id])
    .map((e) => e.id);
  assert.deepEqual(missing, []);
});
