/**
 * The commands the server runs (`workspace/executeCommand`), for any editor: its code lenses
 * and code actions name them, and a user's key binding can too. Each one's arguments are
 * checked here before anything reads them: a document is a URI string of an open document or
 * of a file inside a workspace folder, a line an integer from 0. Anything else is answered
 * with an InvalidParams error, never read as something else. Nothing is sent but by one of
 * these commands, which only the editor sends, when the user asks: opening a document sends
 * nothing.
 */
import { ErrorCodes, ResponseError } from './protocol';

/** The commands, as the server names them in its capabilities. */
export const COMMANDS = {
  send: 'lpreq.send',
  sendAll: 'lpreq.sendAll',
  fetchAllPages: 'lpreq.fetchAllPages',
  copyAsCurl: 'lpreq.copyAsCurl',
  generateCode: 'lpreq.generateCode',
  selectEnvironment: 'lpreq.selectEnvironment',
} as const;

export const COMMAND_NAMES: readonly string[] = Object.values(COMMANDS);

/** Values for a request's `# @prompt` variables: the editor has no input box the server can open. */
export interface CommandOptions {
  prompts: Map<string, string>;
}

export type Command =
  | {
      command: typeof COMMANDS.send | typeof COMMANDS.fetchAllPages | typeof COMMANDS.copyAsCurl;
      uri: string;
      line: number;
      options: CommandOptions;
    }
  | {
      command: typeof COMMANDS.generateCode;
      uri: string;
      line: number;
      language: 'javascript' | 'python';
      options: CommandOptions;
    }
  | { command: typeof COMMANDS.sendAll; uri: string; options: CommandOptions }
  | { command: typeof COMMANDS.selectEnvironment; name: string | null | undefined };

function invalid(message: string): ResponseError<void> {
  return new ResponseError(ErrorCodes.InvalidParams, `lpreq: ${message}`);
}

function uriArgument(value: unknown, command: string): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 4096)
    throw invalid(`${command}: the first argument is the document's URI (a string)`);
  return value;
}

function lineArgument(value: unknown, command: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    throw invalid(`${command}: the second argument is a line, an integer from 0`);
  return value;
}

/** Lua writes an empty table as `[]`: an empty list stands for an empty object (Neovim's configurations build these). */
function isEmptyList(value: unknown): boolean {
  return Array.isArray(value) && value.length === 0;
}

function optionsArgument(value: unknown, command: string): CommandOptions {
  const prompts = new Map<string, string>();
  if (value === undefined || value === null || isEmptyList(value)) return { prompts };
  if (typeof value !== 'object' || Array.isArray(value))
    throw invalid(`${command}: the options are an object: { "prompts": { "name": "value" } }`);
  const given = (value as { prompts?: unknown }).prompts;
  if (given === undefined || isEmptyList(given)) return { prompts };
  if (typeof given !== 'object' || given === null || Array.isArray(given))
    throw invalid(`${command}: "prompts" is an object of names and text values`);
  for (const [name, text] of Object.entries(given)) {
    if (typeof text !== 'string') throw invalid(`${command}: the value of the prompt variable '${name}' is not text`);
    prompts.set(name, text);
  }
  return { prompts };
}

/** The command and its arguments, checked; an InvalidParams error for anything else. */
export function parseCommand(params: unknown): Command {
  if (typeof params !== 'object' || params === null) throw invalid('executeCommand needs a command');
  const { command, arguments: args } = params as { command?: unknown; arguments?: unknown };
  if (args !== undefined && !Array.isArray(args)) throw invalid('the arguments of a command are a list');
  const list: unknown[] = Array.isArray(args) ? args : [];
  switch (command) {
    case COMMANDS.send:
    case COMMANDS.fetchAllPages:
    case COMMANDS.copyAsCurl:
      if (list.length > 3) throw invalid(`${command} takes a URI, a line and options`);
      return {
        command,
        uri: uriArgument(list[0], command),
        line: lineArgument(list[1], command),
        options: optionsArgument(list[2], command),
      };
    case COMMANDS.generateCode: {
      if (list.length > 4) throw invalid(`${command} takes a URI, a line, a language and options`);
      const language = list[2];
      if (language !== 'javascript' && language !== 'python')
        throw invalid(`${command}: the third argument is "javascript" or "python"`);
      return {
        command,
        uri: uriArgument(list[0], command),
        line: lineArgument(list[1], command),
        language,
        options: optionsArgument(list[3], command),
      };
    }
    case COMMANDS.sendAll:
      if (list.length > 2) throw invalid(`${command} takes a URI and options`);
      return { command, uri: uriArgument(list[0], command), options: optionsArgument(list[1], command) };
    case COMMANDS.selectEnvironment: {
      if (list.length > 1)
        throw invalid(`${command} takes an environment's name, null for none, or nothing to choose from a list`);
      const name = list[0];
      if (name !== undefined && name !== null && (typeof name !== 'string' || name.length === 0 || name.length > 200)) {
        throw invalid(`${command}: the argument is an environment's name, or null for none`);
      }
      return { command, name };
    }
    default:
      throw invalid(`no such command: ${typeof command === 'string' ? command.slice(0, 100) : String(command)}`);
  }
}
