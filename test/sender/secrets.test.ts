/**
 * Where a secret hides (secrets.ts): every way a server or a URL writes the token is found
 * (for keeping it from other origins) and masked (in output, history and spilled bodies).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { carriesSecret, scrubSecrets, SecretScrubber, withoutSecretStart } from '../../server/src/sender/secrets';

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

test('a JSON body that writes every character as a \\u escape, letters too, in either case, is found and masked', () => {
  const escaped = [...TOKEN].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
  for (const text of [escaped, escaped.toUpperCase().replace(/\\U/g, '\\u'), `tok${escaped.slice(18)}`]) {
    const around = `{"echo":"${text}"}`;
    assert.equal(JSON.parse(around).echo, TOKEN, 'the escapes stand for the token');
    assert.ok(carriesSecret(around, [TOKEN]), text);
    assert.equal(scrubSecrets(around, [TOKEN]), '{"echo":"***"}');
  }
  // A character beyond the BMP is escaped as a surrogate pair.
  const astral = 'key-\u{1F511}-9876';
  assert.equal(
    scrubSecrets(JSON.stringify({ k: astral }).replace('\u{1F511}', '\\ud83d\\udd11'), [astral]),
    '{"k":"***"}',
  );
});

test('a secret written in another case (a header name arrives lower-cased) is found and masked', () => {
  const mixed = 'Tok-AbC-123456';
  assert.ok(carriesSecret('x-tok-abc-123456: 1', [mixed]));
  assert.equal(scrubSecrets('x-tok-abc-123456: 1\nX-TOK-ABC-123456: 2', [mixed]), 'x-***: 1\nX-***: 2');
});

test('a text cut inside a secret loses the part that could begin it, and nothing else', () => {
  const body = `{"items":[1,2],"echo":"${TOKEN}"}`;
  for (let cut = 0; cut <= body.length; cut++) {
    const head = body.slice(0, cut);
    const kept = withoutSecretStart(head, [TOKEN]);
    assert.ok(head.startsWith(kept));
    for (let k = 1; k <= TOKEN.length; k++) assert.ok(!kept.endsWith(TOKEN.slice(0, k)), `cut at ${cut}: ${kept}`);
    const at = body.indexOf(TOKEN);
    // Before the echo, at most a last character that could begin the token goes; inside it, all of it.
    if (cut < at) assert.ok(kept.length >= cut - 1, `cut at ${cut}: ${kept}`);
    else if (cut <= at + TOKEN.length) assert.equal(kept, body.slice(0, at), `cut at ${cut}`);
  }
  // Percent-encoded or \u-escaped starts of a secret, even cut inside an escape.
  for (const tail of ['tok%2F', 'tok%2', 'tok%', 'tok\\u002', 'tok\\', '\\u0074o'])
    assert.equal(withoutSecretStart(`abc ${tail}`, [TOKEN]), 'abc ');
  assert.equal(withoutSecretStart('plain words', [TOKEN]), 'plain words');
  // A token as long as a JWT is looked for too.
  const jwt = `eyJ${'aB9_-'.repeat(600)}`;
  assert.equal(withoutSecretStart(`{"t":"${jwt.slice(0, 1500)}`, [jwt]), '{"t":"');
});
