/**
 * The core's answers as LSP types, in one place (rust-analyzer's `to_proto`): offsets become
 * ranges of the document they belong to, and the core's kinds the protocol's numbers.
 */
import {
  CompletionItemKind,
  DiagnosticSeverity,
  DiagnosticTag,
  DocumentHighlightKind,
  InsertTextFormat,
  SymbolKind,
} from './protocol';
import type {
  CodeAction as LspCodeAction,
  CompletionItem,
  Diagnostic as LspDiagnostic,
  DiagnosticRelatedInformation,
  DocumentHighlight,
  DocumentSymbol,
  FoldingRange,
  Hover,
  Location as LspLocation,
  Range,
  SelectionRange,
  TextEdit as LspTextEdit,
  WorkspaceEdit,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { pathToFileURL } from 'node:url';
import { CODES } from '../core/index';
import type { FileEdit } from '../node/index';
import type {
  CodeAction,
  CompletionEntry,
  Diagnostic,
  Highlight,
  HoverResult,
  Location,
  RequestSymbol,
  TextEdit,
} from '../core/index';

const CODE_DOCS = 'https://github.com/lpreq/lpreq/blob/main/docs/codes.md';

const KIND: Record<CompletionEntry['kind'], CompletionItemKind> = {
  method: CompletionItemKind.Keyword,
  path: CompletionItemKind.Module,
  segment: CompletionItemKind.Folder,
  parameter: CompletionItemKind.Property,
  value: CompletionItemKind.Value,
  variable: CompletionItemKind.Variable,
  header: CompletionItemKind.Field,
  reference: CompletionItemKind.Reference,
  metadata: CompletionItemKind.Keyword,
  operator: CompletionItemKind.Operator,
  template: CompletionItemKind.Snippet,
};

export function range(document: TextDocument, start: number, end: number): Range {
  return { start: document.positionAt(start), end: document.positionAt(end) };
}

export function textEdit(document: TextDocument, e: TextEdit): LspTextEdit {
  return { range: range(document, e.start, e.end), newText: e.newText };
}

export function location(document: TextDocument, l: Location): LspLocation {
  return { uri: document.uri, range: range(document, l.start, l.end) };
}

export function diagnostic(d: Diagnostic, at: Range): LspDiagnostic {
  const out: LspDiagnostic = {
    range: at,
    severity:
      d.severity === 'error'
        ? DiagnosticSeverity.Error
        : d.severity === 'warning'
          ? DiagnosticSeverity.Warning
          : DiagnosticSeverity.Information,
    code: d.code,
    codeDescription: { href: `${CODE_DOCS}#${d.code}` },
    source: 'lpreq',
    message: d.message,
  };
  const tags = CODES[d.code].tags;
  if (tags) out.tags = tags.map((tag) => (tag === 'deprecated' ? DiagnosticTag.Deprecated : DiagnosticTag.Unnecessary));
  if (d.data?.replacement !== undefined || d.data?.missing)
    out.data = { replacement: d.data.replacement, missing: d.data.missing };
  return out;
}

/**
 * The lines that stand behind a diagnostic's message (the endpoint, the documentation's words),
 * each at the diagnostic's own range: an editor lists them under the message.
 */
export function relatedInformation(uri: string, at: Range, related: readonly string[]): DiagnosticRelatedInformation[] {
  return related.map((message) => ({ location: { uri, range: at }, message }));
}

/** What the client said about completion, at initialize. */
export interface CompletionSupport {
  /** It takes snippets (most do); without them `$1` would be inserted as it is. */
  snippets: boolean;
  /** The command that opens completion again, when the client runs it itself. */
  triggerSuggest?: string;
}

export function completionItem(document: TextDocument, e: CompletionEntry, support: CompletionSupport): CompletionItem {
  const item: CompletionItem = {
    label: e.label,
    kind: KIND[e.kind],
    sortText: e.sortText,
    textEdit: {
      range: range(document, e.start, e.end),
      newText: e.snippet && !support.snippets ? (e.plain ?? snippetToPlain(e.insertText)) : e.insertText,
    },
    insertTextFormat: e.snippet && support.snippets ? InsertTextFormat.Snippet : InsertTextFormat.PlainText,
  };
  if (e.detail) item.detail = e.detail;
  if (e.documentation) item.documentation = { kind: 'markdown', value: e.documentation };
  if (e.filterText) item.filterText = e.filterText;
  if (e.deprecated) item.tags = [1];
  if (e.retrigger && support.triggerSuggest !== undefined)
    item.command = { title: 'Suggest', command: support.triggerSuggest };
  return item;
}

/** A snippet as plain text: placeholders give their default or first choice, tab stops nothing, escapes their character. */
export function snippetToPlain(snippet: string): string {
  return snippet
    .replace(/\$\{\d+\|([^,|}]*)[^}]*\|\}/g, '$1')
    .replace(/\$\{\d+:([^}]*)\}/g, '$1')
    .replace(/\$\{\d+\}|\$\d+/g, '')
    .replace(/\\([\\$}])/g, '$1');
}

export function hover(document: TextDocument, h: HoverResult): Hover {
  return { contents: { kind: 'markdown', value: h.contents }, range: range(document, h.start, h.end) };
}

/**
 * A code action. `outside` is the edit of another file an action stands for (`grant`: a scope
 * added to an environment file), made by the server from that file's text.
 */
export function codeAction(
  document: TextDocument,
  a: CodeAction,
  snippetEdits = false,
  outside?: FileEdit,
): LspCodeAction {
  const other = outside && TextDocument.create(pathToFileURL(outside.file).href, 'json', 0, outside.text);
  const edit: WorkspaceEdit = other
    ? { changes: { [other.uri]: outside.edits.map((e) => textEdit(other, e)) } }
    : snippetEdits && a.edits.some((e) => e.snippet !== undefined)
      ? {
          documentChanges: [
            {
              textDocument: { uri: document.uri, version: document.version },
              edits: a.edits.map((e) =>
                e.snippet !== undefined
                  ? { range: range(document, e.start, e.end), snippet: { kind: 'snippet', value: e.snippet } }
                  : textEdit(document, e),
              ),
            },
          ],
        }
      : { changes: { [document.uri]: a.edits.map((e) => textEdit(document, e)) } };
  return {
    title: a.title,
    kind: a.kind,
    isPreferred: a.isPreferred,
    diagnostics: a.diagnostics.map((d) => diagnostic(d, range(document, d.start, d.end))),
    edit,
  };
}

export function documentSymbol(document: TextDocument, s: RequestSymbol): DocumentSymbol {
  return {
    name: s.name,
    detail: s.detail,
    kind: s.kind === 'request' ? SymbolKind.Function : SymbolKind.Variable,
    range: range(document, s.start, s.end),
    selectionRange: range(document, s.selectionStart, s.selectionEnd),
  };
}

export function foldingRange(document: TextDocument, f: Location): FoldingRange {
  return { startLine: document.positionAt(f.start).line, endLine: document.positionAt(f.end).line };
}

export function highlight(document: TextDocument, h: Highlight): DocumentHighlight {
  return {
    range: range(document, h.start, h.end),
    kind: h.kind === 'write' ? DocumentHighlightKind.Write : DocumentHighlightKind.Read,
  };
}

/** Selection ranges, innermost first, as the protocol's chain of parents. */
export function selectionRange(document: TextDocument, ranges: readonly Location[]): SelectionRange {
  let out: SelectionRange | undefined;
  for (let i = ranges.length - 1; i >= 0; i--)
    out = { range: range(document, ranges[i].start, ranges[i].end), parent: out };
  return out ?? { range: range(document, 0, 0) };
}
