/** The reason phrase of an HTTP status (`404` → `Not Found`), for answers that came without one (HTTP/2, the history). */
import { STATUS_CODES } from 'node:http';

export function reasonPhrase(status: number | null): string {
  return status === null ? '' : (STATUS_CODES[status] ?? '');
}

/** `404 Not Found`; `599` alone when the status has no known reason. */
export function statusWithReason(status: number, given?: string): string {
  return `${status} ${given?.trim() || reasonPhrase(status)}`.trim();
}
