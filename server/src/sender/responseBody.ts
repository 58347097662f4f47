/**
 * The response body: read up to the size limit, the rest spilled (scrubbed) to a file in a
 * private folder, a body cut short kept without the start of a secret, then parsed and
 * named (JSON, text, binary, an API error).
 */
import { createWriteStream } from 'node:fs';
import { lstat, mkdir, mkdtemp, readdir, stat, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { ExchangeOptions, ExchangeResult } from './exchangeTypes';
import { exactIntegers } from './exactNumbers';
import { apiErrorMessage } from './errorBody';
import { SecretScrubber, withoutSecretStart } from './secrets';

const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;

function looksTextual(contentType: string | undefined, bytes: Buffer): boolean {
  if (contentType && /json|text|xml|javascript|x-www-form-urlencoded/i.test(contentType)) return true;
  if (contentType && /^(image|audio|video|application\/(octet-stream|pdf|zip))/i.test(contentType)) return false;
  return !bytes.subarray(0, 1024).includes(0);
}

export async function readBody(stream: AsyncIterable<Buffer>, result: ExchangeResult, options: ExchangeOptions) {
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const chunks: Buffer[] = [];
  let total = 0;
  let kept = 0;
  let file: string | undefined;
  let out: ReturnType<typeof createWriteStream> | undefined;
  const secrets = [options.token, ...(options.secrets ?? []), ...(options.foreignSecrets ?? [])];
  // The file is scrubbed as the output is: a server that echoes the token does not put it on disk.
  const scrubber = new SecretScrubber(secrets);
  let finished = false;
  try {
    for await (const chunk of stream) {
      total += chunk.length;
      if (!out && total > limit) {
        const dir = await spillFolder(options.spillDir ?? join(tmpdir(), `lpreq-bodies-${userFolderSuffix()}`), result);
        file = join(dir, `body-${Date.now()}-${randomBytes(4).toString('hex')}`);
        // Readable by this user only: a response can hold what only its reader should see.
        out = createWriteStream(file, { mode: 0o600, flags: 'wx' });
        // Everything read so far is in `chunks` (it fitted): the file starts with it.
        for (const c of chunks) out.write(scrubber.push(c));
      }
      if (out && !out.write(scrubber.push(chunk))) await new Promise<void>((resolve) => out?.once('drain', resolve));
      // The first `limit` bytes are kept in memory: the whole body when it fits.
      if (kept < limit) {
        const part = chunk.subarray(0, limit - kept);
        chunks.push(part);
        kept += part.length;
      }
    }
    finished = true;
  } finally {
    if (out) {
      const stream = out;
      // A body cut short ends without what was held back: it could be the start of a secret.
      await new Promise<void>((resolve) => stream.end(scrubber.end(!finished), resolve));
    }
    // A body cut by a failure still says how much of it came, shows it, and where the rest went.
    if (file) result.truncated = { file, bytes: total, limit };
    if (!finished && total > 0) {
      result.bodyIncomplete = true;
      result.bytes = total;
      const head = Buffer.concat(chunks);
      result.bodyKind = looksTextual(result.contentType, head) ? 'text' : 'binary';
      result.bodyText =
        result.bodyKind === 'text'
          ? withoutSecretStart(head.toString('utf8'), secrets)
          : `(${total} bytes of ${result.contentType ?? 'binary data'})`;
      result.body = result.bodyKind === 'text' ? result.bodyText : null;
    }
  }
  result.bytes = total;
  const head = Buffer.concat(chunks);
  if (total === 0) {
    result.bodyKind = 'empty';
    return;
  }
  if (looksTextual(result.contentType, head)) {
    // A body cut at the limit may end inside an echoed secret: that start is not shown.
    result.bodyText = file ? withoutSecretStart(head.toString('utf8'), secrets) : head.toString('utf8');
    result.bodyKind = 'text';
    result.body = result.bodyText;
  } else {
    result.bodyKind = 'binary';
    result.bodyText = `(${total} bytes of ${result.contentType ?? 'binary data'})`;
    result.body = null;
  }
}

/**
 * The folder a large body is written to: `wanted` when only this user can write it (created
 * 0700, or found as a folder, not a symbolic link, owned by this user and writable by no
 * one else). Otherwise another user could read the body, or swap the file: it is not used,
 * a warning says why, and the body goes to a new private folder.
 */
async function spillFolder(wanted: string, result: ExchangeResult): Promise<string> {
  let why: string | undefined;
  try {
    await mkdir(wanted, { recursive: true, mode: 0o700 });
    const info = await lstat(wanted);
    const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
    if (info.isSymbolicLink()) why = 'it is a symbolic link';
    else if (!info.isDirectory()) why = 'it is not a folder';
    else if (uid !== undefined && info.uid !== uid) why = `it belongs to another user (uid ${info.uid})`;
    else if ((info.mode & 0o022) !== 0) why = 'others can write to it';
  } catch (e) {
    why = `it cannot be made (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`;
  }
  if (why === undefined) {
    await pruneSpills(wanted);
    return wanted;
  }
  const fresh = await mkdtemp(join(tmpdir(), 'lpreq-bodies-'));
  result.warnings.push(
    `the folder ${wanted} is not used for large bodies, since ${why}: the body is written to ${fresh} instead`,
  );
  return fresh;
}

/** Parses a JSON body and names what went wrong with an answer. */
export function interpretBody(result: ExchangeResult, method: string) {
  const status = result.status ?? 0;
  const isJsonType = result.contentType !== undefined && /[/+]json\b/i.test(result.contentType);
  if (result.bodyKind === 'text' && !result.truncated) {
    const trimmed = result.bodyText.trim();
    // canvas-style APIs prefix JSON with `while(1);` against JSON hijacking.
    const jsonText = trimmed.startsWith('while(1);') ? trimmed.slice(9) : trimmed;
    if (isJsonType || /^[[{]/.test(jsonText)) {
      try {
        result.body = JSON.parse(jsonText);
        result.bodyKind = 'json';
        const exact = exactIntegers(jsonText);
        if (exact) result.exactNumbers = exact;
      } catch (e) {
        if (isJsonType)
          result.warnings.push(`the body is declared as JSON but is not valid JSON (${(e as Error).message})`);
      }
    }
  }
  if (result.truncated) {
    result.warnings.push(
      `the body (${result.truncated.bytes} bytes) is larger than ${result.truncated.limit} bytes: it is in ${result.truncated.file}`,
    );
  }
  if (status >= 400) {
    const detail = apiErrorMessage(result.body, result.contentType);
    result.error = { kind: 'http', message: `${status} ${result.statusText}${detail ? `: ${detail}` : ''}` };
  } else if (
    status >= 200 &&
    status < 300 &&
    result.bodyKind === 'empty' &&
    status !== 204 &&
    status !== 205 &&
    method !== 'HEAD'
  ) {
    // Not a failure: an empty body is worth saying when a resource was expected.
    result.warnings.push('the response has an empty body');
  }
}

/** Spill files kept at most, and how long: older ones are removed when a new one is written. */
const SPILL_KEEP_FILES = 20;
const SPILL_KEEP_MS = 24 * 60 * 60 * 1000;

/** Removes spill files older than a day, and all but the newest of the rest, so that the folder stays bounded. Never throws. */
async function pruneSpills(dir: string): Promise<void> {
  try {
    const files = await Promise.all(
      (await readdir(dir))
        .filter((n) => n.startsWith('body-'))
        .map(async (n) => ({
          path: join(dir, n),
          mtime: (await stat(join(dir, n)).catch(() => undefined))?.mtimeMs ?? 0,
        })),
    );
    files.sort((a, b) => b.mtime - a.mtime);
    const now = Date.now();
    // One place is left for the file about to be written.
    const old = files.filter((f, i) => i >= SPILL_KEEP_FILES - 1 || now - f.mtime > SPILL_KEEP_MS);
    await Promise.all(old.map((f) => unlink(f.path).catch(() => undefined)));
  } catch {
    // A folder that cannot be read is no reason to lose the body.
  }
}

/** A name for this user's folder of large bodies (the uid where there is one). */
function userFolderSuffix(): string {
  return typeof process.getuid === 'function' ? String(process.getuid()) : 'user';
}
