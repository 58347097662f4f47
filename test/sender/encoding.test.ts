/** Encoding of parameters: every shape in the docs, byte for byte like curl --data-urlencode. */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { appendQuery, encodeForm, encodeFormName, encodeFormValue, escapeUrlText, type FormPair } from '../../server/src/sender/encoding';
import { startServer, type TestServer } from './server';

/** Pairs in the shapes of the docs (convention 2 and the pattern names of the catalog). */
const SHAPES: FormPair[] = [
  { name: 'module[name]', value: 'Week 1: Intro & Setup' },
  { name: 'include[]', value: 'items' },
  { name: 'include[]', value: 'content_details' },
  { name: 'module_item[completion_requirement][type]', value: 'min_score' },
  { name: 'module_item[completion_requirement][min_score]', value: '7.5' },
  { name: 'appointment_group[new_appointments][0][]', value: '2026-09-14T08:00:00+02:00' },
  { name: 'appointment_group[new_appointments][0][]', value: '2026-09-14T09:00:00+02:00' },
  { name: 'appointment_group[new_appointments][1][]', value: '2026-09-15T08:00:00Z' },
  { name: 'custom_fields[my_field]', value: 'a=b&c=d' },
  { name: 'permissions[manage_files][enabled]', value: 'true' },
  { name: 'notification_preferences[new_announcement][frequency]', value: 'daily' },
  { name: 'subscription[EventTypes][]', value: 'submission_created' },
  { name: 'subscription[TransportMetadata][Url]', value: 'https://hooks.example.edu/in?x=1&y=2#frag' },
  { name: 'start_date', value: '2026-02-28' },
  { name: 'search', value: 'Über café 日本 😀' },
  { name: 'body', value: '1 + 1 = 2 100% "quoted" \'single\' <tag> ~tilde_ok-.' },
  { name: 'empty', value: '' },
  { name: 'path', value: '/a/b?c;d,e:f@g$h!i*j(k)l[m]n{o}p|q\\r^s`t' },
  { name: 'lines', value: 'one\ntwo\r\nthree\ttab' },
];

const KNOWN: [string, string][] = [
  ['a b', 'a+b'],
  ['a+b', 'a%2Bb'],
  ['&=+', '%26%3D%2B'],
  ['2026-09-14T08:00:00+02:00', '2026-09-14T08%3A00%3A00%2B02%3A00'],
  ['é', '%C3%A9'],
  ['日', '%E6%97%A5'],
  ['😀', '%F0%9F%98%80'],
  ['~-._', '~-._'],
  ["!*'()", '%21%2A%27%28%29'],
];

for (const [value, encoded] of KNOWN) {
  test(`encodeFormValue ${JSON.stringify(value)}`, () => assert.equal(encodeFormValue(value), encoded));
}

test('names keep their brackets literally', () => {
  assert.equal(encodeFormName('module_item[completion_requirement][type]'), 'module_item[completion_requirement][type]');
  assert.equal(encodeFormName('include[]'), 'include[]');
  assert.equal(encodeFormName('custom_fields[my field]'), 'custom_fields[my+field]');
  assert.equal(encodeForm([{ name: 'include[]', value: 'a' }, { name: 'include[]', value: 'b' }]), 'include[]=a&include[]=b');
});

test('the order of pairs is kept (nested pairs name[X][])', () => {
  const encoded = encodeForm(SHAPES.slice(5, 8));
  assert.equal(
    encoded,
    'appointment_group[new_appointments][0][]=2026-09-14T08%3A00%3A00%2B02%3A00&appointment_group[new_appointments][0][]=2026-09-14T09%3A00%3A00%2B02%3A00&appointment_group[new_appointments][1][]=2026-09-15T08%3A00%3A00Z',
  );
});

test('escapeUrlText keeps what is written and escapes what a URL cannot hold', () => {
  assert.equal(escapeUrlText('/api/v1/courses/sis_course_id:A1/files?sort=size'), '/api/v1/courses/sis_course_id:A1/files?sort=size');
  assert.equal(escapeUrlText('a b%20c%zz é'), 'a%20b%20c%25zz%20%C3%A9');
});

test('appendQuery keeps the query already in the target', () => {
  assert.equal(appendQuery('http://h/p', 'a=1'), 'http://h/p?a=1');
  assert.equal(appendQuery('http://h/p?sort=size', 'a=1'), 'http://h/p?sort=size&a=1');
  assert.equal(appendQuery('http://h/p?', 'a=1'), 'http://h/p?a=1');
  assert.equal(appendQuery('http://h/p#f', 'a=1'), 'http://h/p?a=1#f');
  assert.equal(appendQuery('http://h/p', ''), 'http://h/p');
});

// The same pairs sent by curl itself, when curl is on this machine.
const run = promisify(execFile);
let curl = false;
let server: TestServer;
before(async () => {
  try {
    await run('curl', ['--version']);
    curl = true;
  } catch {
    curl = false;
  }
  server = await startServer((_req, res) => res.end('ok'));
});
after(() => server.close());

test('form body: byte for byte what curl --data-urlencode sends', async (t) => {
  if (!curl) return t.skip('curl is not installed');
  const args = ['-s', '-o', '/dev/null', '--noproxy', '*', `${server.origin}/form`];
  for (const p of SHAPES) args.push('--data-urlencode', `${p.name}=${p.value}`);
  await run('curl', args);
  const got = server.received.at(-1);
  assert.equal(got?.method, 'POST');
  assert.equal(got?.headers['content-type'], 'application/x-www-form-urlencoded');
  assert.equal(encodeForm(SHAPES), got?.body);
});

test('query string: byte for byte what curl -G --data-urlencode sends', async (t) => {
  if (!curl) return t.skip('curl is not installed');
  const args = ['-s', '-G', '-o', '/dev/null', '--noproxy', '*', `${server.origin}/query`];
  for (const p of SHAPES) args.push('--data-urlencode', `${p.name}=${p.value}`);
  await run('curl', args);
  const got = server.received.at(-1);
  // curl's URL parser writes the hex digits of a query in lower case; the bytes are the same.
  const upper = (s: string) => s.replace(/%[0-9a-f]{2}/gi, (m) => m.toUpperCase());
  assert.equal(upper(got?.url ?? ''), `/query?${encodeForm(SHAPES)}`);
});
