/**
 * What the command line's `lpreq import` and the editor's import commands share around the
 * import layer (server/src/import): the curl grammar readied, the catalog's language
 * service, the scrubber over everything the import returns, and where the environment
 * entries go. The editor loads it from dist/import.js (the command's bundle), which exports
 * these beside `run`.
 */
import { dirname, join } from 'node:path';
import { bundledCatalog } from './catalogData';
import { createLanguageService, type LanguageService } from './core/index';
import { detectFormat, importSources, readyCurlParser, type ImportResult, type ImportSource } from './import/index';

export { detectFormat, formatReport, IMPORT_FORMATS, type ImportResult, type ImportSource } from './import/index';
export { httpClientEnvironments, readTextInput } from './node/index';
import {
  EnvironmentFileError,
  loadEnvironmentFiles,
  mergeEnvironmentEntries,
  readCurlGrammar,
  writeEnvironmentFile,
  type EnvironmentMerge,
} from './node/index';
import { scrubSecrets } from './sender/index';

let service: LanguageService | undefined;

/** The import of sources (the curl grammar readied when one needs it), everything it returns scrubbed. `bundleDir`: where dist/'s WebAssembly is. */
export async function editorImport(
  sources: ImportSource[],
  options: {
    withResponses?: boolean;
    paste?: boolean;
    environments?: Record<string, Record<string, string>>;
    bundleDir?: string;
  } = {},
): Promise<ImportResult> {
  if (sources.some((s) => (s.from ?? detectFormat(s.text)) === 'curl'))
    await readyCurlParser(readCurlGrammar(options.bundleDir ?? __dirname));
  service ??= createLanguageService(bundledCatalog());
  const result = await importSources(sources, service, options);
  // Every byte that leaves passes the scrubber, with the credentials the import left out.
  const scrub = (s: string) => scrubSecrets(s, result.secrets);
  return {
    ...result,
    text: scrub(result.text),
    report: JSON.parse(scrub(JSON.stringify(result.report))) as ImportResult['report'],
    environments: JSON.parse(scrub(JSON.stringify(result.environments))) as ImportResult['environments'],
    notes: result.notes.map(scrub),
  };
}

/** The environments a file at `dir` is checked with, and the environment file lpreq reads there (if any). */
export function folderEnvironments(dir: string): {
  environments: Record<string, Record<string, string>>;
  sharedFile: string | undefined;
} {
  try {
    const files = loadEnvironmentFiles(dir, undefined, () => undefined);
    return { environments: files.environments, sharedFile: files.shared };
  } catch (e) {
    if (e instanceof EnvironmentFileError) return { environments: {}, sharedFile: undefined };
    throw e;
  }
}

/** Adds the import's environment entries where lpreq will read them for a file written to `out`. */
export function writeEnvironmentEntries(out: string, result: ImportResult): EnvironmentMerge | undefined {
  if (Object.keys(result.environments).length === 0) return undefined;
  const file = folderEnvironments(dirname(out)).sharedFile ?? join(dirname(out), 'http-client.env.json');
  return mergeEnvironmentEntries(file, result.environments, (path, text) =>
    writeEnvironmentFile(path, scrubSecrets(text, result.secrets)),
  );
}

/** What the report says of the environment entries. */
export function environmentSummary(result: ImportResult, merge: EnvironmentMerge | undefined): string {
  if (Object.keys(result.environments).length === 0) return '';
  if (!merge)
    return `environment entries the file needs (add them to http-client.env.json):\n${JSON.stringify(result.environments, null, 2)}\n`;
  const lines: string[] = [];
  if (merge.added.length > 0)
    lines.push(`${merge.created ? 'created' : 'added to'} ${merge.file}: ${merge.added.join(', ')}`);
  if (merge.kept.length > 0)
    lines.push(`kept as they are in ${merge.file} (the import had other values): ${merge.kept.join(', ')}`);
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}
