/** Which token for which origin (tokenOrigin.ts): the one decision every host asks. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  confirmationOf,
  confirmed,
  parseOrigin,
  pinnedOriginProblem,
  readStoredToken,
  storedToken,
  tokenFor,
} from '../../server/src/sender/tokenOrigin';

const STAGING = 'https://staging.example.edu';
const CLONE = 'https://lms.attacker.example';

test('a token goes to the origins it is bound to; another asks first; without base_url it goes nowhere', () => {
  const kept = { token: 'staging-token-1234', origins: [STAGING] };
  assert.deepEqual(tokenFor(kept, STAGING), { kind: 'send', token: kept.token, origin: STAGING });
  assert.deepEqual(tokenFor(kept, CLONE), { kind: 'confirm', token: kept.token, origin: CLONE, boundTo: [STAGING] });
  assert.deepEqual(tokenFor(kept, undefined), { kind: 'nowhere', token: kept.token });
  assert.deepEqual(tokenFor(undefined, STAGING), { kind: 'none' });
  // Confirmed once, the origin is remembered with the token, beside the one it was set for.
  const both = confirmed(kept, CLONE);
  assert.deepEqual(both.origins, [STAGING, CLONE]);
  assert.equal(tokenFor(both, CLONE).kind, 'send');
  assert.equal(tokenFor(both, STAGING).kind, 'send');
  assert.equal(confirmed(both, CLONE), both);
});

test('a token kept before tokens were bound (a bare string) is bound to no origin: every origin asks first', () => {
  const legacy = readStoredToken(undefined, 'old-token-5678');
  assert.deepEqual(legacy, { token: 'old-token-5678', origins: [] });
  assert.deepEqual(tokenFor(legacy, STAGING), {
    kind: 'confirm',
    token: 'old-token-5678',
    origin: STAGING,
    boundTo: [],
  });
  const question = confirmationOf(
    tokenFor(legacy, STAGING) as Extract<ReturnType<typeof tokenFor>, { kind: 'confirm' }>,
    'staging',
  );
  assert.match(question.message, /kept before lpreq bound tokens/);
  assert.ok(question.message.includes(STAGING));
});

test('a stored token reads back as it was written; what is not one is no token, and the new form wins over the old', () => {
  const kept = { token: 'tok-en/with+chars=', origins: [STAGING, 'http://127.0.0.1:4010'] };
  assert.deepEqual(readStoredToken(storedToken(kept)), kept);
  assert.deepEqual(readStoredToken(storedToken(kept), 'old-token-5678'), kept);
  for (const bad of ['', 'not json', '{"token": 3}', '{"token": "x1234"}', 'null', '[]']) {
    assert.equal(readStoredToken(bad), undefined, bad);
  }
  // An origin list with something that is no origin keeps only the origins.
  assert.deepEqual(
    readStoredToken('{"token": "abcd1234", "origins": ["https://a.example", "https://b.example/x", 7]}'),
    {
      token: 'abcd1234',
      origins: ['https://a.example'],
    },
  );
});

test('the question names the origin the token was set for and the one it would go to', () => {
  const decision = tokenFor({ token: 'staging-token-1234', origins: [STAGING] }, CLONE);
  assert.equal(decision.kind, 'confirm');
  if (decision.kind !== 'confirm') return;
  const q = confirmationOf(decision, 'staging');
  assert.ok(q.message.includes(STAGING) && q.message.includes(CLONE), q.message);
  assert.ok(q.message.includes("'staging'"));
  assert.ok(q.confirm.includes(CLONE));
  assert.ok(!JSON.stringify(q).includes('staging-token-1234'));
});

test('an origin is a scheme, a host and a port: anything more is refused', () => {
  assert.deepEqual(parseOrigin('https://LMS.example.edu/'), { origin: 'https://lms.example.edu' });
  assert.deepEqual(parseOrigin('https://lms.example.edu:443'), { origin: 'https://lms.example.edu' });
  assert.deepEqual(parseOrigin(' http://127.0.0.1:4010 '), { origin: 'http://127.0.0.1:4010' });
  for (const bad of [
    'lms.example.edu',
    'https://lms.example.edu/api/v1',
    'https://u:p@lms.example.edu',
    'ftp://x.example',
    'https://x.example/?a=1',
    '',
  ])
    assert.ok('problem' in parseOrigin(bad), bad);
});

test('a pinned origin stops a send to any other, and says both', () => {
  const pinned = { origin: STAGING, from: 'LPREQ_TOKEN_ORIGIN' };
  assert.equal(pinnedOriginProblem(pinned, STAGING, 'staging'), undefined);
  const other = pinnedOriginProblem(pinned, CLONE, 'staging') ?? '';
  assert.ok(other.includes(STAGING) && other.includes(CLONE), other);
  assert.match(pinnedOriginProblem(pinned, undefined, 'dev') ?? '', /'dev' has no base_url/);
  assert.match(pinnedOriginProblem(pinned, undefined, undefined) ?? '', /no environment is chosen/);
});
