/**
 * Issue 26, item 4: every file a repository makes lpreq read goes through the one confined
 * reader (server/src/node/confinedFile.ts): a regular file inside the workspace, links
 * resolved and confined, a size limit, a bounded read, and never a wait on a FIFO or a device.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  EnvironmentFileError,
  loadEnvironmentFiles,
  readBodyFile,
  readConfinedFile,
  readConfinedText,
  readTlsFiles,
  TestIgnore,
} from '../../server/src/node/index';
import { sendSetup } from '../../server/src/sender/setup';
import { tempDir } from '../helpers';

/** A workspace beside a folder of the user's secrets, which a link in the workspace points at. */
function clone(): { repo: string; home: string } {
  const root = tempDir('confined');
  const home = join(root, 'home');
  const repo = join(root, 'repo');
  mkdirSync(home);
  mkdirSync(join(repo, 'requests'), { recursive: true });
  writeFileSync(join(home, 'credentials'), 'AWS_SECRET=home-secret-0123456789\nPLAIN=home-plain-value\n');
  writeFileSync(join(home, 'env.json'), '{"local":{"base_url":"http://127.0.0.1:9","note":"from home"}}');
  writeFileSync(join(repo, 'http-client.env.json'), '{"local":{"base_url":"http://127.0.0.1:9"}}');
  writeFileSync(join(repo, 'requests', 'a.lpreq'), 'GET {{base_url}}/api/v1/courses\n');
  return { repo, home };
}

function fifo(path: string): void {
  assert.equal(spawnSync('mkfifo', [path]).status, 0, 'mkfifo');
}

test('a .env that links out of the workspace is not read: its values are not sent, and a warning says why', () => {
  const { repo, home } = clone();
  symlinkSync(join(home, 'credentials'), join(repo, 'requests', '.env'));
  const setup = sendSetup(join(repo, 'requests', 'a.lpreq'), { env: {}, chooseWith: '--env' });
  assert.deepEqual(setup.system.dotenv, {});
  assert.equal(setup.warnings.length, 1);
  assert.match(setup.warnings[0], /\.env: it is outside the workspace .*a link to .*credentials/);
  assert.doesNotMatch(setup.warnings.join('\n'), /home-secret|home-plain/);
});

test('a .env that links inside the workspace is read; a .env that is a FIFO or a link to /dev/zero is refused at once', () => {
  const { repo } = clone();
  writeFileSync(join(repo, 'shared.env'), 'NAME=inside\n');
  symlinkSync(join(repo, 'shared.env'), join(repo, 'requests', '.env'));
  assert.deepEqual(
    { ...sendSetup(join(repo, 'requests', 'a.lpreq'), { env: {}, chooseWith: '--env' }).system.dotenv },
    { NAME: 'inside' },
  );

  const other = clone();
  fifo(join(other.repo, 'requests', '.env'));
  const setup = sendSetup(join(other.repo, 'requests', 'a.lpreq'), { env: {}, chooseWith: '--env' });
  assert.match(setup.warnings.join('\n'), /\.env: a pipe \(FIFO\), not a regular file/);

  const third = clone();
  symlinkSync('/dev/zero', join(third.repo, 'requests', '.env'));
  const zero = sendSetup(join(third.repo, 'requests', 'a.lpreq'), { env: {}, chooseWith: '--env' });
  assert.match(zero.warnings.join('\n'), /\.env: it is outside the workspace/);
});

test('the confined reader: inside and outside, kinds of file, the size limit, a file that grew', () => {
  const { repo, home } = clone();
  const read = readConfinedFile(join(repo, 'http-client.env.json'), repo, 1024);
  assert.equal(read.problem, undefined);
  assert.match(String(read.bytes), /base_url/);
  assert.match(readConfinedFile(join(home, 'credentials'), repo, 1024).problem ?? '', /outside the workspace/);
  assert.match(
    readConfinedFile(join(repo, 'requests', '..', '..', 'home', 'credentials'), repo, 1024).problem ?? '',
    /outside the workspace/,
  );
  assert.match(readConfinedFile(join(repo, 'requests'), repo, 1024).problem ?? '', /a folder/);
  assert.match(readConfinedFile(join(repo, 'nothing'), repo, 1024).problem ?? '', /no such file/);
  fifo(join(repo, 'pipe'));
  assert.match(readConfinedFile(join(repo, 'pipe'), repo, 1024).problem ?? '', /pipe \(FIFO\)/);
  symlinkSync(join(repo, 'pipe'), join(repo, 'to-pipe'));
  assert.match(readConfinedFile(join(repo, 'to-pipe'), repo, 1024).problem ?? '', /pipe \(FIFO\)/);
  writeFileSync(join(repo, 'big'), '');
  truncateSync(join(repo, 'big'), 5 * 1024 * 1024);
  assert.match(readConfinedFile(join(repo, 'big'), repo, 1024 * 1024).problem ?? '', /5 MB, larger than lpreq reads/);
  // A workspace given through a link is compared by its real path.
  symlinkSync(repo, join(home, 'repo-link'));
  assert.equal(
    readConfinedText(join(home, 'repo-link', 'http-client.env.json'), join(home, 'repo-link')).problem,
    undefined,
  );
});

test('an environment file that links out of the workspace is refused with its name, not read', () => {
  const { repo, home } = clone();
  symlinkSync(join(home, 'env.json'), join(repo, 'http-client.private.env.json'));
  assert.throws(
    () => loadEnvironmentFiles(join(repo, 'requests')),
    (e: unknown) =>
      e instanceof EnvironmentFileError &&
      /http-client\.private\.env\.json: it is outside the workspace/.test(e.message) &&
      !/from home/.test(e.message),
  );
  // In the editor the workspace is its folder: the same link is refused there too.
  const problems: string[] = [];
  const files = loadEnvironmentFiles(join(repo, 'requests'), repo, (e) => problems.push(e.message));
  assert.equal(problems.length, 1);
  assert.equal(files.environments.local.note, undefined);
});

test('$tls files are read only from inside the workspace of the environment files, never from a pipe', () => {
  const { repo, home } = clone();
  writeFileSync(join(home, 'ca.pem'), '-----BEGIN CERTIFICATE-----\n');
  writeFileSync(join(repo, 'ca.pem'), '-----BEGIN CERTIFICATE-----\n');
  const out = readTlsFiles({ ca: join(home, 'ca.pem'), workspace: repo }, 'local');
  assert.ok('error' in out && /"ca" cannot be read from .*outside the workspace/.test(out.error));
  const ok = readTlsFiles({ ca: join(repo, 'ca.pem'), workspace: repo }, 'local');
  assert.ok('tls' in ok && ok.tls.ca !== undefined);
  fifo(join(repo, 'key.pem'));
  const piped = readTlsFiles({ cert: join(repo, 'ca.pem'), key: join(repo, 'key.pem'), workspace: repo }, 'local');
  assert.ok('error' in piped && /pipe/.test(piped.error));
  // The loader records the workspace, so a shared file's `../` path is refused at send.
  writeFileSync(
    join(repo, 'http-client.env.json'),
    JSON.stringify({ local: { base_url: 'https://127.0.0.1:9', $tls: { ca: '../home/ca.pem' } } }),
  );
  const files = loadEnvironmentFiles(join(repo, 'requests'));
  assert.equal(files.options?.local.tls?.workspace, repo);
});

test('a body file that is a FIFO is refused, not waited on', () => {
  const { repo } = clone();
  fifo(join(repo, 'requests', 'body.json'));
  const read = readBodyFile(join(repo, 'requests', 'body.json'), undefined, repo);
  assert.ok('error' in read && /pipe \(FIFO\)/.test(read.error));
});

test('.lpreqtestignore is read only from inside the walked folder', () => {
  const { repo, home } = clone();
  writeFileSync(join(home, 'ignore'), 'a.lpreq\n');
  symlinkSync(join(home, 'ignore'), join(repo, '.lpreqtestignore'));
  const ignore = new TestIgnore();
  assert.equal(ignore.ignoring(join(repo, 'requests', 'a.lpreq'), repo, repo), undefined);
  assert.match(ignore.notes.join('\n'), /outside the workspace/);
});
