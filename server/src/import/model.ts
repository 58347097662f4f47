/**
 * What every reader of an outside format gives: the requests as they were sent or written,
 * before anything of lpreq's format is decided. The readers (curl.ts, har.ts, postman.ts,
 * httpFile.ts) only read; what is dropped, renamed and written is decided once, in
 * convert.ts.
 */

export type ImportFormat = 'curl' | 'har' | 'postman' | 'http';

export const IMPORT_FORMATS: readonly ImportFormat[] = ['curl', 'har', 'postman', 'http'];

/** A request body as the source had it. Names and values of a form are decoded. */
export type SourceBody =
  | { kind: 'form'; params: [string, string][] }
  | { kind: 'json'; text: string }
  | { kind: 'multipart'; parts: MultipartPart[] }
  | { kind: 'text'; text: string; contentType?: string }
  /** A body read from a file when sent (`curl -d @file`, `.http`'s `< ./file`). */
  | { kind: 'file'; path: string; processVariables: boolean };

export interface MultipartPart {
  name: string;
  /** A text field's value. */
  value?: string;
  /** A file field's path or file name. */
  file?: string;
}

export interface SourceRequest {
  method: string;
  /** The URL as the source has it: absolute, or starting with a `{{variable}}` (Postman, `.http`). */
  url: string;
  headers: [string, string][];
  body?: SourceBody;
  /** A title of the source's own (a Postman item's name, a `.http` file's `###` title). */
  title?: string;
  /** `# @name` of a `.http` file. */
  name?: string;
  /** The folder (Postman) or page (HAR) the request belongs to. */
  group?: string;
  /** Other metadata lines of a `.http` file that lpreq reads (`@no-redirect`, `@timeout`...): [key, value]. */
  metadata?: [string, string][];
  /** Assertion lines of a `.http` file (httpYac's `??`), as written. */
  assertions?: string[];
  /** Lines kept as comments above the request (a recorded response). */
  comments?: string[];
  /** What the reader had to leave out of this request, in words (never a value). */
  notes?: string[];
}

export interface SourceCollection {
  format: ImportFormat;
  requests: SourceRequest[];
  /** File variables (`@name = value` of a `.http` file), in order. */
  variables: [string, string][];
  /** Environment entries: environment name (`$shared` for all) to variables. */
  environments: Record<string, Record<string, string>>;
  /** What the reader noticed about the whole source, in words (never a value). */
  notes: string[];
}

/** The reader could not read the source at all: the message says why, for the user. */
export class ImportError extends Error {}
