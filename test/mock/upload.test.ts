/**
 * The upload's last step (issue 30): the upload_url of the first step takes the file as a
 * multipart POST without the bearer token, once, and answers the attachment data; the file is
 * then in the folder, or can be submitted.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type Call, errorsOf, withMock } from './mockClient';
import { PRIYA, USERS } from './seedUsers';

type Obj = Record<string, unknown>;

/** The first step: the upload address and params. */
async function firstStep(call: Call, path: string, form: Record<string, string>, token?: string) {
  const r = await call('POST', path, { form, token });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  const body = r.body as { upload_url: string; upload_params: Record<string, string>; file_param: string };
  assert.equal(typeof body.upload_url, 'string');
  assert.equal(body.file_param, 'file');
  return body;
}

/** The last step as a client sends it: the params, then the file, as multipart/form-data, and no Authorization. */
async function lastStep(
  url: string,
  params: Record<string, string>,
  file: { name: string; text: string; type?: string } | undefined,
  init: { fileFirst?: boolean; method?: string } = {},
) {
  const form = new FormData();
  const add = () => file && form.append('file', new Blob([file.text], { type: file.type ?? 'text/plain' }), file.name);
  if (init.fileFirst) add();
  for (const [k, v] of Object.entries(params)) form.append(k, v);
  if (!init.fileFirst) add();
  const response = await fetch(url, { method: init.method ?? 'POST', body: init.method === 'GET' ? undefined : form });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : undefined) as unknown };
}

test('A, Files and folders, upload: the upload_url takes the file without the token, once, and the file is in the folder', () => {
  const logged: string[] = [];
  return withMock(
    async (call, mock) => {
      const step = await firstStep(call, '/api/v1/folders/301/files', {
        name: 'results.csv',
        content_type: 'text/csv',
        size: '11',
      });
      assert.ok(step.upload_url.startsWith(`${mock.url}/`), step.upload_url);
      const done = await lastStep(step.upload_url, step.upload_params, {
        name: 'local-name.csv',
        text: 'a,b\n1,2\n3,4',
      });
      assert.equal(done.status, 201, JSON.stringify(done.body));
      const file = done.body as Obj;
      assert.equal(typeof file.id, 'number', 'attachment data with the new file id');
      assert.deepEqual(
        [file.display_name, file.folder_id, file.size, file['content-type']],
        ['results.csv', 301, 11, 'text/csv'],
      );
      assert.equal(done.headers.get('location'), `${mock.url}/api/v1/files/${String(file.id)}`);
      const listed = (await call('GET', '/api/v1/folders/301/files')).body as Obj[];
      assert.ok(listed.some((f) => f.id === file.id));
      assert.equal((await call('GET', `/api/v1/files/${String(file.id)}`)).status, 200);

      const again = await lastStep(step.upload_url, step.upload_params, { name: 'x.csv', text: 'again' });
      assert.equal(again.status, 404, 'an upload address takes one file');
      // The request log names the address without its token.
      const token = step.upload_url.split('/').pop() ?? '';
      assert.ok(logged.includes('/files_api/upload/*'), logged.join(' '));
      assert.ok(!logged.some((t) => t.includes(token)));
    },
    { onRequest: (e) => logged.push(e.target) },
  );
});

test('A, Files and folders, upload: the params come back unchanged before the file, as multipart; a name taken is overwritten unless on_duplicate=rename', () =>
  withMock(async (call) => {
    const step = await firstStep(call, '/api/v1/folders/301/files', { name: 'lab-safety.pdf', on_duplicate: 'rename' });
    const changed = await lastStep(
      step.upload_url,
      { ...step.upload_params, filename: 'other.pdf' },
      {
        name: 'a.pdf',
        text: '%PDF',
      },
    );
    assert.equal(changed.status, 400);
    const fileFirst = await lastStep(
      step.upload_url,
      step.upload_params,
      { name: 'a.pdf', text: '%PDF' },
      { fileFirst: true },
    );
    assert.equal(fileFirst.status, 400);
    const noFile = await lastStep(step.upload_url, step.upload_params, undefined);
    assert.equal(noFile.status, 400);
    const notMultipart = await fetch(step.upload_url, { method: 'POST', body: 'filename=lab-safety.pdf' });
    assert.equal(notMultipart.status, 400);
    const get = await fetch(step.upload_url);
    assert.equal(get.status, 405);
    assert.equal(get.headers.get('allow'), 'POST');
    // Every refusal left the address waiting: the right request still works.
    const done = await lastStep(step.upload_url, step.upload_params, { name: 'a.pdf', text: '%PDF-1.7' });
    assert.equal(done.status, 201, JSON.stringify(done.body));
    assert.equal((done.body as Obj).display_name, 'lab-safety-1.pdf');

    const over = await call('POST', '/api/v1/folders/301/files', {
      form: { name: 'huge.bin', size: String(600 * 1024 * 1024) },
    });
    assert.equal(over.status, 400, 'larger than what the course quota leaves');
    assert.equal(errorsOf(over)[0].parameter, 'size');
    const unknown = await fetch(`${new URL(step.upload_url).origin}/files_api/upload/nothing-here`, { method: 'POST' });
    assert.equal(unknown.status, 404);
  }));

test('B, Assignment submissions, upload: the final step returns attachment data with the new file id, which the student submits', () =>
  withMock(async (call) => {
    const step = await firstStep(
      call,
      '/api/v1/courses/42/assignments/305/submissions/self/files',
      { name: 'osmosis.pdf', content_type: 'application/pdf' },
      PRIYA,
    );
    const done = await lastStep(step.upload_url, step.upload_params, { name: 'osmosis.pdf', text: '%PDF-1.7 osmosis' });
    assert.equal(done.status, 201, JSON.stringify(done.body));
    const file = done.body as Obj;
    const folder = (await call('GET', `/api/v1/folders/${String(file.folder_id)}`, { token: PRIYA })).body as Obj;
    assert.deepEqual(
      [folder.full_name, folder.for_submissions],
      ['my files/Submissions/Introduction to Cell Biology', true],
    );

    const submitted = await call('POST', '/api/v1/courses/42/assignments/305/submissions', {
      form: { 'submission[submission_type]': 'online_upload', 'submission[file_ids][]': String(file.id) },
      token: PRIYA,
    });
    assert.equal(submitted.status, 201, JSON.stringify(submitted.body));
    assert.equal((submitted.body as Obj).submission_type, 'online_upload');

    // "previously uploaded files of the submitter": a course file is not hers.
    const notHers = await call('POST', '/api/v1/courses/42/assignments/305/submissions', {
      form: { 'submission[submission_type]': 'online_upload', 'submission[file_ids][]': '4411' },
      token: PRIYA,
    });
    assert.equal(notHers.status, 400);
    assert.equal(errorsOf(notHers)[0].parameter, 'submission[file_ids][]');
    const none = await call('POST', '/api/v1/courses/42/assignments/305/submissions', {
      form: { 'submission[submission_type]': 'online_upload' },
      token: PRIYA,
    });
    assert.equal(none.status, 400);
  }, USERS));
