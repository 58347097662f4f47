/**
 * A request taken elsewhere: Copy as cURL (from a code lens, the cursor or a response view)
 * and Generate Code. The request is prepared as the sender would send it, its prompts asked;
 * the token is never written into what is copied unless the user asks for it by name
 * (Copy as cURL with Token), and every other secret it carries is written `***`.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TlsSettings } from '../../server/src/node/index';
import { promptVariables, requestName } from '../../server/src/core/index';
import type { CodeLanguage, PreparedRequest, ResponseStore } from '../../server/src/sender/index';
import type { EnvironmentController } from './environmentController';
import type { LpreqSettings } from './model/settings';
import type { ShownResponse } from './responsePanel';
import { askPrompt, load, readBodyFileOf, requestAt, systemContext, type SenderModule } from './sendSupport';

export class CopyCommands {
  constructor(
    private readonly environments: EnvironmentController,
    private readonly settings: () => LpreqSettings,
    /** The responses of a document's named requests, for `{{name.response...}}`. */
    private readonly responses: (uri: vscode.Uri) => Promise<ResponseStore | undefined>,
  ) {}

  /**
   * The request at the code lens or cursor, prepared as it would be sent (its prompts asked),
   * with the token and every secret it may carry, for a copied command or generated code.
   */
  private async prepareForCopy(
    uri?: vscode.Uri,
    line?: number,
  ): Promise<
    | {
        prepared: PreparedRequest;
        token: string | undefined;
        secrets: string[];
        foreignSecrets: string[];
        sender: SenderModule;
        tls: TlsSettings | undefined;
        uri: vscode.Uri;
      }
    | undefined
  > {
    const t = await requestAt(this.environments, uri, line);
    if (!t) return undefined;
    const { sender, checker } = await load();
    const responses = await this.responses(t.doc.uri);
    const block = t.parsed.blocks[t.request.blockIndex].block;
    const prompts = new Map<string, string>();
    for (const p of promptVariables(block)) {
      const value = await askPrompt({
        name: p.name,
        description: p.description,
        request: requestName(block) ?? `${t.request.method} ${t.request.target}`,
        secret: sender.isSecretPrompt(p.name),
      });
      if (value === undefined) return undefined;
      prompts.set(p.name, value);
    }
    const environments = this.environments.environments(t.doc.uri);
    const prepared = sender.prepareRequest(checker, t.parsed, t.request.blockIndex, {
      environments,
      system: systemContext(t.doc, sender.parseDotenv),
      readFile: (file, encoding) => readBodyFileOf(this.environments, t.doc, file, encoding),
      reference: (ref) => sender.referenceValue(ref, responses?.get(ref.name)),
      prompts,
      defaultHeaders: this.settings().defaultHeaders,
    });
    if (!prepared.ok) {
      void vscode.window.showErrorMessage(`lpreq: ${prepared.error}`);
      return undefined;
    }
    // The token and every secret the request carries ({{token}}, {{$processEnv LPREQ_TOKEN}}, a
    // password prompt's answer, another environment's token) are known, so that the command
    // without the token holds none of them. The kept token, whatever origin it is bound to: a
    // copy never holds it, and reads $LPREQ_TOKEN where the sender would send a token.
    const token = await this.environments.keptToken(environments.selected);
    const foreignSecrets = [...prepared.foreignSecrets, ...(await this.environments.otherTokens(t.doc.uri))];
    return {
      prepared: prepared.request,
      token,
      secrets: prepared.secrets,
      foreignSecrets,
      sender,
      tls: sender.environmentOptions(environments)?.tls,
      uri: t.doc.uri,
    };
  }

  /**
   * "Generate Code": the request as a fetch (JavaScript) or Python requests program, which
   * reads the token from LPREQ_TOKEN when it runs; the token is never written into it.
   */
  async generateCode(
    uri?: vscode.Uri,
    line?: number,
    language?: unknown,
  ): Promise<{ name: string; text: string } | undefined> {
    let chosen: CodeLanguage | undefined = language === 'javascript' || language === 'python' ? language : undefined;
    if (!chosen) {
      const picked = await vscode.window.showQuickPick(
        [
          {
            label: 'JavaScript (fetch)',
            language: 'javascript' as const,
            description: 'Node 18 or later, or a browser',
          },
          { label: 'Python (requests)', language: 'python' as const, description: 'pip install requests' },
        ],
        {
          title: 'lpreq: Generate Code',
          placeHolder: 'The language of the program; it reads the token from LPREQ_TOKEN when it runs',
        },
      );
      chosen = picked?.language;
    }
    if (!chosen) return undefined;
    const copy = await this.prepareForCopy(uri, line);
    if (!copy) return undefined;
    // Refused, with the sender's reason, where the sender would send nothing.
    const text = refusedOr(copy.sender, () =>
      copy.sender.toCode(copy.prepared, chosen, {
        token: copy.token,
        secrets: copy.secrets,
        foreignSecrets: copy.foreignSecrets,
        tls: copy.tls,
      }),
    );
    if (text === undefined) return undefined;
    const what = (
      copy.prepared.title ??
      copy.prepared.name ??
      `${copy.prepared.method} ${path.posix.basename(new URL(copy.prepared.url).pathname)}`
    ).replace(/[\\/:*?"<>|\r\n]+/g, ' ');
    return { name: `${what.trim() || copy.prepared.method}.${chosen === 'javascript' ? 'mjs' : 'py'}`, text };
  }

  async copyAsCurl(uri?: vscode.Uri, line?: number, withToken = false): Promise<void> {
    const copy = await this.prepareForCopy(uri, line);
    if (!copy) return;
    const { prepared, secrets, foreignSecrets, sender, tls } = copy;
    let token = copy.token;
    if (withToken) {
      // A sign-in's token stays in lpreq: it is refreshed and replaced, and never written anywhere.
      if (sender.environmentAuthId(this.environments.environments(copy.uri)) !== undefined) {
        void vscode.window.showWarningMessage(
          'lpreq: the token of an OAuth 2.0 sign-in is never copied; "Copy as cURL" writes a command that reads it from $LPREQ_TOKEN.',
        );
        return;
      }
      // Written as it is only where it may go: bound to base_url's origin, or that origin confirmed now.
      const access = await this.environments.tokenForSend(copy.uri);
      if (!access) return;
      if (!access.token) {
        void vscode.window.showWarningMessage(
          'lpreq: no access token goes to this environment\'s base_url; run "lpreq: Set Access Token" first.',
        );
        return;
      }
      token = access.token;
    }
    const notes: string[] = [];
    const command = refusedOr(sender, () =>
      sender.toCurl(prepared, { includeToken: withToken, token, secrets, foreignSecrets, tls, notes }),
    );
    if (command === undefined) return;
    await vscode.env.clipboard.writeText(command);
    const left = notes.length > 0 ? ` As lpreq would: ${notes.join('; ')}.` : '';
    if (withToken) {
      void vscode.window.showWarningMessage(
        `lpreq: the curl command on the clipboard contains the access token (and any other secret the request carries). Do not paste it where others can read it.${left}`,
      );
      return;
    }
    void vscode.window.showInformationMessage(
      `lpreq: curl command copied. ${readsFrom(command)}${command.includes('***') ? '; the other secrets the request carries are written ***' : ''}.${left}`,
    );
  }

  /** "Copy as cURL" of a response view: the request as it was prepared, the token read from $LPREQ_TOKEN. */
  async copyCurlOf(shown: ShownResponse): Promise<void> {
    if (!shown.prepared) return;
    const prepared = shown.prepared;
    const { sender } = await load();
    const token = await this.environments.keptToken();
    const notes: string[] = [];
    const command = refusedOr(sender, () =>
      sender.toCurl(prepared, {
        token,
        secrets: shown.curlSecrets ?? [],
        foreignSecrets: shown.curlForeignSecrets ?? [],
        tls: shown.curlTls,
        notes,
      }),
    );
    if (command === undefined) return;
    await vscode.env.clipboard.writeText(command);
    void vscode.window.showInformationMessage(
      `lpreq: curl command copied. ${readsFrom(command)}.${notes.length > 0 ? ` As lpreq would: ${notes.join('; ')}.` : ''}`,
    );
  }
}

/** What a copied command reads from the environment when it runs: the token, the private file's default headers. */
function readsFrom(command: string): string {
  const headers = [...new Set([...command.matchAll(/\$(LPREQ_HEADER_[A-Z0-9_]+)/g)].map((m) => `$${m[1]}`))];
  const token = command.includes('$LPREQ_TOKEN')
    ? 'It reads the token from $LPREQ_TOKEN when it runs'
    : 'It sends no access token';
  return headers.length > 0 ? `${token}, and the private file's default headers from ${headers.join(', ')}` : token;
}

/** The copy `make` makes, or undefined when the sender would not send the request: then the reason is shown. */
function refusedOr(sender: SenderModule, make: () => string): string | undefined {
  try {
    return make();
  } catch (e) {
    if (!(e instanceof sender.CopyRefused)) throw e;
    void vscode.window.showErrorMessage(`lpreq: not copied: ${e.message}`);
    return undefined;
  }
}
