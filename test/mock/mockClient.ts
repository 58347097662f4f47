/** A small HTTP client for the mock tests: one call, the status, headers and parsed body. */
import { startMock, type MockOptions, type RunningMock } from '../../server/src/mock/index';

export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

export interface CallOptions {
  form?: Record<string, string | string[]> | [string, string][];
  json?: unknown;
  body?: string;
  contentType?: string;
  headers?: Record<string, string>;
  /** `null` sends no Authorization header. */
  token?: string | null;
}

export type Call = (method: string, path: string, options?: CallOptions) => Promise<Answer>;

export function client(mock: RunningMock): Call {
  return async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    const token = options.token === undefined ? mock.token : options.token;
    if (token !== null) headers.Authorization = `Bearer ${token}`;
    let body: string | undefined = options.body;
    if (options.form) {
      const pairs = Array.isArray(options.form)
        ? options.form
        : Object.entries(options.form).flatMap(([k, v]) =>
            Array.isArray(v) ? v.map((x): [string, string] => [k, x]) : [[k, v] as [string, string]],
          );
      body = new URLSearchParams(pairs).toString();
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
    } else if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['Content-Type'] = 'application/json';
    }
    if (options.contentType) headers['Content-Type'] = options.contentType;
    const response = await fetch(path.startsWith('http') ? path : `${mock.url}${path}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON: keep the text.
    }
    return { status: response.status, headers: response.headers, body: parsed };
  };
}

/** Starts a mock on a free loopback port, runs `fn`, and always stops it. */
export async function withMock(
  fn: (call: Call, mock: RunningMock) => Promise<void>,
  options: MockOptions = {},
): Promise<void> {
  const mock = await startMock({ port: 0, ...options });
  try {
    await fn(client(mock), mock);
  } finally {
    await mock.close();
  }
}

/** The `errors` of an error body, for assertions. */
export function errorsOf(answer: Answer): { message: string; code?: string; parameter?: string }[] {
  const body = answer.body as { errors?: { message: string; code?: string; parameter?: string }[] } | undefined;
  return body?.errors ?? [];
}

/** The `rel` URLs of a Link header. */
export function links(answer: Answer): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (answer.headers.get('link') ?? '').split(',')) {
    const m = /<([^>]+)>;\s*rel="([^"]+)"/.exec(part.trim());
    if (m) out[m[2]] = m[1];
  }
  return out;
}
