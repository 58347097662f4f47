/**
 * The file upload workflow (document A, Files and folders; document B, Assignment submissions):
 * the first step (`POST /folders/:id/files`, `POST .../submissions/:user_id/files`) answers an
 * `upload_url` and `upload_params`; the last step is a multipart POST of those params and the
 * file to that address, without the bearer token, and answers "attachment data with the new
 * file id". The docs leave both steps' parameters and answers unshown; the mock follows the real
 * LMS (docs/mock.md, "Uploading a file"): the address is good for one upload, the params must
 * come back unchanged, the file is the last part, the answer is 201 with the File and a
 * Location header.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Catalog } from '../core';
import { HttpError, type MockContext } from './context';
import type { Materializer } from './materialize';
import { Params } from './params';
import { fileView, placeFile } from './resources/fileTree';
import type { MockState, PendingUpload, Row } from './state';
import { Viewer } from './visibility';

/** Where an upload address is: `/files_api/upload/<token>`. */
export const UPLOAD_PATH = '/files_api/upload/';
/** Parts of a multipart body, at most. */
const MAX_PARTS = 100;

/** The first step's parameters (the real LMS's: name, size, content_type, on_duplicate) as a pending upload. */
export function firstStep(ctx: MockContext, folderId: number, room?: number): PendingUpload {
  const name = ctx.params.get('name');
  const contentType = ctx.params.get('content_type');
  const onDuplicate = ctx.params.get('on_duplicate') ?? 'overwrite';
  if (onDuplicate !== 'overwrite' && onDuplicate !== 'rename')
    throw new HttpError(400, 'on_duplicate must be overwrite or rename', 'invalid-enum', 'on_duplicate');
  const size = ctx.params.get('size');
  if (size !== undefined && !/^\d+$/.test(size))
    throw new HttpError(400, 'size must be a number of bytes', 'invalid-type', 'size');
  if (size !== undefined && room !== undefined && Number(size) > room)
    throw new HttpError(400, `file size exceeds quota (${room} bytes left)`, 'over-quota', 'size');
  const params: Record<string, string> = {};
  if (name !== undefined) params.filename = name;
  if (contentType !== undefined) params.content_type = contentType;
  return { folderId, userId: ctx.callerId, name, contentType, onDuplicate, params, room };
}

/** One part of a multipart/form-data body. */
interface Part {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer;
}

/** The parts of a multipart/form-data body, or why it is not one. */
function parseMultipart(contentType: string, body: Buffer): Part[] | string {
  const boundary = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (!/^multipart\/form-data\b/i.test(contentType.trim()) || !boundary)
    return 'the upload is a multipart/form-data POST (with a boundary)';
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const parts: Part[] = [];
  let at = body.indexOf(delimiter);
  if (at === -1) return 'the body has no part';
  for (;;) {
    at += delimiter.length;
    if (body.subarray(at, at + 2).toString() === '--') return parts;
    if (body.subarray(at, at + 2).toString() !== '\r\n') return 'a part delimiter is not followed by a line end';
    const headEnd = body.indexOf('\r\n\r\n', at + 2);
    if (headEnd === -1) return 'a part has no end of its headers';
    const next = body.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), headEnd + 4);
    if (next === -1) return 'the body ends inside a part (no closing delimiter)';
    const head = body.subarray(at + 2, headEnd).toString('utf8');
    const disposition = /^content-disposition:\s*form-data(.*)$/im.exec(head);
    if (!disposition) return 'a part has no Content-Disposition: form-data header';
    const name = /;\s*name="([^"]*)"/i.exec(disposition[1])?.[1];
    if (name === undefined) return 'a part has no name';
    const filename = /;\s*filename="([^"]*)"/i.exec(disposition[1])?.[1];
    const type = /^content-type:\s*(.+?)\s*$/im.exec(head)?.[1];
    parts.push({ name, filename, contentType: type, data: body.subarray(headEnd + 4, next) });
    if (parts.length > MAX_PARTS) return `the body has more than ${MAX_PARTS} parts`;
    at = next + 2;
  }
}

/** The first step's answer: the one-time address and the params its last step sends back. */
export function offerUpload(ctx: MockContext, upload: PendingUpload): Row {
  const token = ctx.state.uploads.offer(upload);
  return { upload_url: `${ctx.baseUrl}${UPLOAD_PATH}${token}`, upload_params: upload.params, file_param: 'file' };
}

/** What the last step needs of the mock. */
export interface LastStep {
  state: MockState;
  catalog: Catalog;
  materializer: Materializer;
  baseUrl: string;
  headers: IncomingHttpHeaders;
}

export interface UploadReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  error?: { message: string; code: string; parameter?: string };
}

const refuse = (status: number, message: string, code: string, headers?: Record<string, string>): UploadReply => ({
  status,
  error: { message, code },
  headers,
});

/** The last step: the multipart POST to an upload address. */
export function lastStep(step: LastStep, method: string, path: string, body: Buffer | undefined): UploadReply {
  const token = path.slice(UPLOAD_PATH.length);
  const upload = /^[\w-]+$/.test(token) ? step.state.uploads.take(token) : undefined;
  if (!upload)
    return refuse(
      404,
      'no upload is waiting at this address: an upload address comes from the first step of an upload and takes one file',
      'not-found',
    );
  if (method !== 'POST')
    return refuse(405, 'an upload address takes a multipart POST', 'method-not-allowed', { Allow: 'POST' });
  const parts = parseMultipart(String(step.headers['content-type'] ?? ''), body ?? Buffer.alloc(0));
  if (typeof parts === 'string') return refuse(400, parts, 'invalid-upload');
  const file = parts[parts.length - 1];
  if (!file || file.name !== 'file' || file.filename === undefined)
    return refuse(400, 'the file is the last part, named file (with a filename)', 'invalid-upload');
  const sent = parts.slice(0, -1);
  const expected = Object.entries(upload.params);
  const unchanged =
    sent.length === expected.length &&
    sent.every((p) => p.filename === undefined && expected.some(([k, v]) => k === p.name && v === p.data.toString()));
  if (!unchanged)
    return refuse(
      400,
      'the upload_params of the first step are sent back unchanged, each once, before the file',
      'invalid-upload',
    );
  if (upload.room !== undefined && file.data.length > upload.room)
    return refuse(400, `file size exceeds quota (${upload.room} bytes left)`, 'over-quota');
  const folder = step.state.get('folders', upload.folderId);
  if (!folder) return refuse(404, `folder ${upload.folderId} no longer exists`, 'not-found');

  const endpoint = step.catalog.endpointById.get('files.show');
  if (!endpoint) throw new Error('the catalog has no files.show');
  const request = {
    state: step.state,
    catalog: step.catalog,
    endpoint,
    template: endpoint.paths[0].template,
    bindings: new Map<string, string>(),
    params: new Params([['on_duplicate', upload.onDuplicate]]),
    json: undefined,
    headers: step.headers,
    baseUrl: step.baseUrl,
    callerId: upload.userId,
  };
  const ctx: MockContext = { ...request, who: new Viewer(request) };
  const name = upload.name ?? file.filename;
  const now = step.state.now();
  let placed: string;
  try {
    placed = placeFile(ctx, upload.folderId, name);
  } catch (e) {
    if (e instanceof HttpError) return refuse(e.status, e.message, e.code ?? 'conflict');
    throw e;
  }
  const stored = step.state.insert('files', {
    folder_id: upload.folderId,
    display_name: placed,
    filename: name,
    uuid: randomUUID(),
    'content-type': upload.contentType ?? file.contentType ?? 'application/octet-stream',
    size: file.data.length,
    created_at: now,
    updated_at: now,
    modified_at: now,
    // A file just uploaded is neither hidden nor locked.
    hidden: false,
    locked: false,
    user_id: upload.userId,
  });
  step.state.uploads.done(token);
  return {
    status: 201,
    headers: { Location: `${step.baseUrl}/api/v1/files/${String(stored.id)}` },
    body: step.materializer.value('File', fileView(ctx, stored), ctx.who),
  };
}
