import type { AssertionParse } from '../assertion';

/** The tree the parser gives: a document of blocks, each with its parts and offsets relative to the block. */
export const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'] as const;

/** A piece of text and where it stands (offsets relative to the block start). */
export interface Token {
  text: string;
  start: number;
  end: number;
}

export interface Problem {
  code: 'syntax';
  message: string;
  start: number;
  end: number;
}

export interface VariableDefinition {
  name: Token;
  value: Token;
  /** The whole line. */
  start: number;
  end: number;
}

export interface Metadata {
  key: Token;
  value: Token;
  start: number;
  end: number;
}

/** `name = value` in the parameter block, or `name=value` in the query string. */
export interface ParameterLine {
  name: Token;
  value: Token;
  /** The name and value as sent (query-string parts are percent-decoded). */
  decodedName: string;
  decodedValue: string;
  /** Where it stands: the query string, the parameter block, or a JSON body read as parameters. */
  source: 'query' | 'body' | 'json';
  start: number;
  end: number;
}

export interface Header {
  name: Token;
  value: Token;
  start: number;
  end: number;
}

export interface RequestLine {
  method: Token;
  /** True when METHOD is one of the known methods. */
  methodKnown: boolean;
  target: Token;
  /**
   * JetBrains' client lets a long path go on over indented lines that start with `/`
   * (`    /modules`): those lines' tokens, in order. The request as sent is requestTarget().
   */
  pathLines?: Token[];
  version?: Token;
  start: number;
  end: number;
}

export interface JsonBody {
  text: string;
  start: number;
  end: number;
}

/** A body read from a file (REST Client and JetBrains: `< ./body.json`, or `<@ ./body.json` to replace its variables). */
export interface FileBody {
  /** The path as written, relative to the request file's folder. */
  path: Token;
  /** `<@`: the file's `{{variables}}` are replaced before it is sent. */
  processVariables: boolean;
  /** `<@latin1 ./file`: the file's encoding, when given. */
  encoding?: string;
  /** The whole line. */
  start: number;
  end: number;
}

export interface Block {
  /** The text of the block, from its `###` line (or the document start) to the next separator. */
  text: string;
  separator?: { start: number; end: number };
  title?: Token;
  metadata: Metadata[];
  variables: VariableDefinition[];
  request?: RequestLine;
  /** Continuation lines of the query (`?a=1`, `&b=2`), whole lines. */
  queryLines: { start: number; end: number }[];
  headers: Header[];
  params: ParameterLine[];
  jsonBody?: JsonBody;
  /** A body read from a file instead of written here. */
  fileBody?: FileBody;
  /** Blank line between headers and body, when present. */
  bodyStart?: number;
  /**
   * Where the assertion lines stand (`?? FIELD OPERATOR [EXPECTED]`, LPREQ-FORMAT section 6):
   * the start and end of each, in order, two numbers a line. They are taken out of the block
   * before its query lines, headers and body are read, so the lines around them keep their
   * meaning. `assertionsOf(block)` reads them.
   */
  assertionLines: number[];
  /**
   * The assertion lines read, each an assertion or the reason it cannot be one: filled by
   * `assertionsOf` at its first call, not by the parser. A file's check reads most assertion
   * lines from the checker's table of lines already seen, and never needs them read here.
   */
  assertionsRead: AssertionParse[] | undefined;
  /** Variables that JetBrains scripts of this block set (`client.global.set("id", ...)`); lpreq does not run them. */
  scriptSets: ScriptSet[];
  problems: Problem[];
}

/** A variable a JetBrains script sets: `client.global.set` (for later requests) or `request.variables.set` (for this one). */
export interface ScriptSet {
  name: string;
  global: boolean;
}

export interface BlockRef {
  /** Absolute offset of the block in the document. */
  start: number;
  block: Block;
}

export interface LpreqDocument {
  text: string;
  blocks: BlockRef[];
}
