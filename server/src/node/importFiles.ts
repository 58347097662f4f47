/**
 * What `lpreq import` and the editor's import read and write besides the source: the shell
 * grammar's WebAssembly (shipped beside the bundles in dist/, or found in node_modules when
 * run from source), the environments of a `.http` file's own client (JetBrains' and
 * httpYac's `http-client.env.json`, REST Client's `rest-client.environmentVariables`; never
 * a private file), and the environment entries an import adds to `http-client.env.json`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { applyEdits, modify, parse as parseJsonc, type ParseError } from 'jsonc-parser';
import { dict, hasOwn, own, setOwn } from '../core/index';
import { writeConfinedFile } from './confinedWriter';
import { readConfinedText } from './textInput';

/** The two WebAssembly files curl commands are read with. */
export function readCurlGrammar(bundleDir: string): { runtime: Uint8Array; bash: Uint8Array } {
  const find = (name: string, fromPackage: string): string => {
    const beside = join(bundleDir, name);
    if (existsSync(beside)) return beside;
    // Run from source (tests, tsx): the packages' own copies.
    return createRequire(join(bundleDir, 'x.js')).resolve(fromPackage);
  };
  return {
    runtime: readFileSync(find('tree-sitter.wasm', 'web-tree-sitter/tree-sitter.wasm')),
    bash: readFileSync(find('tree-sitter-bash.wasm', 'curlconverter/dist/tree-sitter-bash.wasm')),
  };
}

type Environments = Record<string, Record<string, string>>;

function stringValues(value: unknown): Environments {
  const out = dict<Record<string, string>>();
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return out;
  for (const [env, vars] of Object.entries(value)) {
    if (typeof vars !== 'object' || vars === null || Array.isArray(vars)) continue;
    const into = dict<string>();
    for (const [name, v] of Object.entries(vars)) {
      // `$`-keys are settings, not variables.
      if (name.startsWith('$')) continue;
      if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') setOwn(into, name, String(v));
    }
    setOwn(out, env, into);
  }
  return out;
}

function readJsonc(path: string): unknown {
  // A repository's file: read by the one confined reader (a link out of its folder is not followed).
  const read = readConfinedText(path, dirname(path));
  if (read.text === undefined) return undefined;
  const errors: ParseError[] = [];
  const value: unknown = parseJsonc(read.text, errors, { allowTrailingComma: true });
  return errors.length > 0 ? undefined : value;
}

/**
 * The environments a `.http` file was written with: `http-client.env.json` beside it or above
 * (JetBrains, httpYac), then `.vscode/settings.json`'s `rest-client.environmentVariables`
 * (REST Client). The private files are not read: what they hold never goes into an import.
 */
export function httpClientEnvironments(sourceFile: string): Environments {
  const out = dict<Record<string, string>>();
  const add = (envs: Environments) => {
    for (const [env, vars] of Object.entries(envs)) {
      const into = own(out, env) ?? dict<string>();
      for (const [name, value] of Object.entries(vars)) if (!hasOwn(into, name)) setOwn(into, name, value);
      setOwn(out, env, into);
    }
  };
  let dir = dirname(resolve(sourceFile));
  for (let depth = 0; depth < 32; depth++) {
    const envFile = join(dir, 'http-client.env.json');
    if (existsSync(envFile)) add(stringValues(readJsonc(envFile)));
    const settings = join(dir, '.vscode', 'settings.json');
    if (existsSync(settings)) {
      const value = readJsonc(settings);
      if (typeof value === 'object' && value !== null)
        add(stringValues(own(value as Record<string, unknown>, 'rest-client.environmentVariables')));
    }
    if (existsSync(join(dir, '.git')) || dirname(dir) === dir) break;
    dir = dirname(dir);
  }
  return out;
}

/**
 * Writes an environment file as the one confined writer writes: a new file renamed over the old
 * one, so that a committed `http-client.env.json` that is a link is replaced, never written
 * through. A shared environment file is committed: readable by all (0644).
 */
export function writeEnvironmentFile(path: string, text: string): void {
  writeConfinedFile(dirname(path), basename(path), text, { replace: true, mode: 0o644 });
}

export interface EnvironmentMerge {
  file: string;
  /** `env.name` of each entry added. */
  added: string[];
  /** `env.name` of entries the file already had with another value (left as they are). */
  kept: string[];
  /** Whether the file was created. */
  created: boolean;
}

/**
 * Adds an import's environment entries to an `http-client.env.json`: a name the file already
 * has is left as it is (its value is the user's), comments and layout are kept, and the
 * file is created when there is none. `base_url` is not added to `$shared` when every
 * environment of the file has its own. Returns what changed; writes nothing when nothing does.
 */
export function mergeEnvironmentEntries(
  file: string,
  entries: Environments,
  write: (path: string, text: string) => void = writeEnvironmentFile,
): EnvironmentMerge {
  const exists = existsSync(file);
  let text = '{}\n';
  if (exists) {
    const read = readConfinedText(file, dirname(file));
    if (read.text === undefined) throw new Error(`cannot read ${file}: ${read.problem}`);
    text = read.text;
  }
  const errors: ParseError[] = [];
  const current: unknown = parseJsonc(text, errors, { allowTrailingComma: true });
  if (errors.length > 0 || typeof current !== 'object' || current === null || Array.isArray(current))
    throw new Error(`${file} is not an environment file ({ "env": { "name": "value" } }); fix it and import again`);
  const envs = current as Record<string, unknown>;
  const named = Object.keys(envs).filter((e) => e !== '$shared');
  const everyHasBase =
    named.length > 0 && named.every((e) => hasOwn(own(envs, e) as Record<string, unknown> | undefined, 'base_url'));
  const added: string[] = [];
  const kept: string[] = [];
  for (const [env, vars] of Object.entries(entries)) {
    const existing = own(envs, env) as Record<string, unknown> | undefined;
    for (const [name, value] of Object.entries(vars)) {
      if (env === '$shared' && name === 'base_url' && everyHasBase) continue;
      if (existing && hasOwn(existing, name)) {
        if (String(own(existing, name)) !== value) kept.push(`${env}.${name}`);
        continue;
      }
      text = applyEdits(
        text,
        modify(text, [env, name], value, { formattingOptions: { insertSpaces: true, tabSize: 2 } }),
      );
      added.push(`${env}.${name}`);
    }
  }
  if (added.length > 0) write(file, text.endsWith('\n') ? text : `${text}\n`);
  return { file, added, kept, created: !exists && added.length > 0 };
}
