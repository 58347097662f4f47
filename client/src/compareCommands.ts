/**
 * Compare with Previous Response, Compare with Snapshot and Update Snapshot, on a response
 * the response view shows: the typed comparison of the sender (the one `lpreq test` uses for
 * snapshots), shown as the view's Compare tab, not a text diff. The previous response is the
 * newest earlier one of the same request in the same environment, from the history; the
 * snapshot is the request's `__snapshots__/<file>/<request>.json`, read through the confined
 * reader and written through the confined writer, as `lpreq test` reads and writes it.
 * What is compared is the view's summary, scrubbed already; a snapshot written passes the
 * scrubber again with every secret the view knows.
 */
import * as vscode from 'vscode';
import { parseDocument, parseSnapshotOptions, SNAPSHOT_KEY, LineIndex } from '../../server/src/core/index';
import type { CompareOptions, HistoryStore, SnapshotFiles } from '../../server/src/sender/index';
import type { CompareView } from '../webview/model/protocol';
import type { ShownResponse } from './responsePanel';
import { load } from './sendSupport';

type CompareModule = typeof import('./model/compareView');

/** The request of a shown response in its file: its block, its snapshot's name and options. */
interface SnapshotPlace {
  store: SnapshotFiles;
  /** The snapshot's file as messages name it. */
  shown: string;
  name: string;
  requestLine: string;
  /** The options as written, and as the comparison takes them. */
  options: string[];
  compare: CompareOptions;
}

export class Comparisons {
  constructor(private readonly history: () => HistoryStore | undefined) {}

  private async model(): Promise<CompareModule> {
    return await import('./model/compareView');
  }

  /** What the response view asks for: the comparison with the previous response or the snapshot, or the snapshot written anew. */
  compare(shown: ShownResponse, what: 'previous' | 'snapshot' | 'update'): Promise<CompareView> {
    if (what === 'previous') return this.withPrevious(shown);
    return what === 'snapshot' ? this.withSnapshot(shown) : this.updateSnapshot(shown);
  }

  /** The shown response against the newest earlier response of the same request in the same environment. */
  async withPrevious(shown: ShownResponse): Promise<CompareView> {
    const { sender, checker } = await load();
    const m = await this.model();
    const store = this.history();
    const what = `the previous response${shown.environment ? ` in ${shown.environment}` : ''}`;
    if (!store)
      return m.compareProblem(
        'previous',
        what,
        'The history is off (lpreq.historySize is 0): there is no earlier response to compare with.',
      );
    const identity = shown.identity;
    if (!identity)
      return m.compareProblem('previous', what, 'This response names no request to look for in the history.');
    const found = m.previousEntry(await store.list(), {
      ...identity,
      method: shown.summary.method,
      url: shown.summary.url,
      environment: shown.environment,
    });
    const entry = found ? await store.get(found.id) : undefined;
    if (!found || !entry)
      return m.compareProblem(
        'previous',
        what,
        `No earlier response of this request${shown.environment ? ` in ${shown.environment}` : ''} is in the history.`,
      );
    const title = `the previous response${shown.environment ? ` in ${shown.environment}` : ''} (${localTime(entry.time)}, ${entry.status ?? 'no status'})`;
    const before = m.comparedOfEntry(entry);
    if ('problem' in before) return m.compareProblem('previous', title, `It cannot be compared: ${before.problem}.`);
    // The request's `# @snapshot` options apply to this comparison too, when it still stands in its file.
    const place = await this.place(shown).catch(() => undefined);
    const comparison = sender.compareResponses(
      checker.catalog,
      shown.summary.resource,
      before.response,
      m.comparedOfSummary(shown.summary),
      place && !('problem' in place) ? place.compare : undefined,
    );
    const options = place && !('problem' in place) ? place.options : [];
    return m.compareView(comparison, { against: 'previous', title, options, canUpdate: false });
  }

  /** The shown response against its request's snapshot. */
  async withSnapshot(shown: ShownResponse): Promise<CompareView> {
    const { sender, checker } = await load();
    const m = await this.model();
    const place = await this.place(shown);
    if ('problem' in place) return m.compareProblem('snapshot', 'the snapshot', place.problem);
    const title = `the snapshot ${place.shown}`;
    const read = place.store.read(place.name);
    if ('missing' in read)
      return m.compareProblem(
        'snapshot',
        title,
        'No snapshot yet: lpreq test writes one on its first run (with # @snapshot above the request, or --snapshot), and Update Snapshot writes this response.',
        true,
      );
    const parsed = 'problem' in read ? read : sender.parseSnapshot(read.text);
    if ('problem' in parsed) return m.compareProblem('snapshot', title, `It cannot be read: ${parsed.problem}.`, true);
    const comparison = sender.compareResponses(
      checker.catalog,
      shown.summary.resource,
      sender.comparedOf(parsed.record),
      m.comparedOfSummary(shown.summary),
      place.compare,
    );
    return m.compareView(comparison, { against: 'snapshot', title, options: place.options, canUpdate: true });
  }

  /** Writes the shown response as its request's snapshot; what the Compare tab then shows. */
  async updateSnapshot(shown: ShownResponse): Promise<CompareView> {
    const { sender } = await load();
    const m = await this.model();
    const place = await this.place(shown);
    if ('problem' in place) return m.compareProblem('snapshot', 'the snapshot', place.problem);
    const s = shown.summary;
    if (s.status === null || s.truncated || s.incomplete)
      return m.compareProblem(
        'snapshot',
        `the snapshot ${place.shown}`,
        'This response did not arrive whole: it is not written as a snapshot.',
        true,
      );
    const text = sender.snapshotText({
      request: place.requestLine,
      resource: s.resource,
      ...m.comparedOfSummary(s),
    });
    const secrets = [...(shown.curlSecrets ?? []), ...(shown.curlForeignSecrets ?? [])];
    const written = place.store.write(place.name, sender.scrubSecrets(text, secrets));
    if (written.problem !== undefined)
      return m.compareProblem(
        'snapshot',
        `the snapshot ${place.shown}`,
        `It could not be written: ${written.problem}.`,
        true,
      );
    void vscode.window.setStatusBarMessage(`lpreq: snapshot written: ${place.shown}`, 3000);
    return await this.withSnapshot(shown);
  }

  /** Where the snapshot of a shown response's request is, with the options of its `# @snapshot` lines. */
  private async place(shown: ShownResponse): Promise<SnapshotPlace | { problem: string }> {
    const ref = shown.ref;
    if (!ref)
      return { problem: 'This response was not sent from a request file (a history entry): it has no snapshot.' };
    if (ref.uri.scheme !== 'file') return { problem: 'An unsaved request file has no folder to keep snapshots in.' };
    const { sender } = await load();
    const doc = await vscode.workspace.openTextDocument(ref.uri);
    const text = doc.getText();
    const document = parseDocument(text);
    const lines = new LineIndex(text);
    const blockIndex = document.blocks.findIndex(
      ({ start, block }) => block.request !== undefined && lines.at(start + block.request.start).line - 1 === ref.line,
    );
    if (blockIndex === -1) return { problem: 'The request is no longer at its line in the file: send it again.' };
    const name = sender.snapshotNames(document, lines).get(blockIndex);
    if (name === undefined) return { problem: 'This request has no snapshot name.' };
    const store = sender.snapshotFiles(ref.uri.fsPath, vscode.workspace.asRelativePath(ref.uri));
    const block = document.blocks[blockIndex].block;
    const paths = block.metadata
      .filter((x) => x.key.text === SNAPSHOT_KEY)
      .flatMap((x) => parseSnapshotOptions(x.value.text).paths);
    return {
      store,
      shown: store.display(name),
      name,
      requestLine: sender.requestLineOf(document, blockIndex),
      options: paths.map((p) => `${p.option} ${p.path.text}`),
      compare: {
        ignore: paths.filter((p) => p.option === 'ignore').map((p) => p.path.segments),
        exact: paths.filter((p) => p.option === 'exact').map((p) => p.path.segments),
      },
    };
  }
}

function localTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}
