/**
 * Where a response is shown, by `lpreq.response.view`: in the editor area beside the request
 * (the webview of responsePanel.ts, the default), or in the side bar's tree (responseView.ts).
 * The side bar's tree is kept up to date in both cases (the Tree tab and the tests read it);
 * it is only brought forward when it is the chosen view.
 */
import type { RequestNames } from './model/responseViewModel';
import type { LpreqSettings } from './model/settings';
import type { ResponsePanels, RequestRef, ShownResponse } from './responsePanel';
import type { ResponseView } from './responseView';

/** The view of every response when one is reused for all. */
const SHARED_KEY = 'lpreq.response';

export class ResponsePresenter {
  constructor(
    private readonly sidebar: ResponseView,
    readonly panels: ResponsePanels,
    private readonly settings: () => LpreqSettings,
  ) {}

  private get inEditor(): boolean {
    return this.settings().responseView === 'editor';
  }

  /** The view a request's responses go to: its own (by file and name, title or request line), or the shared one. */
  key(ref: RequestRef | undefined, fallback = 'lpreq.history'): string {
    if (this.settings().responseReuse) return SHARED_KEY;
    if (!ref) return fallback;
    return `${ref.uri.toString()}#${ref.name ?? ref.title ?? `${ref.method} ${ref.target}`}`;
  }

  sending(key: string, what: { method: string; url: string; names?: RequestNames }, text: string): void {
    if (this.inEditor) this.panels.sending(key, what, text);
    else {
      this.sidebar.sending(text);
      void this.sidebar.reveal();
    }
  }

  /** The exchange `early` showed, now complete (typed, its assertions evaluated): updated in place. */
  update(early: ShownResponse, shown: ShownResponse): void {
    this.sidebar.show(shown.tree, !this.inEditor);
    if (this.inEditor) this.panels.update(early, shown);
  }

  /** Resolves once the response view of `key` has drawn its first screen (at most `timeoutMs`); at once for the side bar. */
  drawn(key: string, timeoutMs: number): Promise<void> {
    return this.inEditor ? this.panels.drawn(key, timeoutMs) : Promise.resolve();
  }

  show(shown: ShownResponse, revealSidebar = false): void {
    // The side bar's badge counts issues only where the side bar is the response view.
    this.sidebar.show(shown.tree, !this.inEditor);
    if (this.inEditor) this.panels.show(shown);
    else if (revealSidebar) void this.sidebar.reveal();
  }
}
