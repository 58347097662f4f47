/**
 * Snapshots in a test run (docs/testing.md): a request marked `# @snapshot` (or every request,
 * with `lpreq test --snapshot`) has its response kept as `__snapshots__/<file>/<request>.json`
 * on the first run and compared with it on later ones, by the typed comparison
 * (snapshotCompare.ts). As Jest does: a missing snapshot is written, unless the run says it is
 * in CI (`--ci`: then it fails); `--update-snapshots` rewrites those that differ. No file
 * system here: the host gives each file's store (snapshotStore.ts), and everything written
 * passes the scrubber with the run's secrets first.
 */
import { type Catalog, type LineIndex, type LpreqDocument, parseSnapshotOptions, SNAPSHOT_KEY } from '../../core/index';
import type { SendResult } from '../send';
import { compareResponses, type ComparedResponse, type SnapshotDifference } from '../snapshotCompare';
import { comparedOf, parseSnapshot, requestLineOf, snapshotText } from '../snapshotFile';

/** How a run treats snapshots. */
export interface SnapshotMode {
  /** Every request of the run has a snapshot, as if marked `# @snapshot` (`lpreq test --snapshot`). */
  all?: boolean;
  /** Rewrite the snapshots a response differs from, and those that cannot be read (`--update-snapshots`). */
  update?: boolean;
  /** Write no snapshot: a missing one fails (`--ci`, as Jest's). */
  ci?: boolean;
}

/** Where one request file's snapshots are kept: given by the host, which does the I/O. */
export interface SnapshotFiles {
  /** The snapshot of `name` as reports show it (`requests/__snapshots__/modules.lpreq/createModule.json`). */
  display(name: string): string;
  /** Its text; `missing` when there is none; `problem` when it is there but cannot be read. */
  read(name: string): { text: string } | { missing: true } | { problem: string };
  /** Writes its text (a new file, or over the old one); `problem` when it could not. */
  write(name: string, text: string): { problem?: string };
}

export type SnapshotOutcome =
  /** The response is the snapshot's, by the typed comparison. */
  | 'matched'
  /** There was none: this response is now the snapshot. */
  | 'written'
  /** It differed (or could not be read), and `update` wrote this response over it. */
  | 'updated'
  /** It differs, or it is missing under `ci`, or it cannot be read or written. */
  | 'failed';

export interface SnapshotResult {
  /** The snapshot file, as reports show it. */
  file: string;
  /** 1-based line of the `# @snapshot` line, or of the request line when `--snapshot` asked for it. */
  line: number;
  outcome: SnapshotOutcome;
  /** What differs, in the order of the response; empty unless it failed on a difference. */
  differences: SnapshotDifference[];
  /** Differences beyond those listed. */
  more: number;
  /** A sentence for people: why it failed, or what was written. */
  message: string;
}

/** Whether a block has a snapshot in this run, and where it is asked for (offset of its `# @snapshot` line, or of the request line). */
function snapshotAsked(
  document: LpreqDocument,
  blockIndex: number,
  mode: SnapshotMode | undefined,
): { at: number; values: string[] } | undefined {
  const { start, block } = document.blocks[blockIndex];
  const lines = block.metadata.filter((m) => m.key.text === SNAPSHOT_KEY);
  if (lines.length > 0) return { at: start + lines[0].start, values: lines.map((m) => m.value.text) };
  if (mode?.all && block.request) return { at: start + block.request.start, values: [] };
  return undefined;
}

/** The response of a send as the comparison reads it, or why there is none to compare. */
function comparedResponse(result: SendResult): { response: ComparedResponse } | { problem: string } {
  const response = result.response;
  if (!response || response.status === null) return { problem: 'no response' };
  if (response.truncated)
    return { problem: `its body (${response.truncated.bytes} bytes) is larger than the limit lpreq reads` };
  if (response.bodyIncomplete) return { problem: 'its body did not arrive whole' };
  if (response.bodyKind === 'json') return { response: { status: response.status, body: response.body, json: true } };
  const text =
    response.bodyKind === 'binary' ? `(a binary body of ${response.bytes} bytes)` : (response.bodyText ?? '');
  return { response: { status: response.status, body: text, json: false } };
}

export interface SnapshotContext {
  catalog: Catalog;
  lines: LineIndex;
  /** The store of this file's snapshots; undefined when the file has none (standard input). */
  files: SnapshotFiles | undefined;
  /** The snapshot names of the file's requests (snapshotNames), by block index. */
  names: Map<number, string>;
  mode: SnapshotMode | undefined;
  /** The scrubber of the run's secrets: what is written passes it, and the comparison reads the response as it. */
  scrub: (text: string) => string;
  /** Whether the request passed otherwise: a snapshot is written (or updated) only of such a response. */
  writable: boolean;
}

/** The snapshot of one request that got a response: written, compared, or updated. Undefined when it has none. */
export function takeSnapshot(
  document: LpreqDocument,
  blockIndex: number,
  result: SendResult,
  context: SnapshotContext,
): SnapshotResult | undefined {
  const asked = snapshotAsked(document, blockIndex, context.mode);
  if (!asked) return undefined;
  const line = context.lines.at(asked.at).line;
  const name = context.names.get(blockIndex) ?? `line-${line}`;
  const files = context.files;
  const failed = (message: string, file = files?.display(name) ?? `${name}.json`): SnapshotResult => ({
    file,
    line,
    outcome: 'failed',
    differences: [],
    more: 0,
    message,
  });
  if (!files) return failed('no snapshot: a request read from standard input has no folder to keep one in');
  const file = files.display(name);
  const now = comparedResponse(result);
  if ('problem' in now) return failed(`no snapshot taken: ${now.problem}`, file);

  const returns = result.request?.returns ?? null;
  const write = (outcome: 'written' | 'updated', message: string): SnapshotResult => {
    if (!context.writable) return failed('no snapshot written: the request did not pass', file);
    const text = snapshotText({
      request: requestLineOf(document, blockIndex),
      resource: returns,
      status: now.response.status,
      body: now.response.body,
      json: now.response.json,
    });
    const written = files.write(name, context.scrub(text));
    if (written.problem !== undefined) return failed(`the snapshot could not be written: ${written.problem}`, file);
    return { file, line, outcome, differences: [], more: 0, message };
  };

  const mode = context.mode ?? {};
  const read = files.read(name);
  if ('missing' in read) {
    if (mode.ci)
      return failed(
        `no snapshot at ${file}, and --ci writes none: run lpreq test --update-snapshots where the API answers as it should, and commit the file`,
        file,
      );
    return write('written', `snapshot written: ${file}`);
  }
  const parsed = 'problem' in read ? read : parseSnapshot(read.text);
  if ('problem' in parsed) {
    if (mode.update) return write('updated', `snapshot written anew (the old one could not be read): ${file}`);
    return failed(`the snapshot ${file} cannot be read: ${parsed.problem} (--update-snapshots writes it anew)`, file);
  }

  const options = asked.values.map((v) => parseSnapshotOptions(v));
  const pick = (option: 'ignore' | 'exact') =>
    options.flatMap((o) => o.paths.filter((p) => p.option === option).map((p) => p.path.segments));
  const comparison = compareResponses(context.catalog, returns, comparedOf(parsed.record), now.response, {
    ignore: pick('ignore'),
    exact: pick('exact'),
    scrub: context.scrub,
  });
  const count = comparison.differences.length + comparison.more;
  if (count === 0 && !comparison.incomplete)
    return { file, line, outcome: 'matched', differences: [], more: 0, message: `matches ${file}` };
  if (mode.update) return write('updated', `snapshot updated: ${file} (${count} difference${count === 1 ? '' : 's'})`);
  return {
    file,
    line,
    outcome: 'failed',
    differences: comparison.differences,
    more: comparison.more,
    message: comparison.incomplete
      ? `the response is too large to compare with ${file} within the budget`
      : `the response differs from its snapshot ${file} in ${count} place${count === 1 ? '' : 's'}`,
  };
}
