/**
 * Where a secret hides (secrets.ts): every way a server or a URL writes the token is found
 * (for keeping it from other origins) and masked (in output, history and spilled bodies).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { carriesSecret, SecretScrubber } from '../../server/src/sender/secrets';
import { scrubSecrets } from '../../server/src/sender/history';

const TOKEN = 'tok/en+secret=42';

/** The token as servers, URLs and JSON encoders write it. */
const WRITTEN = [
  ['as it is', 'tok/en+secret=42'],
  ['percent-encoded, upper case', 'tok%2Fen%2Bsecret%3D42'],
  ['percent-encoded, lower case', 'tok%2fen%2bsecret%3d42'],
  ['JSON with \\/ (PHP)', 'tok\\/en+secret=42'],
  ['JSON with \\u escapes', 'tok\\u002Fen\\u002bsecret\\u003d42'],
  ['a mix', 'tok%2f' + 'en\\u002B' + 'secret=42'],
];

for (const [how, text] of WRITTEN) {
  test(`the token ${how} is found and masked: in text, in the history's scrubbing and in a spilled body`, () => {
    const around = `{"access_token":"${text}","link":"https://h/x?t=${text}"}`;
    assert.ok(carriesSecret(around, [TOKEN]));
    const scrubbed = scrubSecrets(around, [TOKEN]);
    assert.ok(!carriesSecret(scrubbed, [TOKEN]), scrubbed);
    assert.equal(scrubbed.split('***').length, 3);
    // A spilled body arrives in chunks that may cut the token anywhere.
    const bytes = Buffer.from(around, 'utf8');
    for (const size of [1, 3, 7, 1000]) {
      const scrubber = new SecretScrubber([TOKEN]);
      const out: Buffer[] = [];
      for (let i = 0; i < bytes.length; i += size) out.push(scrubber.push(bytes.subarray(i, i + size)));
      out.push(scrubber.end());
      assert.equal(Buffer.concat(out).toString('utf8'), scrubbed, `chunks of ${size}`);
    }
  });
}

test('other text is left alone, and secrets under 4 characters are not looked for in it', () => {
  const text = '{"name":"tok/en","id":42,"note":"secret"}';
  assert.equal(scrubSecrets(text, [TOKEN]), text);
  assert.ok(!carriesSecret(text, [TOKEN]));
  assert.ok(!carriesSecret('abc', ['abc']));
});
