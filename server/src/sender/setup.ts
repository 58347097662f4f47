/**
 * What sending a request of a file needs besides the file, for every host (the session of
 * session.ts builds on it): the environment files beside the file or above it, the
 * environment (core/environmentRule.ts: the one given, else the one remembered for the
 * project, else the only one, else `local`), the token (`LPREQ_TOKEN`, else the environment's
 * `token` in the private file) and the origin it is pinned to (`LPREQ_TOKEN_ORIGIN`, or
 * `--token-origin`), whether the environment is protected, the `.env` file beside the request
 * file, the context of the system variables, the reader of body files, and the project's
 * `.lpreq` folder (history, responses and the remembered environment, kept out of version
 * control).
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { closest, own } from '../core/index';
import {
  bodyFileReader,
  confinedFolder,
  EnvironmentFileError,
  loadEnvironmentFiles,
  readConfinedText,
  workspaceFolder,
  writeConfinedFile,
  type EnvironmentFiles,
} from '../node/index';
import { decideEnvironment, type EnvironmentAnswer } from '../core/index';
import { environmentOrigin, type PrepareOptions, type SendEnvironments } from './prepare';
import { MIN_SECRET_LENGTH } from './secrets';
import type { SendResult } from './send';
import { parseOrigin, pinnedOriginProblem } from './tokenOrigin';
import { parseDotenv, type SystemContext } from './variables';

/** Sending cannot start: the message says why and what to do. */
export class SetupError extends Error {}

/** Several environments, none called local, none chosen: the user must choose one of `names` (the editor asks; the command line says how). */
export class ChooseEnvironmentError extends SetupError {
  constructor(
    message: string,
    readonly names: string[],
    readonly projectFolder: string,
  ) {
    super(message);
  }
}

export interface SendSetup {
  files: EnvironmentFiles;
  /** The environment chosen (undefined: none is, or there are none). */
  selected: string | undefined;
  /** What the environment rule answered, and why (environmentRule.ts). */
  answer: EnvironmentAnswer;
  environments: SendEnvironments;
  token: string | undefined;
  /** Where the token comes from (`host`: the editor's secret storage; `oauth2`: the environment's sign-in, oauth2/setupAuth.ts); undefined when there is none. */
  tokenFrom: 'LPREQ_TOKEN' | 'private' | 'host' | 'oauth2' | undefined;
  /** The `Security.Auth` configuration the token comes from, when it is a sign-in's. */
  oauth2?: string;
  /** The private file's token of the environment: kept out of output even when LPREQ_TOKEN is the one sent. */
  privateToken: string | undefined;
  /** POST, PUT, PATCH and DELETE are sent only when confirmed (`"$protected": true`). */
  protectedEnvironment: boolean;
  /** The folder of the environment files, or of the request file when there are none: `{{$projectRoot}}`, and where `.lpreq` goes. */
  projectFolder: string;
  system: SystemContext;
  readFile: NonNullable<PrepareOptions['readFile']>;
  /** What the user should know that does not stop sending (a `.env` that cannot be read). */
  warnings: string[];
}

export interface SetupOptions {
  /** The environment given for this send (`lpreq send --env`, the editor's choice of this session); null: none. */
  environment?: string | null;
  /** The choice remembered for the project folder (environmentChoice.ts reads it); undefined when none is kept. */
  remembered?: (projectFolder: string) => string | null | undefined;
  /** An editor configuration's default, below a remembered choice (`initializationOptions.environment`). */
  preferred?: string;
  /** The process environment: LPREQ_TOKEN, LPREQ_TOKEN_ORIGIN, and `{{$processEnv NAME}}`. */
  env: NodeJS.ProcessEnv;
  /** The origin the token is pinned to (`--token-origin`), over LPREQ_TOKEN_ORIGIN. */
  tokenOrigin?: string;
  /** How the user chooses an environment, for messages: `--env`, `lpreq.selectEnvironment`. */
  chooseWith: string;
  /**
   * The requests go to the built-in mock (`lpreq test --mock`): the environment only lends its
   * variables, so with several and none called local none is taken rather than refused.
   */
  forMock?: boolean;
}

/** Finds what sending a request of `file` (an absolute path) needs; a SetupError says why it cannot. */
export function sendSetup(file: string, options: SetupOptions): SendSetup {
  let files: EnvironmentFiles;
  try {
    files = loadEnvironmentFiles(dirname(file));
  } catch (e) {
    if (e instanceof EnvironmentFileError) throw new SetupError(e.message);
    throw e;
  }
  const projectFolder = dirname(files.shared ?? files.private ?? file);
  const answer = decideEnvironment(Object.keys(files.environments), {
    given: options.environment,
    remembered: options.environment === undefined ? options.remembered?.(projectFolder) : undefined,
    preferred: options.preferred,
  });
  const selected = chooseEnvironment(answer, options.chooseWith, options.forMock === true, projectFolder);
  const privateToken =
    selected !== undefined && own(files.privateNames, selected)?.has('token')
      ? own(own(files.environments, selected), 'token')
      : undefined;
  const fromProcess = options.env.LPREQ_TOKEN;
  const token = fromProcess && fromProcess.length > 0 ? fromProcess : privateToken;
  const tokenFrom = token === undefined ? undefined : token === fromProcess ? 'LPREQ_TOKEN' : 'private';
  // A token cannot go in a header with a space or a line break (often a copied newline): say so, without showing it.
  const source = tokenFrom === 'private' ? `the token of ${selected} in http-client.private.env.json` : 'LPREQ_TOKEN';
  if (
    token !== undefined &&
    [...token].some((c) => /\s/.test(c) || c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)
  ) {
    throw new SetupError(
      `${source} contains whitespace or a control character (a line break at the end?); remove it and try again`,
    );
  }
  // A shorter one cannot be told from ordinary text, so it could not be kept out of output or away from other origins.
  if (token !== undefined && token.length < MIN_SECRET_LENGTH) {
    throw new SetupError(
      `${source} is shorter than ${MIN_SECRET_LENGTH} characters: lpreq could not tell it from other text to keep it out of output and away from other hosts; use a longer one`,
    );
  }
  const environments = {
    environments: files.environments,
    selected,
    options: files.options,
    privateNames: files.privateNames,
  };
  // Pinned (CI, where a pull request can change http-client.env.json): nothing starts unless base_url is on that origin.
  const pinned = pinnedOrigin(options);
  if (pinned !== undefined && options.forMock !== true) {
    const problem = pinnedOriginProblem(pinned, environmentOrigin(environments), selected);
    if (problem !== undefined) throw new SetupError(problem);
  }
  const protectedEnvironment =
    selected !== undefined && String(own(own(files.environments, selected), '$protected')).toLowerCase() === 'true';
  const warnings: string[] = [];
  const dotenvFile = join(dirname(file), '.env');
  let dotenv: Record<string, string> = {};
  if (existsSync(dotenvFile)) {
    // A repository's file: a link out of the workspace (`.env -> ~/.aws/credentials`) is not read.
    const read = readConfinedText(dotenvFile, workspaceFolder(file, files));
    if (read.problem === undefined) dotenv = parseDotenv(read.text);
    else warnings.push(`${dotenvFile}: ${read.problem}; {{$dotenv ...}} stays unresolved`);
  }
  return {
    files,
    selected,
    answer,
    environments,
    token,
    tokenFrom,
    privateToken,
    protectedEnvironment,
    projectFolder,
    system: { processEnv: options.env, dotenv, projectRoot: projectFolder },
    // Body files are read from inside the workspace only (the folder of the environment files).
    readFile: bodyFileReader(file, files),
    warnings,
  };
}

/** The origin the token is pinned to, from --token-origin or LPREQ_TOKEN_ORIGIN (an empty one is none); a SetupError when it is no origin. */
function pinnedOrigin(options: SetupOptions): { origin: string; from: string } | undefined {
  const [text, from] =
    options.tokenOrigin !== undefined
      ? [options.tokenOrigin, '--token-origin']
      : [options.env.LPREQ_TOKEN_ORIGIN, 'LPREQ_TOKEN_ORIGIN'];
  if (text === undefined || text.trim() === '') return undefined;
  const read = parseOrigin(text);
  if ('problem' in read) throw new SetupError(`${from}: ${read.problem}`);
  return { origin: read.origin, from };
}

/**
 * The environment of the rule's answer, or why there is none to send with: an unknown name,
 * or several and none chosen (which base_url, and so who gets the token, must not depend on
 * the order of a file). A mock run takes no environment then: the mock lends its own variables.
 */
function chooseEnvironment(
  answer: EnvironmentAnswer,
  chooseWith: string,
  forMock: boolean,
  projectFolder: string,
): string | undefined {
  const names = answer.names;
  switch (answer.state) {
    case 'chosen':
      return answer.name;
    case 'none':
      return undefined;
    case 'unknown':
      throw new SetupError(
        names.length === 0
          ? `${chooseWith} ${answer.name}: no http-client.env.json or http-client.private.env.json was found beside the file or above it`
          : `${chooseWith} ${answer.name}: no such environment${nearest(answer.name, names)}; the environments are ${names.join(', ')}`,
      );
    case 'ask':
      if (forMock) return undefined;
      throw new ChooseEnvironmentError(
        `there are several environments (${names.join(', ')}), none is called local, and none is chosen for this project: choose one with ${names
          .map((n) => `${chooseWith} ${n}`)
          .join(' or ')}`,
        names,
        projectFolder,
      );
  }
}

const GITIGNORE =
  '# lpreq keeps its history of exchanges and the responses it shows here; not for version control.\n*\n';

/**
 * A place in the project's `.lpreq` (the `history` and `responses` folders, the language
 * server's `environment.json`): responses may hold people's data, so `.lpreq` is the user's
 * alone (0700) and gets a .gitignore that keeps it out of version control. Every folder is
 * made and checked by the confined writer: a `.lpreq`, `.lpreq/history` or
 * `.lpreq/responses` that is a symbolic link is not written through, since a repository
 * could point it anywhere. Returns the path of the place (a folder made, a file not); an
 * error when it cannot be made.
 */
export function projectStore(projectFolder: string, name: 'history' | 'responses' | 'environment.json'): string {
  const folder = confinedFolder(projectFolder, ['.lpreq']);
  try {
    writeConfinedFile(folder, '.gitignore', GITIGNORE, { mode: 0o644 });
  } catch (e) {
    // It is there already (or another process wrote it first).
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  return name === 'environment.json' ? join(folder, name) : confinedFolder(projectFolder, ['.lpreq', name]);
}

/**
 * What a user needs to know when a request went out without the token, or the token was
 * refused (401): which of LPREQ_TOKEN and the private environment file to set. Never the
 * token itself. When a token was given but not sent, the exchange already said why.
 */
export function tokenNotes(
  result: SendResult,
  where: Pick<SendSetup, 'tokenFrom' | 'oauth2'> & { environment: string | undefined },
): string[] {
  const r = result.response;
  if (!r || r.status === null || r.authorizationWritten) return [];
  const notes: string[] = [];
  const privateFile = where.environment
    ? `"token" in the ${where.environment} environment of http-client.private.env.json`
    : 'an environment with a base_url (http-client.env.json) and its "token" in http-client.private.env.json';
  if (where.tokenFrom === undefined)
    notes.push(`no token was sent: LPREQ_TOKEN is not set, and there is no ${privateFile}`);
  if (r.status === 401) {
    if (r.tokenSent) {
      notes.push(
        where.tokenFrom === 'oauth2'
          ? `401: the server refused the token of the sign-in Security.Auth.${where.oauth2 ?? ''}; check the scopes it asks for and that its developer key is for this server`
          : `401: the server refused the token from ${where.tokenFrom === 'LPREQ_TOKEN' ? 'LPREQ_TOKEN' : where.tokenFrom === 'host' ? `the editor's secret storage (set for ${where.environment})` : 'http-client.private.env.json'}; check that it is valid for this server`,
      );
    } else if (where.tokenFrom === undefined) {
      notes.push(`401: set LPREQ_TOKEN, or ${privateFile}`);
    } else {
      notes.push(
        `401: the token was not sent to ${originOf(r.url)}; it goes only to the origin of the selected environment's base_url (--env)`,
      );
    }
  }
  return notes;
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/** `; did you mean staging?` for a name one typo away from an environment's, else nothing. */
function nearest(name: string, names: readonly string[]): string {
  const near = closest(name, [...names]);
  return near ? `; did you mean ${near}?` : '';
}
