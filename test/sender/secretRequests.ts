/**
 * Requests prepared with secrets in reach, for the tests of what is copied or generated from
 * a request (cURL, code): the chosen environment's token, another environment's token (read
 * through `$dotenv`), and a secret prompt's answer.
 */
import assert from 'node:assert/strict';
import { prepareRequest } from '../../server/src/sender/prepare';
import { doc, testChecker } from './server';

export const TOKEN = 'Copy-Token-1234567';
export const PROD_TOKEN = 'prod-token-7654321';
export const ANSWER = 'pa55 w0rd/answer';
const environments = {
  environments: {
    local: { base_url: 'http://127.0.0.1:4010', token: TOKEN },
    prod: { base_url: 'https://lms.example.edu', token: PROD_TOKEN },
  },
  selected: 'local',
};
export const system = { processEnv: { LPREQ_TOKEN: TOKEN }, dotenv: { PROD_API_TOKEN: PROD_TOKEN } };

/** The request of `text` prepared in the `local` environment, `{{password}}` answered with ANSWER. */
export function prepared(text: string) {
  const r = prepareRequest(testChecker(), doc(text), 0, {
    environments,
    system,
    prompts: new Map([['password', ANSWER]]),
  });
  assert.ok(r.ok, r.ok ? '' : r.error);
  return r;
}
