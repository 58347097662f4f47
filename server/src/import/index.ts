/**
 * Import: requests kept in other tools' formats (a cURL command, a browser's HAR capture, a
 * Postman collection or environment, REST Client's and JetBrains' `.http` files) written as
 * a `.lpreq` file and checked. Pure: no file, no network; the hosts read the sources and the
 * shell grammar (`readCurlGrammar` in server/src/node), and write what this returns through
 * the scrubber, with the secrets it names. Code outside import/ imports it through this file.
 */
import {
  createLanguageService,
  dict,
  own,
  setOwn,
  type Catalog,
  type Environments,
  type LanguageService,
} from '../core/index';
import { convert, type Converted } from './convert';
import { readCurl } from './curl';
import { detectFormat } from './detect';
import { readHar } from './har';
import { readHttpFile } from './httpFile';
import { IMPORT_FORMATS, ImportError, type ImportFormat, type SourceCollection } from './model';
import { checkImported, type ImportReport } from './report';
import { curlParserReady } from './treeSitter';

export { IMPORT_FORMATS, ImportError, type ImportFormat } from './model';
export { detectFormat } from './detect';
export { readyCurlParser, curlParserReady, type CurlGrammar } from './treeSitter';
export { formatReport, type ImportReport, type ReportEntry, type ReportDiagnostic } from './report';
export { isSecretVariable } from './credentials';

export interface ImportSource {
  /** How the source is named in the file's first comment and the report (a file name, "clipboard"). */
  name: string;
  text: string;
  /** The format; guessed from the text when absent. */
  from?: ImportFormat;
  /** For a `.http` file: the environments of its client, read by the host (never the private ones). */
  environments?: Record<string, Record<string, string>>;
}

export interface ImportOptions {
  /** HAR: keep each recorded response as an example, in comments. */
  withResponses?: boolean;
  /** Text to paste into a document: no file comment, the variables under the first `###` line. */
  paste?: boolean;
  /** The environments the written file will be checked and sent with (those of the folder it goes to). */
  environments?: Record<string, Record<string, string>>;
}

export interface ImportResult {
  /** The `.lpreq` text. */
  text: string;
  formats: ImportFormat[];
  /** Environment entries the file needs: environment name (`$shared` for all) to variables. */
  environments: Record<string, Record<string, string>>;
  /** Values left out as credentials: the host scrubs them from every byte it writes. */
  secrets: string[];
  report: ImportReport;
  notes: string[];
}

async function read(source: ImportSource, options: ImportOptions): Promise<SourceCollection & { secrets?: string[] }> {
  const from = source.from ?? detectFormat(source.text);
  if (from === undefined)
    throw new ImportError(
      `cannot tell what ${source.name} is: give --from ${IMPORT_FORMATS.join('|')} (a cURL command, a HAR capture, a Postman collection or environment, a .http file)`,
    );
  switch (from) {
    case 'curl':
      if (!curlParserReady()) throw new Error('the curl parser is not ready: await readyCurlParser first');
      return readCurl(source.text);
    case 'har':
      return readHar(source.text, { withResponses: options.withResponses });
    case 'postman': {
      // Postman's SDK is most of this layer's weight (1.3 MB with what it loads): loaded only for a Postman source.
      return (await import('./postman')).readPostman(source.text);
    }
    case 'http':
      return readHttpFile(source.text, { environments: source.environments });
  }
}

/** Reads, converts and checks the sources, in order, into one `.lpreq` text. Throws ImportError for a source that cannot be read. */
export async function importSources(
  sources: ImportSource[],
  catalogOrService: Catalog | LanguageService,
  options: ImportOptions = {},
): Promise<ImportResult> {
  const service = 'checker' in catalogOrService ? catalogOrService : createLanguageService(catalogOrService);
  const collections: (SourceCollection & { secrets?: string[] })[] = [];
  for (const s of sources) collections.push(await read(s, options));
  const secrets = collections.flatMap((c) => c.secrets ?? []);
  const converted: Converted = convert(collections, service.checker.matcher, {
    sourceName: sources.map((s) => s.name).join(', '),
    paste: options.paste,
    environmentVariables: new Set(Object.values(options.environments ?? {}).flatMap((vars) => Object.keys(vars))),
  });
  const env: Environments = { environments: mergedEnvironments(options.environments ?? {}, converted.environments) };
  const report = checkImported(converted, service, env);
  return {
    text: converted.text,
    formats: [...new Set(collections.map((c) => c.format))],
    environments: converted.environments,
    secrets: [...new Set([...converted.secrets, ...secrets.filter((s) => s.length > 0)])],
    report,
    notes: converted.notes,
  };
}

/** The environments the file is checked with: the folder's own, and the import's entries where those lack them. */
function mergedEnvironments(
  existing: Record<string, Record<string, string>>,
  added: Record<string, Record<string, string>>,
): Record<string, Record<string, string>> {
  const out = dict<Record<string, string>>();
  for (const source of [added, existing]) {
    for (const [env, vars] of Object.entries(source)) {
      const into = own(out, env) ?? dict<string>();
      for (const [name, value] of Object.entries(vars)) setOwn(into, name, value);
      setOwn(out, env, into);
    }
  }
  return out;
}
