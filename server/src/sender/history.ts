/**
 * History of exchanges: one JSON file per exchange in a folder, and an index of one JSON
 * line per exchange. Every file is written to a temporary name and renamed into place, so
 * a crash in the middle of a write leaves the earlier entries and the index as they were.
 * Several processes may write one folder (two `lpreq send` at once): the index is read,
 * extended and renamed into place under a lock file, so no process's line is lost.
 * The token is never stored: the Authorization header is dropped, and every string of an
 * entry (keys and header names included) passes the scrubber with the secrets given to
 * `entryFromExchange`. Leftovers of writers killed mid-write (entry files no index lists,
 * `*.tmp-*` files) are removed by a later writer once they are older than a stale lock.
 */
import { randomBytes } from 'node:crypto';
import { link, mkdir, open, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { confinedFolder, partsBelow, readConfinedFile } from '../node/index';
import type { ExchangeError, ExchangeResult, Timing } from './exchange';
import type { PreparedRequest } from './prepare';
import type { ResponseIssue } from './typed';
import { scrubDeep } from './secrets';

export interface HistorySummary {
  id: string;
  /** ISO 8601, when the exchange ended. */
  time: string;
  method: string;
  url: string;
  status: number | null;
  durationMs: number;
  name?: string;
  /** The request file, when known. */
  file?: string;
  /** The environment it was sent in, and the origin of that environment's base_url: with the file and the name they say which request this was (`lastOf`). */
  environment?: string;
  baseOrigin?: string;
  /** The request's `###` title, for a list that names requests as the file does. */
  title?: string;
  /** Fetch All Pages: how many pages were merged into the answer. */
  pages?: number;
  /** Why no (complete) answer came, when none did: a cancelled request is not a failed one. */
  errorKind?: ExchangeError['kind'];
  /** Sent again from the history (not from its request file). */
  resent?: boolean;
}

export interface HistoryEntry extends HistorySummary {
  request: {
    method: string;
    url: string;
    headers: [string, string][];
    body?: string;
    /** The body's content type as sent (a resend keeps it). */
    contentType?: string;
    /** The body was this file's bytes (`< ./logo.png`): a resend reads them again; `body` only describes them. */
    bodyFile?: string;
    /** `# @no-redirect`: a resend does not follow redirects either. */
    noRedirect?: boolean;
    /** `# @timeout` and `# @connection-timeout`, kept for a resend. */
    timeoutMs?: number;
    connectTimeoutMs?: number;
  };
  ok: boolean;
  error?: ExchangeError;
  timing?: Timing;
  responseHeaders: Record<string, string>;
  /** The body text, cut at the store's limit (`bodyCut` then says so). */
  body?: string;
  bodyCut?: boolean;
  /** The file that holds a body too large for the response (a truncated response). */
  bodyFile?: string;
  resource?: string | null;
  issues?: ResponseIssue[];
}

export type NewHistoryEntry = Omit<HistoryEntry, 'id' | 'time'> & { time?: string };

export interface HistoryOptions {
  /** Entries kept; older ones are removed. Default 50. */
  keep?: number;
  /** Characters of a body stored in an entry. Default 1 MiB. */
  maxBodyChars?: number;
  /**
   * The workspace the folder is in (`.lpreq/history` of a project): every folder from it down
   * is checked not to be a link before each write (node/confinedWriter.ts), so a committed
   * `.lpreq/history` link cannot make the history be written elsewhere.
   */
  workspace?: string;
}

const INDEX = 'index.jsonl';
/** Held (created with O_EXCL) while a process changes the index. */
const LOCK = 'index.lock';
/** How long a writer waits for another process to release the lock. */
const LOCK_WAIT_MS = 15_000;
/** A change of the index takes milliseconds: a lock this old was left by a writer that died. */
const LOCK_STALE_MS = 30_000;
/** Breaking a stale lock takes milliseconds too. */
const BREAKER_STALE_MS = 5_000;
const ID = /^[0-9a-z]{6,}-[0-9a-f]{8}$/;
const SENSITIVE_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie']);

/**
 * Builds a history entry from an exchange. The Authorization, Proxy-Authorization and Cookie
 * headers are left out, and then the whole entry passes the one scrubber (scrubDeep): every
 * string and every key in it, header names and typed-check issues included, with `secrets`
 * (the token, the other secrets of the flow) written as `***`.
 */
export function entryFromExchange(
  request: PreparedRequest,
  response: ExchangeResult,
  extra: {
    file?: string;
    environment?: string;
    resource?: string | null;
    issues?: ResponseIssue[];
    secrets?: (string | undefined)[];
    /** Pages merged (Fetch All Pages); more than one is recorded. */
    pages?: number;
    resent?: boolean;
  } = {},
): NewHistoryEntry {
  const entry: NewHistoryEntry = {
    method: request.method,
    url: response.url || request.url,
    status: response.status,
    durationMs: response.durationMs,
    name: request.name,
    title: request.title,
    file: extra.file,
    ...(extra.environment !== undefined ? { environment: extra.environment } : {}),
    ...(request.tokenOrigin !== undefined ? { baseOrigin: request.tokenOrigin } : {}),
    ...(extra.pages !== undefined && extra.pages > 1 ? { pages: extra.pages } : {}),
    ...(response.error ? { errorKind: response.error.kind } : {}),
    ...(extra.resent ? { resent: true } : {}),
    request: {
      method: request.method,
      url: request.url,
      headers: request.headers.filter(([n]) => !SENSITIVE_HEADERS.has(n.toLowerCase())).map(([n, v]) => [n, v]),
      body: request.body ? request.body.text : undefined,
      ...(request.body ? { contentType: request.body.contentType } : {}),
      ...(request.body?.bytes !== undefined && request.body.file !== undefined ? { bodyFile: request.body.file } : {}),
      ...(request.noRedirect ? { noRedirect: true } : {}),
      ...(request.timeoutMs !== undefined ? { timeoutMs: request.timeoutMs } : {}),
      ...(request.connectTimeoutMs !== undefined ? { connectTimeoutMs: request.connectTimeoutMs } : {}),
    },
    ok: response.ok,
    error: response.error ? { ...response.error } : undefined,
    timing: response.timing,
    responseHeaders: Object.fromEntries(Object.entries(response.headers).filter(([n]) => n !== 'set-cookie')),
    body: response.bodyText,
    bodyFile: response.truncated?.file,
    resource: extra.resource,
    issues: extra.issues?.map((i) => ({ ...i })),
  };
  return scrubDeep(entry, extra.secrets ?? []);
}

export class HistoryStore {
  private readonly keep: number;
  private readonly maxBodyChars: number;
  private readonly workspace: string | undefined;
  /** Writes are serialised: one add or clear at a time within this process. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly dir: string,
    options: HistoryOptions = {},
  ) {
    this.keep = Math.max(1, options.keep ?? 50);
    this.maxBodyChars = options.maxBodyChars ?? 1024 * 1024;
    this.workspace = options.workspace;
  }

  /** Makes the folder (0700): under a workspace, through the confined writer's checks of every level. */
  private async makeFolder(): Promise<void> {
    if (this.workspace !== undefined) confinedFolder(this.workspace, partsBelow(this.workspace, this.dir));
    else await mkdir(this.dir, { recursive: true, mode: 0o700 });
  }

  /** Stores an exchange and returns its summary; the oldest entries beyond `keep` are removed. */
  add(entry: NewHistoryEntry): Promise<HistorySummary> {
    return this.serial(async () => {
      // Responses may hold people's data: the folder and its files are the user's alone.
      await this.makeFolder();
      const id = `${Date.now().toString(36).padStart(9, '0')}-${randomBytes(4).toString('hex')}`;
      const full: HistoryEntry = { ...entry, id, time: entry.time ?? new Date().toISOString() };
      if (full.body !== undefined && full.body.length > this.maxBodyChars) {
        full.body = full.body.slice(0, this.maxBodyChars);
        full.bodyCut = true;
      }
      // The entry first, then the index that lists it: a crash between the two leaves an
      // entry nobody lists, never an index line without its entry.
      await this.writeAtomic(`${id}.json`, JSON.stringify(full));
      const summary: HistorySummary = {
        id,
        time: full.time,
        method: full.method,
        url: full.url,
        status: full.status,
        durationMs: full.durationMs,
        ...(full.name ? { name: full.name } : {}),
        ...(full.file !== undefined ? { file: full.file } : {}),
        ...(full.environment !== undefined ? { environment: full.environment } : {}),
        ...(full.baseOrigin !== undefined ? { baseOrigin: full.baseOrigin } : {}),
        ...(full.title !== undefined ? { title: full.title } : {}),
        ...(full.pages !== undefined ? { pages: full.pages } : {}),
        ...(full.errorKind !== undefined ? { errorKind: full.errorKind } : {}),
        ...(full.resent ? { resent: true } : {}),
      };
      // Read, extended and replaced under the lock: another process doing the same at once
      // would otherwise replace the index with one that lacks this line.
      await this.withIndexLock(async () => {
        const lines = [...(await this.readIndex()), summary];
        const dropped = lines.length > this.keep ? lines.splice(0, lines.length - this.keep) : [];
        await this.writeAtomic(INDEX, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
        for (const old of dropped) await rm(join(this.dir, `${old.id}.json`), { force: true });
        await this.removeLeftovers(new Set(lines.map((l) => l.id)));
      });
      return summary;
    });
  }

  /** The newest entries first, at most `limit`. */
  async list(limit = this.keep): Promise<HistorySummary[]> {
    await this.queue.catch(() => undefined);
    const lines = await this.readIndex();
    return lines.reverse().slice(0, Math.max(0, limit));
  }

  /**
   * The newest entry of one request: the request named `name` in `file`, sent in the same
   * environment to the same base_url origin (an id the mock gave means nothing to production).
   * Undefined when the history holds none.
   */
  async lastOf(request: {
    name: string;
    file: string;
    environment?: string;
    baseOrigin?: string;
  }): Promise<HistoryEntry | undefined> {
    for (const s of await this.list()) {
      if (
        s.name === request.name &&
        s.file === request.file &&
        s.environment === request.environment &&
        s.baseOrigin === request.baseOrigin
      ) {
        return this.get(s.id);
      }
    }
    return undefined;
  }

  /**
   * One entry, or undefined when it does not exist or is damaged. A file that is there but
   * cannot be read (permissions, I/O) is an error: it is not the same as no entry.
   */
  async get(id: string): Promise<HistoryEntry | undefined> {
    if (!ID.test(id)) return undefined;
    await this.queue.catch(() => undefined);
    const path = join(this.dir, `${id}.json`);
    const read = readStored(path, MAX_STORED_BYTES);
    if (read === undefined) return undefined;
    if (read instanceof Error) throw unreadable(path, read);
    try {
      return JSON.parse(read) as HistoryEntry;
    } catch {
      return undefined;
    }
  }

  /** Removes every entry (and leftovers of interrupted writes). */
  clear(): Promise<void> {
    return this.serial(async () => {
      let names: string[];
      try {
        names = await readdir(this.dir);
      } catch (e) {
        if (isMissing(e)) return;
        throw unreadable(this.dir, e);
      }
      if (this.workspace !== undefined) await this.makeFolder();
      await this.withIndexLock(async () => {
        await rm(join(this.dir, INDEX), { force: true });
        for (const name of names) {
          if (name.endsWith('.json') && ID.test(name.slice(0, -5))) await rm(join(this.dir, name), { force: true });
          // Leftovers of interrupted writes; a recent one may be another process's write in progress.
          else if (name.includes('.tmp-') && (await ageOf(join(this.dir, name))) > LOCK_STALE_MS)
            await rm(join(this.dir, name), { force: true });
        }
      });
    });
  }

  /**
   * Removes what writers killed mid-write left, so that the folder keeps the last `keep`
   * entries and no more: entry files the index does not list, and `*.tmp-*` files (an entry,
   * the index or a lock being written). Only those older than a stale lock go: a live writer
   * lists its entry, or renames its file into place, long before that. Called under the lock.
   */
  private async removeLeftovers(listed: ReadonlySet<string>): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return;
    }
    for (const name of names) {
      const unlisted = name.endsWith('.json') && ID.test(name.slice(0, -5)) && !listed.has(name.slice(0, -5));
      if (!unlisted && !name.includes('.tmp-')) continue;
      if ((await ageOf(join(this.dir, name))) > LOCK_STALE_MS) await rm(join(this.dir, name), { force: true });
    }
  }

  /**
   * Runs `task` while this process holds the folder's lock file. A lock whose process has
   * ended (killed mid-write) or that is older than any write takes is removed and taken.
   */
  private async withIndexLock<T>(task: () => Promise<T>): Promise<T> {
    const path = join(this.dir, LOCK);
    const mine = `${process.pid} ${randomBytes(8).toString('hex')}`;
    // The lock is written under a name of its own and linked into place, which fails when
    // the lock exists: a lock file is never seen empty, even if its writer is killed.
    const written = join(this.dir, `${LOCK}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
    await writeFile(written, mine, { encoding: 'utf8', mode: 0o600, flag: 'wx' });
    const deadline = Date.now() + LOCK_WAIT_MS;
    const pause = (attempt: number) =>
      new Promise((r) => setTimeout(r, Math.min(50, 2 * attempt) * (0.5 + Math.random())));
    try {
      for (let attempt = 1; ; attempt++) {
        try {
          await link(written, path);
          break;
        } catch (e) {
          const code = (e as NodeJS.ErrnoException).code;
          // Our own file removed meanwhile (a clear of old leftovers): written again.
          if (code === 'ENOENT') {
            await writeFile(written, mine, { encoding: 'utf8', mode: 0o600, flag: 'wx' });
            continue;
          }
          if (code !== 'EEXIST') throw e;
        }
        if ((await staleLock(path)) !== undefined) {
          await this.breakStaleLock(path);
          continue;
        }
        if (Date.now() > deadline)
          throw new Error(`another process has held ${path} for more than ${LOCK_WAIT_MS / 1000} s`);
        await pause(attempt);
      }
    } finally {
      await rm(written, { force: true });
    }
    try {
      return await task();
    } finally {
      if (readLock(path) === mine) await rm(path, { force: true });
    }
  }

  /**
   * Removes a lock left by a writer that died. Two waiters may judge it stale at once; only
   * the one that creates the breaker file (O_EXCL) removes it, after looking again under the
   * breaker, so a lock taken meanwhile by a live writer is never removed.
   */
  private async breakStaleLock(path: string): Promise<void> {
    const breaker = `${path}.break`;
    try {
      await writeFile(breaker, String(process.pid), { flag: 'wx', mode: 0o600 });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      // Another waiter is breaking it (in milliseconds); a breaker left by one that died is removed.
      if ((await ageOf(breaker)) > BREAKER_STALE_MS) await rm(breaker, { force: true });
      return;
    }
    try {
      const held = await staleLock(path);
      if (held !== undefined && readLock(path) === held) await rm(path, { force: true });
    } finally {
      await rm(breaker, { force: true });
    }
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Lines of the index that parse; a damaged line (written by hand, a full disk) is skipped.
   * No index is no history; an index that cannot be read (EACCES, EISDIR, EIO) is an error,
   * so that the user is told, and so that `add` does not write a new index over it.
   */
  private async readIndex(): Promise<HistorySummary[]> {
    const path = join(this.dir, INDEX);
    const text = readStored(path, MAX_STORED_BYTES);
    if (text === undefined) return [];
    if (text instanceof Error) throw unreadable(path, text);
    const out: HistorySummary[] = [];
    for (const line of text.split('\n')) {
      if (line.trim().length === 0) continue;
      try {
        const parsed = JSON.parse(line) as HistorySummary;
        if (parsed && typeof parsed.id === 'string' && ID.test(parsed.id)) out.push(parsed);
      } catch {
        // skipped
      }
    }
    return out;
  }

  private async writeAtomic(name: string, text: string) {
    const temp = join(this.dir, `${name}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
    try {
      // Created exclusively (never through a link left under that name), and flushed before
      // the rename, so the new name never points at half-written data.
      const handle = await open(temp, 'wx', 0o600);
      try {
        await handle.writeFile(text, 'utf8');
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, join(this.dir, name));
    } catch (e) {
      await rm(temp, { force: true });
      throw e;
    }
  }
}

/** An entry keeps 1 MiB of body text, but a request's body may be large: more than this is not a history file. */
const MAX_STORED_BYTES = 64 * 1024 * 1024;
/** What readLock gives for something in the lock's place that no writer made. */
const NOT_A_LOCK = '\u0000not a lock';

/**
 * A file of the history folder, read by the confined reader: a regular file of that folder,
 * of a bounded size, never through a link (a committed `.lpreq/history/index.jsonl ->
 * /dev/zero` would be read without end). Undefined when it is not there; an Error that says
 * why it was not read.
 */
function readStored(path: string, limit: number): string | undefined | Error {
  const read = readConfinedFile(path, dirname(path), limit);
  if (read.problem === undefined) return read.bytes.toString('utf8');
  if (read.code === 'ENOENT' || read.code === 'ENOTDIR') return undefined;
  return Object.assign(new Error(read.problem), { code: read.code ?? 'EINVAL' });
}

/** The content of a lock file, undefined when there is none, NOT_A_LOCK for anything else in its place. */
function readLock(path: string): string | undefined {
  const read = readStored(path, 4096);
  return read instanceof Error ? NOT_A_LOCK : read;
}

/** Whether a file system error means the file (or its folder) is not there. */
function isMissing(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** An error that names what of the history could not be read (node's does not always), with its code. */
function unreadable(path: string, e: unknown): Error {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  const error: NodeJS.ErrnoException = new Error(
    `could not read the history at ${path}: ${e instanceof Error ? e.message : String(e)}`,
    { cause: e },
  );
  if (code !== undefined) error.code = code;
  return error;
}

/** How long ago a file was last written, in milliseconds (Infinity when it is gone). */
async function ageOf(path: string): Promise<number> {
  try {
    return Date.now() - (await stat(path)).mtimeMs;
  } catch {
    return Infinity;
  }
}

/**
 * The content of the lock file at `path` when it is stale: its process no longer runs, or it
 * is older than any write takes. Undefined when it is held, or already gone.
 */
async function staleLock(path: string): Promise<string | undefined> {
  const content = readLock(path);
  if (content === undefined) return undefined;
  // A link, a pipe or a large file in its place was not made by a writer: it is removed as stale.
  if (content === NOT_A_LOCK) return content;
  let age: number;
  try {
    age = Date.now() - (await stat(path)).mtimeMs;
  } catch {
    return undefined;
  }
  if (age > LOCK_STALE_MS) return content;
  const pid = Number(content.split(' ')[0]);
  // Locks are linked into place written (withIndexLock): one without a process id was not made that way.
  if (!Number.isInteger(pid) || pid <= 0) return content;
  try {
    process.kill(pid, 0);
    return undefined;
  } catch (e) {
    // EPERM: the process exists and belongs to someone else.
    return (e as NodeJS.ErrnoException).code === 'ESRCH' ? content : undefined;
  }
}
