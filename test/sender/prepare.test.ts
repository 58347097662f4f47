/** From block to request: the pure step, no network. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { prepareRequest, blockAtLine, type PreparedRequest } from '../../server/src/sender/prepare';
import { systemVariable, parseDotenv, resolveText } from '../../server/src/sender/variables';
import { toCurl } from '../../server/src/sender/curl';
import { doc, testChecker } from './server';

const NOW = new Date('2026-03-01T12:00:00.000Z');
const system = {
  now: () => NOW,
  random: () => 0.5,
  uuid: () => '00000000-0000-4000-8000-000000000000',
  processEnv: { HOME_COURSE: '77' },
  dotenv: { SECRET_ID: 'abc' },
};
const environments = {
  environments: {
    local: { base_url: 'http://127.0.0.1:4010', course: '42' },
    prod: { base_url: 'https://lms.example.edu' },
  },
  selected: 'local',
};

function prepare(text: string, index = 0, env = environments): PreparedRequest {
  const result = prepareRequest(testChecker(), doc(text), index, { environments: env, system });
  assert.ok(result.ok, result.ok ? '' : result.error);
  return result.request;
}

test('a path is joined to the environment base_url; the endpoint gives returns and paging', () => {
  const r = prepare('GET /api/v1/courses/{{course}}/modules\n\ninclude[] = items\ninclude[] = content_details\n');
  assert.equal(r.url, 'http://127.0.0.1:4010/api/v1/courses/42/modules?include[]=items&include[]=content_details');
  assert.equal(r.method, 'GET');
  assert.equal(r.body, undefined);
  assert.equal(r.endpointId, 'modules.list');
  assert.equal(r.returns, 'Module[]');
  assert.equal(r.paginated, true);
  assert.equal(r.paging, 'link');
  assert.equal(r.tokenOrigin, 'http://127.0.0.1:4010');
  assert.ok(!r.headers.some(([n]) => n.toLowerCase() === 'authorization'));
});

test('POST parameters go in a form body; the target query is kept', () => {
  const r = prepare(
    [
      '@base_url = https://lms.example.edu/',
      '### Create a module item',
      '# @name createItem',
      'POST {{base_url}}/api/v1/courses/{{course}}/modules/7/items?x=1',
      'Accept: application/json',
      '',
      'module_item[type] = Assignment',
      'module_item[title] = Essay & notes = 100% + more',
      'module_item[completion_requirement][type] = must_submit',
    ].join('\n'),
    1,
  );
  assert.equal(r.url, 'https://lms.example.edu/api/v1/courses/42/modules/7/items?x=1');
  assert.deepEqual(r.body, {
    contentType: 'application/x-www-form-urlencoded',
    text: 'module_item[type]=Assignment&module_item[title]=Essay+%26+notes+%3D+100%25+%2B+more&module_item[completion_requirement][type]=must_submit',
  });
  assert.equal(r.name, 'createItem');
  assert.equal(r.title, 'Create a module item');
  assert.equal(r.returns, 'ModuleItem');
  // The file says base_url is lms.example.edu, but the token belongs to the environment's.
  assert.equal(r.tokenOrigin, 'http://127.0.0.1:4010');
});

test('query continuation lines and DELETE parameters go in the query', () => {
  const r = prepare('DELETE /api/v1/files/5?x=a%20b\n    &y={{course}}\n\nreplace = true\n');
  assert.equal(r.url, 'http://127.0.0.1:4010/api/v1/files/5?x=a%20b&y=42&replace=true');
});

test('values from variables are encoded as data in a written query', () => {
  const r = prepare('@term = a&b c\nGET /api/v1/search/all_courses?search={{term}}\n');
  assert.equal(r.url, 'http://127.0.0.1:4010/api/v1/search/all_courses?search=a%26b+c');
});

test('a JSON body is sent as written, as application/json', () => {
  const text =
    'POST /api/v1/courses/1/quizzes/2/submissions/3/events\n\n{ "quiz_submission_events": [ { "event_type": "{{$guid}}" } ] }\n';
  const r = prepare(text);
  assert.equal(r.body?.contentType, 'application/json');
  assert.equal(
    r.body?.text,
    '{ "quiz_submission_events": [ { "event_type": "00000000-0000-4000-8000-000000000000" } ] }',
  );
});

test('the webhook list pages with StartKey', () => {
  const r = prepare('GET /api/lti/subscriptions\n');
  assert.equal(r.paging, 'start-key');
});

test('unresolved variables and a missing base_url are errors, not exceptions', () => {
  const a = prepareRequest(testChecker(), doc('GET /api/v1/courses/{{nope}}/modules\n'), 0, { environments, system });
  assert.equal(a.ok, false);
  assert.match(a.ok ? '' : a.error, /nope/);
  const b = prepareRequest(testChecker(), doc('GET /api/v1/courses/1/modules\n'), 0, {});
  assert.equal(b.ok, false);
  assert.match(b.ok ? '' : b.error, /base_url/);
  const c = prepareRequest(testChecker(), doc('# nothing here\n'), 0, {});
  assert.equal(c.ok, false);
  const d = prepareRequest(testChecker(), doc('GET /x\n'), 5, {});
  assert.equal(d.ok, false);
  const e = prepareRequest(testChecker(), doc('@a = {{b}}\n@b = {{a}}\nGET /api/v1/courses/{{a}}/modules\n'), 0, {
    environments,
    system,
  });
  assert.equal(e.ok, false);
  assert.match(e.ok ? '' : e.error, /itself/);
});

test('file variables may use other variables', () => {
  const r = prepare('@mods = /api/v1/courses/{{course}}/modules\nGET {{base_url}}{{mods}}\n');
  assert.equal(r.url, 'http://127.0.0.1:4010/api/v1/courses/42/modules');
});

const SYSTEM: [string, string][] = [
  ['$guid', '00000000-0000-4000-8000-000000000000'],
  ['$random.uuid', '00000000-0000-4000-8000-000000000000'],
  ['$timestamp', String(NOW.getTime() / 1000)],
  ['$timestamp -1 d', String(NOW.getTime() / 1000 - 86400)],
  ['$isoTimestamp', '2026-03-01T12:00:00.000Z'],
  ['$datetime iso8601', '2026-03-01T12:00:00.000Z'],
  ['$datetime iso8601 1 d', '2026-03-02T12:00:00.000Z'],
  ['$datetime rfc1123', 'Sun, 01 Mar 2026 12:00:00 GMT'],
  ['$datetime "YYYY-MM-DD"', '2026-03-01'],
  ['$datetime rfc1123 -2 h', 'Sun, 01 Mar 2026 10:00:00 GMT'],
  ['$randomInt 10 20', '15'],
  ['$processEnv HOME_COURSE', '77'],
  ['$dotenv SECRET_ID', 'abc'],
  ['$env.HOME_COURSE', '77'],
];
for (const [expression, expected] of SYSTEM) {
  test(`system variable {{${expression}}}`, () => {
    assert.deepEqual(systemVariable(expression, system), { value: expected });
  });
}

test('bad system variables are errors in words', () => {
  for (const e of [
    '$randomInt 5',
    '$randomInt 5 1',
    '$processEnv NOPE',
    '$dotenv NOPE',
    '$datetime',
    '$datetime iso8601 1 parsec',
    '$nope',
    '$env.NOPE',
    '$aadToken',
    '$oidcAccessToken x',
    '$exampleServer',
  ]) {
    const r = systemVariable(e, system);
    assert.ok('error' in r, e);
  }
  const real = systemVariable('$guid', {});
  assert.ok('value' in real && /^[0-9a-f-]{36}$/.test(real.value));
});

test('resolveText leaves unresolved references and lists them', () => {
  const r = resolveText('a {{x}} b {{y}}', { values: new Map([['x', '1']]) });
  assert.equal(r.text, 'a 1 b {{y}}');
  assert.equal(r.errors.length, 1);
});

test('parseDotenv', () => {
  assert.deepEqual(parseDotenv('# c\nA=1\nexport B = "two words"\nC=x # note\nbad line\n'), {
    A: '1',
    B: 'two words',
    C: 'x',
  });
});

test('blockAtLine finds the request that holds a line', () => {
  const d = doc('GET /a\n\n### two\nGET /b\n\n### three\nGET /c\n');
  assert.equal(blockAtLine(d, 1), 0);
  assert.equal(blockAtLine(d, 4), 1);
  assert.equal(blockAtLine(d, 7), 2);
  assert.equal(blockAtLine(d, 99), -1);
});

test('toCurl: $LPREQ_TOKEN unless the token is asked for in so many words', () => {
  const r = prepare("POST /api/v1/courses/1/modules\n\nmodule[name] = it's mine\n");
  const plain = toCurl(r, { token: 'sekret-token' });
  assert.ok(!plain.includes('sekret-token'));
  assert.ok(plain.includes('"Authorization: Bearer $LPREQ_TOKEN"'));
  assert.ok(plain.includes("--data-raw 'module[name]=it%27s+mine'"));
  assert.ok(plain.startsWith('curl --globoff -X POST http://127.0.0.1:4010/api/v1/courses/1/modules'));
  const withToken = toCurl(r, { includeToken: true, token: 'sekret-token' });
  assert.ok(withToken.includes("'Authorization: Bearer sekret-token'"));
  // No token header at all for a URL outside the token's origin.
  const other = toCurl({ ...r, url: 'https://elsewhere.example/x' }, { includeToken: true, token: 'sekret-token' });
  assert.ok(!other.includes('Authorization'));
});

test('toCurl: an Authorization written in the file is sent as the sender sends it, its own credentials not copied, and the token not added', () => {
  const r = prepare(
    "POST /api/v1/courses/1/modules\nAuthorization: Basic written-in-file\n\nmodule[name] = it's mine\n",
  );
  const plain = toCurl(r, { token: 'sekret-token' });
  assert.ok(!plain.includes('written-in-file'), plain);
  assert.ok(plain.includes("-H 'Authorization: Basic ***'"), plain);
  assert.ok(!plain.includes('$LPREQ_TOKEN'), plain);
  // With the token asked for, every credential as it is sent.
  assert.ok(
    toCurl(r, { includeToken: true, token: 'sekret-token' }).includes("'Authorization: Basic written-in-file'"),
  );
  // One that carries the token reads it from $LPREQ_TOKEN.
  const bearer = prepare('GET /api/v1/courses/1/modules\nAuthorization: Bearer sekret-token\n');
  assert.ok(toCurl(bearer, { token: 'sekret-token' }).includes(`-H 'Authorization: Bearer '"$LPREQ_TOKEN"`));
});

test("REST Client's {{%name}} sends the value percent-encoded; a variable in a header name is resolved", () => {
  const r = prepare(
    '@term = week 1&2\n@h = X-Trace\nGET /api/v1/courses/42/modules?search_term={{%term}}\n{{h}}: 1\nX-{{h}}-Id: 2\n',
  );
  assert.equal(r.url, 'http://127.0.0.1:4010/api/v1/courses/42/modules?search_term=week%201%262');
  assert.deepEqual(r.headers.slice(0, 2), [
    ['X-Trace', '1'],
    ['X-X-Trace-Id', '2'],
  ]);
});

test('a header name that a variable makes invalid is reported, not sent', () => {
  const result = prepareRequest(testChecker(), doc('@h = Bad Name\nGET /api/v1/courses/42/modules\n{{h}}: 1\n'), 0, {
    environments,
    system,
  });
  assert.equal(result.ok, false);
  assert.match(result.ok ? '' : result.error, /header name 'Bad Name'/);
});

test("JetBrains' $projectRoot is the project folder; $auth.token is the sign-in's token, and says why when there is none", () => {
  const withRoot = prepareRequest(testChecker(), doc('GET /api/v1/courses/42/modules?root={{$projectRoot}}\n'), 0, {
    environments,
    system: { ...system, projectRoot: '/work/repo' },
  });
  assert.ok(withRoot.ok);
  assert.match(withRoot.ok ? withRoot.request.url : '', /root=%2Fwork%2Frepo/);
  const token = prepareRequest(
    testChecker(),
    doc('GET /api/v1/courses/42/modules\nAuthorization: Bearer {{$auth.token("lms")}}\n'),
    0,
    {
      environments,
      system,
    },
  );
  assert.equal(token.ok, false);
  assert.match(token.ok ? '' : token.error, /no sign-in of the environment's Security\.Auth/);
  // With the environment's sign-ins at hand (oauth2/environmentAuth.ts), it is the sign-in's token, a secret of the request.
  const signedIn = prepareRequest(
    testChecker(),
    doc('GET /api/v1/courses/42/modules\nAuthorization: Bearer {{$auth.token("lms")}}\n'),
    0,
    {
      environments,
      system: {
        ...system,
        auth: { value: (kind, id) => ({ value: `${kind}-of-${id}-0123456789` }) },
      },
    },
  );
  assert.ok(signedIn.ok);
  assert.deepEqual(signedIn.ok ? signedIn.request.headers.find(([n]) => n === 'Authorization') : undefined, [
    'Authorization',
    'Bearer token-of-lms-0123456789',
  ]);
  assert.ok(signedIn.secrets.includes('token-of-lms-0123456789'));
});

test('a body read from a file: as it is with <, its variables replaced with <@, typed by Content-Type or by its extension', () => {
  const files: Record<string, string> = {
    'bodies/scores.json': '{"quiz_submissions": [{"attempt": {{course}}}]}',
    'notes.txt': 'a {{course}}',
  };
  const readFile = (p: string) => (p in files ? { text: files[p] } : { error: 'no such file' });
  const run = (text: string) => prepareRequest(testChecker(), doc(text), 0, { environments, system, readFile });
  const processed = run('PUT /api/v1/courses/42/quizzes/9/submissions/3\n\n<@ bodies/scores.json\n');
  assert.deepEqual(processed.ok && processed.request.body, {
    contentType: 'application/json',
    text: '{"quiz_submissions": [{"attempt": 42}]}',
  });
  const raw = run('POST /api/v1/courses/42/modules\nContent-Type: application/x-www-form-urlencoded\n\n< notes.txt\n');
  assert.deepEqual(raw.ok && raw.request.body, {
    contentType: 'application/x-www-form-urlencoded',
    text: 'a {{course}}',
  });
  const missing = run('POST /api/v1/courses/42/modules\n\n< nowhere.json\n');
  assert.equal(missing.ok, false);
  assert.match(missing.ok ? '' : missing.error, /nowhere\.json: no such file/);
  const noReader = prepareRequest(testChecker(), doc('POST /api/v1/courses/42/modules\n\n< notes.txt\n'), 0, {
    environments,
    system,
  });
  assert.equal(noReader.ok, false);
});

test('a body file sent as it is keeps its bytes; a binary one shows its size and cannot take variables', () => {
  const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff]);
  const readFile = (p: string) =>
    p === 'logo.png'
      ? { text: '\ufffdPNG\u0000\ufffd', bytes: png, binary: true, path: '/work/logo.png' }
      : { error: 'no such file' };
  const run = (text: string) => prepareRequest(testChecker(), doc(text), 0, { environments, system, readFile });
  const raw = run('POST /api/v1/courses/42/files\n\n< logo.png\n');
  assert.ok(raw.ok);
  assert.equal(raw.ok && raw.request.body?.bytes, png);
  assert.equal(raw.ok && raw.request.body?.contentType, 'image/png');
  assert.equal(raw.ok && raw.request.body?.text, '[6 bytes of binary data from logo.png]');
  assert.match(raw.ok ? toCurl(raw.request) : '', /--data-binary '?@\/work\/logo\.png'?$/);
  const processed = run('POST /api/v1/courses/42/files\n\n<@ logo.png\n');
  assert.equal(processed.ok, false);
  assert.match(processed.ok ? '' : processed.error, /binary/);
});

test('# @no-redirect is carried to the exchange; other requests follow redirects', () => {
  assert.equal(prepare('# @no-redirect\nGET /api/v1/courses/42/modules\n').noRedirect, true);
  assert.equal(prepare('GET /api/v1/courses/42/modules\n').noRedirect, undefined);
});

test("JetBrains' path lines are one URL with the query they carry", () => {
  const r = prepare(
    'GET /api/v1/courses/{{course}}\n    /modules\n    /7/items?include[]=content_details\n    &per_page=10\n',
  );
  assert.equal(r.url, 'http://127.0.0.1:4010/api/v1/courses/42/modules/7/items?include[]=content_details&per_page=10');
  assert.equal(r.endpointId, 'module_items.list');
});

test("JetBrains' # @timeout and # @connection-timeout go with the request and into a copied cURL command; one that is not a duration stops it", () => {
  const r = prepare('# @timeout 2 m\n# @connection-timeout 500 ms\nGET /api/v1/courses/42/modules\n');
  assert.equal(r.timeoutMs, 120_000);
  assert.equal(r.connectTimeoutMs, 500);
  assert.match(toCurl(r), /\n {2}--connect-timeout 0\.5 \\\n {2}--max-time 120 \\\n/);
  const plain = prepare('GET /api/v1/courses/42/modules\n');
  assert.equal(plain.timeoutMs, undefined);
  assert.doesNotMatch(toCurl(plain), /--max-time|--connect-timeout/);
  const bad = prepareRequest(testChecker(), doc('# @timeout soon\nGET /api/v1/courses/42/modules\n'), 0, {
    environments,
    system,
  });
  assert.equal(bad.ok, false);
  assert.match(bad.ok ? '' : bad.error, /@timeout 'soon'/);
});

test("without a selected environment the token has no origin, whatever the file's @base_url says", () => {
  const r = prepareRequest(
    testChecker(),
    doc('@base_url = https://lms.example.edu\nGET {{base_url}}/api/v1/courses/42/modules\n'),
    0,
    { system },
  );
  assert.ok(r.ok);
  assert.equal(r.ok && r.request.tokenOrigin, undefined);
  const unselected = prepareRequest(
    testChecker(),
    doc('@base_url = https://lms.example.edu\nGET {{base_url}}/api/v1/courses/42/modules\n'),
    0,
    {
      environments: { ...environments, selected: undefined },
      system,
    },
  );
  assert.equal(unselected.ok && unselected.request.tokenOrigin, undefined);
});

test('a variable only a JetBrains script sets cannot be sent, and the error says why', () => {
  const text =
    'GET /api/v1/courses/42/modules/{{fromScript}}\n###\nGET /api/v1/courses/42/modules\n\n> {% client.global.set("fromScript", response.body[0].id); %}\n';
  const result = prepareRequest(testChecker(), doc(text), 0, { environments, system });
  assert.equal(result.ok, false);
  assert.match(result.ok ? '' : result.error, /JetBrains script/);
});

test('{{%name}} in the parameter block is not encoded twice (the form encodes it once)', () => {
  const r = prepare('@term = a&b c\nPOST /api/v1/courses/42/modules\n\nmodule[name] = {{%term}}\n');
  assert.equal(r.body?.text, 'module[name]=a%26b+c');
});

test("an environment's base_url made of its variables gives the token's origin, resolved", () => {
  const env = {
    environments: { local: { base_url: 'http://{{host}}:{{port}}', host: '127.0.0.1', port: '4010' } },
    selected: 'local',
  };
  const r = prepareRequest(testChecker(), doc('GET /api/v1/courses/42/modules\n'), 0, { environments: env, system });
  assert.ok(r.ok);
  assert.equal(r.ok && r.request.tokenOrigin, 'http://127.0.0.1:4010');
});

test("a file variable cannot move the token's origin through an environment base_url made of variables", () => {
  const env = { environments: { local: { base_url: 'http://{{host}}:4010', host: '127.0.0.1' } }, selected: 'local' };
  const r = prepareRequest(testChecker(), doc('@host = evil.example\nGET /api/v1/courses/42/modules\n'), 0, {
    environments: env,
    system,
  });
  assert.ok(r.ok);
  assert.equal(r.ok && r.request.tokenOrigin, 'http://127.0.0.1:4010');
  assert.match(r.ok ? r.request.url : '', /evil\.example/);
});

test('Object.prototype names as system-variable arguments are errors in words: no crash, no offset dropped (issue 17)', () => {
  const dotenv = parseDotenv('A=1\n');
  for (const name of Object.getOwnPropertyNames(Object.prototype)) {
    for (const expression of [
      `$timestamp 1 ${name}`,
      `$datetime iso8601 1 ${name}`,
      `$localDatetime rfc1123 -1 ${name}`,
      `$processEnv ${name}`,
      `$dotenv ${name}`,
      `$env.${name}`,
    ]) {
      // The process's own environment object too, as the command line gives it.
      for (const processEnv of [system.processEnv, process.env]) {
        const r = systemVariable(expression, { ...system, processEnv, dotenv });
        assert.ok('error' in r, `${expression}: ${JSON.stringify(r)}`);
      }
    }
  }
  // Through a whole request: the request is refused with those errors, nothing thrown.
  const result = prepareRequest(
    testChecker(),
    doc(
      'GET /api/v1/courses/1/modules\nX-A: {{$timestamp 1 __proto__}}\nX-B: {{$processEnv constructor}}\nX-C: {{$dotenv toString}}\n',
    ),
    0,
    { environments, system: { ...system, dotenv } },
  );
  assert.equal(result.ok, false);
  assert.equal(result.ok ? 0 : result.errors.length, 3);
});

test('file and environment variables named like Object.prototype members resolve to their own values only (issue 17)', () => {
  const env = JSON.parse(
    '{"environments": {"local": {"base_url": "http://127.0.0.1:4010", "__proto__": "p", "constructor": "c"}}, "selected": "local"}',
  ) as typeof environments;
  const r = prepare(
    '@toString = t\nGET /api/v1/courses/{{constructor}}/modules?search_term={{__proto__}}{{toString}}\n',
    0,
    env,
  );
  assert.equal(r.url, 'http://127.0.0.1:4010/api/v1/courses/c/modules?search_term=pt');
  const unknown = prepareRequest(testChecker(), doc('GET /api/v1/courses/{{valueOf}}/modules\n'), 0, {
    environments: env,
    system,
  });
  assert.equal(unknown.ok, false);
  const other = prepareRequest(testChecker(), doc('GET /api/v1/courses/1/modules\n'), 0, {
    environments: { ...env, selected: 'toString' },
    system,
  });
  assert.ok(
    !other.ok || other.request.tokenOrigin === undefined,
    'an environment the files do not define gives the token no origin',
  );
});
