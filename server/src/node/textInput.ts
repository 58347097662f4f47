/**
 * The one decoder of text files: those the command line is given (request files of `lpreq
 * check` and `lpreq send`, standard input, the mock's JSON files) and those a repository
 * makes lpreq read (environment files, `.env`, `.lpreqtestignore`, request files the editor
 * finds), the latter through the confined reader (confinedFile.ts). Every one gets the same
 * size limit, the same decoding (UTF-8, a byte order mark skipped; UTF-16 with a byte order
 * mark decoded) and the same words for what cannot be read. Body files are not text and are
 * read by bodyFile.ts.
 */
import { createReadStream, statSync } from 'node:fs';
import { readConfinedFile, readRegularFile, type FileRead } from './confinedFile';

/** More than this is not read (a request file is a few kilobytes; 64 MB is a generated file gone wrong). */
const MAX_TEXT_BYTES = 64 * 1024 * 1024;
/** How far into a file a NUL byte makes it binary (as git and grep decide). */
const BINARY_SNIFF = 8192;

/** The text of an input, or why it cannot be read: a short phrase to follow the input's name. */
export type TextRead = { text: string; problem?: undefined } | { text?: undefined; problem: string };

function megabytes(bytes: number): string {
  return `${Math.round(bytes / 1048576)} MB`;
}

const TOO_LARGE = `too large for a request file (limit ${megabytes(MAX_TEXT_BYTES)})`;

/** NUL bytes only at odd (little-endian) or only at even (big-endian) offsets: UTF-16 text that lacks its mark. */
function looksLikeUtf16(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 1024) & ~1;
  let odd = 0;
  let even = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) even++;
    if (bytes[i + 1] === 0) odd++;
  }
  // Enough text to tell (a few bytes of a binary file prove nothing), with a NUL in most pairs as in ASCII-heavy text.
  return n >= 16 && (odd === 0) !== (even === 0) && Math.max(odd, even) >= n / 4;
}

type Encoding = 'utf-8' | 'utf-16le' | 'utf-16be';

function encodingOf(bytes: Uint8Array): Encoding {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return 'utf-8';
}

/** Why the first bytes of an input say it is not text, or undefined. */
function binaryProblem(head: Uint8Array, encoding: Encoding): string | undefined {
  if (encoding !== 'utf-8') return undefined;
  const sniff = head.subarray(0, BINARY_SNIFF);
  if (!sniff.includes(0)) return undefined;
  return looksLikeUtf16(sniff)
    ? 'UTF-16 without a byte order mark, which is not guessed at: save it as UTF-8 (or UTF-16 with a byte order mark)'
    : 'a binary file, not a request file';
}

/**
 * Bytes to text: a UTF-8 byte order mark is skipped, UTF-16 with a byte order mark (either
 * order) is decoded, and a NUL in the first 8 KB makes the input binary. Invalid sequences
 * become U+FFFD, as an editor shows them.
 */
function decodeText(bytes: Uint8Array): TextRead {
  const encoding = encodingOf(bytes);
  const binary = binaryProblem(bytes, encoding);
  if (binary) return { problem: binary };
  // TextDecoder drops the byte order mark of its own encoding.
  const text = new TextDecoder(encoding).decode(bytes);
  if (encoding !== 'utf-8' && text.slice(0, BINARY_SNIFF).includes('\0'))
    return { problem: 'a binary file, not a request file' };
  return { text };
}

function readError(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'a folder, not a file';
  if (code === 'EACCES' || code === 'EPERM') return 'cannot be read (permission denied)';
  if (code === 'ELOOP') return 'a symbolic link that leads back to itself';
  return `cannot be read (${code ?? (e as Error).message})`;
}

/**
 * Reads a stream of chunks (standard input, a pipe) up to the limit. Past it, or once the
 * first 8 KB show a binary input, reading stops: the stream is destroyed, so a writer that
 * never ends (`yes |`, `< /dev/zero`) gets SIGPIPE instead of filling the memory.
 */
export async function readTextStream(
  chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
): Promise<TextRead> {
  const parts: Buffer[] = [];
  let size = 0;
  let sniffed = false;
  try {
    // Leaving a for-await early calls the iterator's return(), which destroys a Node stream.
    for await (const chunk of chunks) {
      const bytes =
        typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
      size += bytes.length;
      if (size > MAX_TEXT_BYTES)
        return { problem: `more than ${megabytes(MAX_TEXT_BYTES)}, ${TOO_LARGE}; reading stopped there` };
      parts.push(bytes);
      if (!sniffed && size >= BINARY_SNIFF) {
        sniffed = true;
        const head = Buffer.concat(parts);
        const binary = binaryProblem(head, encodingOf(head));
        if (binary) return { problem: binary };
      }
    }
  } catch (e) {
    return { problem: readError(e) };
  }
  return decodeText(Buffer.concat(parts, size));
}

function textOf(read: FileRead): TextRead {
  return read.problem !== undefined ? { problem: read.problem } : decodeText(read.bytes);
}

/**
 * Reads a text file, synchronously: only a regular file, with a bounded read (a FIFO or a
 * device could block the caller for ever; `readTextInput` reads those as streams).
 */
export function readTextFileSync(path: string): TextRead {
  return textOf(readRegularFile(path, MAX_TEXT_BYTES));
}

/**
 * Reads a text file a repository makes lpreq read (`.env`, an environment file, an ignore
 * file, a request file found by walking a folder): a regular file inside `workspace`, links
 * resolved and confined (confinedFile.ts), as `readTextFileSync` decodes it.
 */
export function readConfinedText(path: string, workspace: string, limit = MAX_TEXT_BYTES): TextRead {
  return textOf(readConfinedFile(path, workspace, Math.min(limit, MAX_TEXT_BYTES)));
}

/**
 * Reads a path the user named: a regular file as `readTextFileSync`, and a pipe or a
 * character device (`<(command)`, `/dev/stdin`) as a stream, under the same limit.
 */
export async function readTextInput(path: string): Promise<TextRead> {
  let stat;
  try {
    stat = statSync(path);
  } catch (e) {
    return { problem: readError(e) };
  }
  if (!stat.isFIFO() && !stat.isCharacterDevice()) return readTextFileSync(path);
  try {
    return await readTextStream(createReadStream(path));
  } catch (e) {
    return { problem: readError(e) };
  }
}
