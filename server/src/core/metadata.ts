/**
 * Request metadata (`# @key value` above the request line) that lpreq acts on, as REST
 * Client and JetBrains' client write it: what completion offers after `# @` and hover
 * says on a key. Other keys are left alone, as other clients' settings.
 */
export interface MetadataKey {
  key: string;
  /** The snippet completion inserts after `@`. */
  insert: string;
  /** Markdown. */
  doc: string;
}

export const METADATA: MetadataKey[] = [
  {
    key: 'name',
    insert: 'name ${1:request}',
    doc: 'Names the request: later requests use its response (`{{request.response.body.$.id}}`), and `lpreq send --name request` sends it.',
  },
  {
    key: 'prompt',
    insert: 'prompt ${1:variable} ${2:What to ask}',
    doc: 'A variable asked for when the request is sent (an input box in the editor, the terminal or `--prompt variable=value` on the command line). In this request it wins over a file or environment variable of the same name.',
  },
  {
    key: 'note',
    insert: 'note ${1:why to think twice}',
    doc: 'Asks before the request is sent, showing the note: for requests that change or delete data. Asked too when another request refers to this one.',
  },
  {
    key: 'no-redirect',
    insert: 'no-redirect',
    doc: 'A 3xx answer is the response, shown as it is: its `Location` is not followed.',
  },
  {
    key: 'allow-invalid',
    insert: 'allow-invalid',
    doc: '`lpreq test` sends this request although the checker reports errors in it: for requests meant to be refused by the API (assert the refusal, such as `?? status == 400`). Without it such a request is not sent and fails.',
  },
  {
    key: 'all-pages',
    insert: 'all-pages',
    doc: 'Every page of a paginated list is fetched and merged into one list, as `lpreq send --all-pages` does: assertions (`?? body $[30].id exists`) then see the whole list.',
  },
  {
    key: 'snapshot',
    insert: 'snapshot',
    doc: "`lpreq test` keeps this request's response as `__snapshots__/<file>/<request>.json` beside the file on the first run (and with `--update-snapshots`), and compares later responses with it, typed by the docs: timestamps, ids and URLs by type and presence, lists of resources by id. Options: `ignore=$.path` leaves places out, `exact=$.path` compares them by value (several paths separated by commas).",
  },
  {
    key: 'timeout',
    insert: 'timeout ${1:120}',
    doc: "How long to wait for this request's response (JetBrains' client): seconds, or with a unit (`500 ms`, `90 s`, `5 m`). It replaces the timeout setting (`lpreq.timeout`, `lpreq send --timeout`) for this request.",
  },
  {
    key: 'connection-timeout',
    insert: 'connection-timeout ${1:10}',
    doc: "How long to wait for the connection to the server (JetBrains' client): seconds, or with a unit (`500 ms`, `10 s`, `1 m`). The response then has the rest of the request's timeout.",
  },
];

/** The metadata keys whose value is a duration. */
export const DURATION_KEYS = ['timeout', 'connection-timeout'] as const;

/** The most a duration may be: a day, in milliseconds (setTimeout's own limit is about 24.8 days). */
const MAX_DURATION_MS = 24 * 60 * 60 * 1000;

/**
 * A duration as JetBrains' client writes it (`# @timeout 600`, `# @connection-timeout 2 m`):
 * a positive number of seconds, or with a unit `ms`, `s` or `m`. Milliseconds, or undefined
 * for anything else (no number, zero, another unit, more than a day).
 */
export function parseDuration(value: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s|m)?$/i.exec(value.trim());
  if (!m) return undefined;
  const unit = (m[2] ?? 's').toLowerCase();
  const ms = Math.round(Number(m[1]) * (unit === 'ms' ? 1 : unit === 's' ? 1000 : 60_000));
  return ms > 0 && ms <= MAX_DURATION_MS ? ms : undefined;
}
