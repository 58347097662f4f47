/**
 * The workspace an MCP server was started in, and what it keeps out of its answers. Every
 * file a tool names is a path inside the root (relative to it, or absolute inside it), read
 * through the one confined reader; the environment files are found from the file's folder up
 * to the root, never above it. The secrets of every environment file met (every token and
 * private value, of every environment), `LPREQ_TOKEN` and the answers given to `# @prompt`
 * variables are gathered in one book, and every message the server writes passes the one
 * scrubber with them (transport.ts).
 */
import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { loadEnvironmentFiles, readConfinedText, type EnvironmentFiles } from '../node/index';
import { environmentSecrets, scrubDeep, scrubSecrets } from '../sender/index';
import { ToolInputError } from './errors';

/** The largest request file a tool reads. */
const MAX_FILE_BYTES = 4 * 1024 * 1024;

export class SecretBook {
  private readonly secrets = new Set<string>();

  add(values: Iterable<string | undefined>): void {
    for (const v of values) if (v !== undefined && v.length > 0) this.secrets.add(v);
  }

  /** The secrets of every environment of the files found for a folder: tokens, the private file's values and headers. */
  addEnvironments(files: EnvironmentFiles): void {
    this.add(
      environmentSecrets({
        environments: files.environments,
        options: files.options,
        privateNames: files.privateNames,
      }),
    );
  }

  list(): string[] {
    return [...this.secrets];
  }

  text(text: string): string {
    return this.secrets.size === 0 ? text : scrubSecrets(text, this.list());
  }

  deep<T>(value: T): T {
    return this.secrets.size === 0 ? value : scrubDeep(value, this.list());
  }
}

export class Workspace {
  readonly root: string;

  constructor(
    root: string,
    readonly secrets: SecretBook,
  ) {
    this.root = realpathSync(root);
  }

  /** The absolute path of a file a tool names; outside the root is a ToolInputError naming `argument`. */
  resolve(path: string, argument: string): string {
    if (path.trim() === '') throw new ToolInputError(argument, 'give a path inside the workspace');
    if (path.includes('\0')) throw new ToolInputError(argument, 'a path cannot hold a NUL character');
    const absolute = resolve(this.root, path);
    const rel = relative(this.root, absolute);
    if (rel.startsWith(`..${sep}`) || rel === '..' || isAbsolute(rel))
      throw new ToolInputError(argument, `${path} is outside the workspace (${this.root}); lpreq reads only inside it`);
    return absolute;
  }

  /** A text file inside the workspace, through the confined reader (links out of it are not followed). */
  read(path: string, argument: string): { absolute: string; text: string } {
    const absolute = this.resolve(path, argument);
    const read = readConfinedText(absolute, this.root, MAX_FILE_BYTES);
    if (read.problem !== undefined) throw new ToolInputError(argument, `${path}: ${read.problem}`);
    return { absolute, text: read.text };
  }

  /** The environment files for a file (found from its folder up to the root), their secrets booked. */
  environments(file: string, onProblem?: (message: string) => void): EnvironmentFiles {
    const files = loadEnvironmentFiles(dirname(file), this.root, (e) => onProblem?.(e.message));
    this.secrets.addEnvironments(files);
    return files;
  }

  /** The path as an agent should write it back: relative to the root. */
  display(absolute: string): string {
    return relative(this.root, absolute).split(sep).join('/');
  }
}
