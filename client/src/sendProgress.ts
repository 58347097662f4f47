/**
 * The sends in flight: each with its progress (a cancellable notification, or the status bar
 * when the response view has its own Cancel), the `lpreq.requestInFlight` context while any
 * runs, and Cancel (Ctrl+Alt+K) for all of them.
 */
import * as vscode from 'vscode';

export class SendProgress {
  private readonly inFlight = new Set<AbortController>();

  /**
   * Runs a send with its progress: in a cancellable notification, or, when the response view
   * in the editor says the request is in flight and has its own Cancel, in the status bar.
   * Ctrl+Alt+K cancels too. Sending a whole file keeps the notification (it counts the requests).
   */
  async run(
    title: string,
    task: (signal: AbortSignal, progress: vscode.Progress<{ message?: string }>) => Promise<void>,
    quiet: boolean,
  ): Promise<void> {
    const controller = new AbortController();
    this.inFlight.add(controller);
    await vscode.commands.executeCommand('setContext', 'lpreq.requestInFlight', true);
    try {
      await vscode.window.withProgress(
        {
          location: quiet ? vscode.ProgressLocation.Window : vscode.ProgressLocation.Notification,
          title: `lpreq: sending ${title}`,
          cancellable: !quiet,
        },
        async (progress, cancel) => {
          cancel.onCancellationRequested(() => controller.abort());
          await task(controller.signal, progress);
        },
      );
    } finally {
      this.inFlight.delete(controller);
      if (this.inFlight.size === 0) await vscode.commands.executeCommand('setContext', 'lpreq.requestInFlight', false);
    }
  }

  cancel(): void {
    for (const c of this.inFlight) c.abort();
  }
}
