/** The status bar entry of an environment's OAuth 2.0 sign-in (client/src/model/signIn.ts): who, until when, or why not. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { signInStatusBar, untilText } from '../../client/src/model/signIn';

const now = new Date(2026, 2, 4, 13, 0).getTime();
const base = { id: 'lms', environment: 'dev', origin: 'https://lms.example.edu', now };

test('not signed in: Sign In, and where the token would go', () => {
  const view = signInStatusBar({ ...base, status: { signedIn: false } });
  assert.equal(view.text, '$(sign-in) Sign In');
  assert.match(view.tooltip, /Security\.Auth\.lms of 'dev'.*only to https:\/\/lms\.example\.edu/);
});

test('signed in: who and until when; expired: the next send refreshes it or signs in again', () => {
  const until = new Date(2026, 2, 4, 14, 5).getTime();
  const signedIn = {
    signedIn: true as const,
    who: 'Ada Lovelace',
    expiresAt: until,
    expired: false,
    refreshable: true,
  };
  assert.equal(signInStatusBar({ ...base, status: signedIn }).text, '$(account) Ada Lovelace · until 14:05');
  assert.match(
    signInStatusBar({ ...base, status: signedIn }).tooltip,
    /as Ada Lovelace .* until 14:05; refreshed before then/,
  );
  const expired = signInStatusBar({ ...base, status: { ...signedIn, expired: true, refreshable: false } });
  assert.equal(expired.text, '$(account) Ada Lovelace · expired');
  assert.match(expired.tooltip, /The next send signs in again/);
  // Without a name (client credentials), it says signed in; without an end, no time.
  assert.equal(
    signInStatusBar({ ...base, status: { signedIn: true, expired: false, refreshable: true } }).text,
    '$(account) signed in',
  );
});

test('a configuration lpreq cannot sign in with says why', () => {
  const view = signInStatusBar({ ...base, problem: '"Token URL" is missing' });
  assert.equal(view.text, '$(warning) Sign In');
  assert.match(view.tooltip, /cannot sign in with Security\.Auth\.lms of 'dev': "Token URL" is missing/);
});

test('until: a time of day today, a date and a time on another day', () => {
  assert.equal(untilText(new Date(2026, 2, 4, 9, 7).getTime(), now), '09:07');
  assert.equal(untilText(new Date(2026, 2, 5, 9, 7).getTime(), now), '2026-03-05 09:07');
});
