/**
 * A body as the response view's page gets it: UTF-8 bytes (a string would be escaped as JSON
 * on its way), deflated when it is large and the page can inflate it: 20 MB of JSON is about
 * 1.3 MB so, and its way to the page (in code-server a web socket) is the longest part of its
 * first screen. Deflated off the event loop, in one chunk: small chunks would each wait for a
 * turn of the extension host's event loop.
 */
import { deflateRaw } from 'node:zlib';

/** Bodies of this size and more go to the page deflated. */
export const DEFLATE_FROM_BYTES = 1024 * 1024;
const DEFLATE_CHUNK_BYTES = 8 * 1024 * 1024;

export function bodyBytes(
  text: string,
  pageInflates: boolean,
): Promise<{ bytes: Uint8Array; encoding?: 'deflate-raw' }> {
  const raw = Buffer.from(text, 'utf8');
  const plain = { bytes: new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength) };
  if (!pageInflates || raw.byteLength < DEFLATE_FROM_BYTES) return Promise.resolve(plain);
  return new Promise((resolve) =>
    deflateRaw(raw, { level: 1, chunkSize: DEFLATE_CHUNK_BYTES }, (error, deflated) =>
      resolve(
        error
          ? plain
          : {
              bytes: new Uint8Array(deflated.buffer, deflated.byteOffset, deflated.byteLength),
              encoding: 'deflate-raw',
            },
      ),
    ),
  );
}
