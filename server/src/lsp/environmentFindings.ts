/**
 * What a shared environment file must not hold, told on that file in the editor: an OAuth 2.0
 * client secret (`client-secret-in-shared-file`, as `lpreq check` reports it). The findings of
 * every shared file the server read are published on its URI, and published again (empty when
 * the secret is gone) each time the environments are read anew.
 */
import type { Connection, Diagnostic } from 'vscode-languageserver/node';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CODES, LineIndex } from '../core/index';
import { sharedClientSecrets } from '../node/index';
import { DiagnosticSeverity } from './protocol';

const CODE = 'client-secret-in-shared-file';

export class EnvironmentFindings {
  /** The shared files whose findings were published: each is published again, empty when they are gone. */
  private readonly published = new Set<string>();

  constructor(private readonly connection: Connection) {}

  /** Checks a shared environment file the server read, and publishes what it found there. */
  publish(file: string): void {
    const read = sharedClientSecrets(file, dirname(file));
    if (read.findings.length === 0 && !this.published.has(file)) return;
    const index = new LineIndex(read.text ?? '');
    const diagnostics: Diagnostic[] = read.findings.map((f) => {
      const s = index.at(f.start);
      const e = index.at(f.end);
      return {
        range: {
          start: { line: s.line - 1, character: s.column - 1 },
          end: { line: e.line - 1, character: e.column - 1 },
        },
        severity: CODES[CODE].severity === 'error' ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
        code: CODE,
        source: 'lpreq',
        message: `The Client Secret of Security.Auth.${f.id} of '${f.environment}' is in the shared file: lpreq never uses it. Move it to http-client.private.env.json under the same key.`,
      };
    });
    if (diagnostics.length > 0) this.published.add(file);
    else this.published.delete(file);
    void this.connection.sendDiagnostics({ uri: pathToFileURL(file).href, diagnostics });
  }
}
