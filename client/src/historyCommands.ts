/**
 * The history of exchanges in the editor: the quick pick (Ctrl+Alt+H), an entry shown in the
 * response view, and an entry sent again to the URL it went to, in the environment it was sent
 * in (the send session's setup of its file: that environment's token, protection and `$tls`).
 * Entries are stored without the token or any secret; they are scrubbed again with the tokens
 * known now before they are shown.
 */
import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import { readBodyFile, workspaceFolder } from '../../server/src/node/index';
import { targetPath } from '../../server/src/core/index';
import type { FileSetup, HistoryStore, SendResult } from '../../server/src/sender/index';
import type { EnvironmentController } from './environmentController';
import type { HistoryView } from './historyView';
import { needsConfirmation } from './model/environments';
import { exchangeOptions, type LpreqSettings } from './model/settings';
import type { ResponsePresenter } from './responsePresenter';
import { confirmProtected, load, nextTreeIdPrefix, presentResult, sendSession } from './sendSupport';

/** Runs a send with its progress and Cancel (SendController.run). */
type RunWithProgress = (title: string, task: (signal: AbortSignal) => Promise<void>) => Promise<void>;

export class HistoryCommands {
  constructor(
    private readonly environments: EnvironmentController,
    private readonly presenter: ResponsePresenter,
    private readonly historyView: HistoryView,
    private readonly settings: () => LpreqSettings,
    private readonly history: () => HistoryStore | undefined,
    private readonly run: RunWithProgress,
  ) {}

  /** The newest exchange of the history sent again: Rerun Last Request after a restart. */
  async resendNewest(): Promise<void> {
    const [newest] = (await this.history()?.list(1)) ?? [];
    if (!newest) {
      void vscode.window.showInformationMessage(
        'lpreq: nothing was sent yet, so there is no last request to send again.',
      );
      return;
    }
    await this.resend(newest.id);
  }

  /**
   * The history as a quick pick (Ctrl+Alt+H): picking an entry shows its answer in the
   * response view; the entry's button, or Alt+Enter, sends it again.
   */
  async pickHistory(): Promise<void> {
    const store = this.history();
    if (!store) {
      void vscode.window.showInformationMessage('lpreq: the history is off (lpreq.historySize is 0).');
      return;
    }
    const { historyItems, matchesEveryWord } = await import('./model/history');
    const rerun: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('debug-rerun'), tooltip: 'Send Again' };
    const icons: Record<string, string> = {
      pass: 'pass',
      warning: 'warning',
      error: 'error',
      cancelled: 'circle-slash',
    };
    type Item = vscode.QuickPickItem & { id: string; searched: string };
    const items: Item[] = historyItems(await store.list()).map((h) => {
      const request = h.tooltip.split('\n').find((l) => /^[A-Z]+ \S+:\/\//.test(l));
      return {
        id: h.id,
        label: `$(${icons[h.icon] ?? 'circle-outline'}) ${h.label}`,
        description: h.description,
        detail: request,
        buttons: [rerun],
        // Found by every word typed, in any order ("dev 404"), in what the entry shows: the pick's own filter wants them in one piece.
        alwaysShow: true,
        searched: `${h.label}\n${h.description}\n${request ?? ''}`,
      };
    });
    if (items.length === 0) {
      void vscode.window.showInformationMessage('lpreq: the history is empty: send a request first.');
      return;
    }
    const pick = vscode.window.createQuickPick<Item>();
    pick.title = 'lpreq: History';
    pick.placeholder = 'Show an answer (Enter), or send the request again (the button at the right of an entry)';
    pick.matchOnDescription = true;
    pick.matchOnDetail = true;
    pick.items = items;
    pick.onDidChangeValue((query) => (pick.items = items.filter((i) => matchesEveryWord(i.searched, query))));
    const chosen = await new Promise<{ id: string; again: boolean } | undefined>((resolve) => {
      pick.onDidTriggerItemButton((e) => {
        resolve({ id: e.item.id, again: true });
        pick.hide();
      });
      pick.onDidAccept(() => {
        const item = pick.selectedItems[0] ?? pick.activeItems[0];
        resolve(item ? { id: item.id, again: false } : undefined);
        pick.hide();
      });
      pick.onDidHide(() => resolve(undefined));
      pick.show();
    });
    pick.dispose();
    if (!chosen) return;
    if (chosen.again) await this.resend(chosen.id);
    else await this.showHistoryEntry(chosen.id);
  }

  /**
   * Sends a stored exchange again, to the URL it went to, in the environment it was sent in:
   * that one's token goes with it (only to its base_url's origin), whatever is chosen now.
   */
  async resend(historyId: string): Promise<void> {
    const store = this.history();
    if (!store) return;
    const { sender, checker } = await load();
    const entry = await store.get(historyId);
    if (!entry) {
      void vscode.window.showWarningMessage('lpreq: that exchange is no longer in history.');
      return;
    }
    const { requestFromEntry } = await import('./model/history');
    const target = targetPath(entry.request.url, () => undefined);
    const match = target ? checker.matcher.match(target, entry.request.method) : undefined;
    const setup = await setupOf(entry, sender);
    if (setup === 'declined') return;
    const envs = setup?.environments;
    const tokenOrigin = setup ? sender.environmentOrigin(setup.environments) : undefined;
    const rebuilt = requestFromEntry(
      entry,
      {
        ...sender.endpointFacts(match?.kind === 'matched' ? match.endpoint : undefined, {
          url: entry.request.url,
          form: entry.request.contentType?.startsWith('application/x-www-form-urlencoded')
            ? entry.request.body
            : undefined,
        }),
        tokenOrigin,
      },
      (file) => {
        // The body file is read again under the rule it was first read by: from inside the workspace of its request file.
        if (entry.file === undefined)
          return { error: 'the request file it was sent from is not known, so its workspace is not either' };
        const read = readBodyFile(
          file,
          undefined,
          workspaceFolder(entry.file, this.environments.environmentFiles(vscode.Uri.file(entry.file))),
        );
        return 'error' in read ? read : { bytes: read.bytes ?? Buffer.from(read.text, 'utf8') };
      },
    );
    if ('error' in rebuilt) {
      void vscode.window.showErrorMessage(`lpreq: cannot send it again: ${rebuilt.error}`);
      return;
    }
    const prepared = rebuilt;
    if (needsConfirmation(prepared.method, setup?.protectedEnvironment === true)) {
      const env = setup?.selected ?? '';
      if (
        !(await confirmProtected(
          `'${env}' is a protected environment. Send ${prepared.method} ${prepared.url} to '${env}' again?`,
        ))
      )
        return;
    }
    const key = this.presenter.key(undefined);
    this.presenter.sending(key, prepared, `Sending ${prepared.method} ${prepared.url} again …`);
    await this.run(`${prepared.method} ${prepared.url}`, async (signal) => {
      const token = setup?.token;
      const foreignSecrets = [
        ...(setup?.foreignTokens ?? (await this.environments.otherTokens(undefined, undefined))),
        setup?.privateToken,
      ].filter((t): t is string => typeof t === 'string' && t !== token);
      // Its environment's `$tls`, as for any send.
      const tls = sender.environmentTls(envs);
      if ('error' in tls) {
        void vscode.window.showErrorMessage(`lpreq: not sent: ${tls.error}`);
        return;
      }
      const response = await sender.sendAllPages(prepared, {
        ...exchangeOptions(this.settings()),
        token,
        foreignSecrets,
        signal,
        maxPages: 1,
        tls: tls.tls,
      });
      const scrub = (text: string) => sender.scrubSecrets(text, [token, ...foreignSecrets]);
      const typed = response.ok
        ? sender.checkResponse(
            checker.catalog,
            prepared.returns,
            response.bodyKind === 'empty' ? null : response.body,
            scrub,
          )
        : { resource: null, issues: [] };
      const result: SendResult = {
        ok: response.ok,
        request: prepared,
        response,
        resource: typed.resource,
        issues: typed.issues,
        error: response.error,
        warnings: response.warnings,
        diagnostics: [],
        dependencies: [],
        secretValues: [],
      };
      const added = await store.add(
        sender.entryFromExchange(prepared, response, {
          file: entry.file,
          environment: setup?.selected,
          resource: typed.resource,
          issues: typed.issues,
          secrets: [token, ...foreignSecrets],
          resent: true,
        }),
      );
      // The new entry is what this view shows: its Send Again sends it.
      await presentResult(this.presenter, this.presenter.key(undefined), undefined, result, undefined, {
        secrets: [token, ...foreignSecrets],
        foreignSecrets,
        token,
        environment: setup?.selected,
        tls: sender.environmentOptions(envs)?.tls,
        historyId: added.id,
      });
      this.historyView.refresh();
    });
  }

  async showHistoryEntry(historyId: string): Promise<void> {
    const store = this.history();
    const entry = await store?.get(historyId);
    if (!entry) return;
    const { sender, results, trees, checker } = await load();
    // Stored without the token already; scrubbed again with the tokens known now.
    const secrets = [await this.environments.keptToken(), ...(await this.environments.otherTokens())];
    const summary = results.summaryFromHistory(entry, (text) => sender.scrubSecrets(text, secrets));
    const { localTime } = await import('./model/history');
    const ok = entry.status !== null && entry.status >= 200 && entry.status < 300;
    const describe = (p: string) => sender.describeAt(checker.catalog, ok ? (entry.resource ?? null) : null, p);
    this.presenter.show(
      {
        key: this.presenter.key(undefined),
        summary,
        tree: new trees.ResponseTree(summary, describe, nextTreeIdPrefix()),
        describe,
        environment: entry.environment,
        tokenSet: true,
        fromHistory: localTime(entry.time, Date.now()),
        names: { title: entry.title, name: entry.name },
        historyId: entry.id,
        identity: { file: entry.file, name: entry.name, title: entry.title, historyId: entry.id },
      },
      true,
    );
  }
}

/**
 * An entry's environment as the session sets it up for its file: none when its file or
 * environment is gone (it is sent again without a token), `declined` when the user declined
 * to send the token to a new origin (nothing is sent).
 */
async function setupOf(
  entry: { file?: string; environment?: string },
  sender: Awaited<ReturnType<typeof load>>['sender'],
): Promise<FileSetup | undefined | 'declined'> {
  if (entry.file === undefined || !existsSync(entry.file)) return undefined;
  try {
    return await (await sendSession()).setup(entry.file, { environment: entry.environment ?? null });
  } catch (e) {
    if (e instanceof sender.TokenDeclinedError) return 'declined';
    if (!(e instanceof sender.SetupError)) throw e;
    void vscode.window.showWarningMessage(
      `lpreq: sent again without an environment's token: ${e.message.replace(/^lpreq: /, '')}`,
    );
    return undefined;
  }
}
