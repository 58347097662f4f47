/**
 * The open documents: their text in chunks (EditableDocument: an edit's offsets are known),
 * the parse of each one's current version with its scope, and the environment files of
 * each folder. A request about a document reaches it through `stateOf`, `outlineState` or
 * `withDocumentAt` (handlers.ts).
 */
import { dirname, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Range } from 'vscode-languageserver/node';
import {
  blockIndexAt,
  decideEnvironment,
  hasOwn,
  parseBlock,
  ScopeTracker,
  type Block,
  type BlockRef,
  type EnvironmentAnswer,
  type EnvironmentInfo,
  type LanguageService,
  type LpreqDocument,
  type ServiceDocument,
  type VariableScope,
} from '../core/index';
import { EnvironmentFileError, environmentScopes, loadEnvironmentFiles } from '../node/index';
import { EditableDocument } from './editableDocument';
import { malformedChange } from './fromProto';

/**
 * The parse of a document's version, and what its services read besides it. Right after a
 * document is opened its blocks are outlines (parseOutline: what is read of each block's head
 * after the pass that published its diagnostics), parsed in full only when a service needs them (`stateOf`,
 * `quickState`), or for a moment, without being kept, to check them (`Documents.full`).
 */
export interface DocumentState extends ServiceDocument {
  version: number;
  parsed: LpreqDocument;
  scopes: ScopeTracker;
  scopeKey: number;
  scope: VariableScope;
  env?: EnvironmentInfo;
  /** Some of its blocks may be outlines. */
  outlined: boolean;
}

/** The outline of a document just opened, until a state is made of it. */
interface Outline {
  version: number;
  text: string;
  blocks: BlockRef[];
}

/** Reads the environment files for a folder, up to `root` (tests replace it). */
export type LoadEnvironment = (
  dir: string,
  root: string | undefined,
  onProblem: (message: string) => void,
) => EnvironmentInfo | undefined;

export function defaultLoadEnvironment(
  dir: string,
  root: string | undefined,
  onProblem: (message: string) => void,
): EnvironmentInfo | undefined {
  const files = loadEnvironmentFiles(dir, root, (e) => onProblem(e.message));
  if (!files.shared && !files.private) return undefined;
  return {
    environments: files.environments,
    privateNames: files.privateNames,
    sharedFile: files.shared,
    privateFile: files.private,
    ...environmentScopes(files),
  };
}

/** What a block's cached diagnostics and tokens depend on besides its text: the scope and the environment. */
export function cacheKey(state: DocumentState): string {
  return String(state.scopeKey) + (state.env?.selected ?? '');
}

export interface DocumentsHost {
  service(): LanguageService;
  log(message: string): void;
  /** Tells the user (a warning the editor shows). */
  warn(message: string): void;
  loadEnvironment: LoadEnvironment;
  /** Told of each shared environment file read (its findings are published on it: environmentFindings.ts). */
  readShared?: (file: string) => void;
}

export class Documents {
  private readonly open = new Map<string, EditableDocument>();
  private readonly states = new Map<string, DocumentState>();
  private readonly outlines = new Map<string, Outline>();
  /** Blocks that are outlines (parseOutline, outlineOf). */
  private readonly outlineBlocks = new WeakSet<Block>();
  /** Told when an outline gives way to its block parsed in full: what is kept by block moves to it. */
  readonly realized: ((outline: Block, block: Block) => void)[] = [];
  private readonly environments = new Map<string, EnvironmentInfo | undefined>();
  /** Environment file problems already shown to the user (each is shown once). */
  private readonly warned = new Set<string>();
  /** Documents a change was refused for, whose user has been told (once, until the file is opened again). */
  private readonly desynced = new Set<string>();
  /**
   * The environment chosen in this session for every project (`lpreq/selectEnvironment`, the
   * command `lpreq.selectEnvironment`; null: none): over what a project remembers. Undefined:
   * each project's answer is the environment rule's (the sender's environmentRule.ts).
   */
  private chosenHere: string | null | undefined;
  /** `initializationOptions.environment`: a default below a project's remembered choice. */
  preferred: string | undefined;
  /** A project's remembered choice (the send session reads `.lpreq/environment.json`). */
  remembered: (projectFolder: string) => string | null | undefined = () => undefined;
  /** The rule's answer for each folder's environments, until the files, the memory or the choice change. */
  private readonly answers = new Map<string, EnvironmentAnswer>();
  /** The workspace folders, deepest first: a document's environment files are looked for up to the folder that holds it. */
  private roots: string[] = [];
  /** The same folders as the client named them. */
  rootUris: readonly string[] = [];
  private inOrder: string[] = [];

  constructor(private readonly host: DocumentsHost) {}

  get(uri: string): EditableDocument | undefined {
    return this.open.get(uri);
  }

  all(): IterableIterator<EditableDocument> {
    return this.open.values();
  }

  /**
   * `run` with the open document, the offset `at` reads from it, and a state whose block at
   * that offset is parsed in full (quickState); `empty` when the document is not open.
   */
  withDocumentAt<R>(
    uri: string,
    empty: R,
    at: (document: EditableDocument) => number,
    run: (document: EditableDocument, state: DocumentState, offset: number) => R,
  ): R {
    const document = this.open.get(uri);
    if (!document) return empty;
    const offset = at(document);
    return run(document, this.quickState(document, offset), offset);
  }

  /** The parse of the document's current version, every block in full, and its scope. */
  stateOf(document: EditableDocument): DocumentState {
    const state = this.outlineState(document);
    if (state.outlined) this.realizeAll(state);
    return state;
  }

  /**
   * The parse of the document's current version (reusing unchanged blocks) and its scope,
   * whose blocks may be outlines: for what reads no more of a block than its outline holds
   * (the scope, symbols, folding, the list of requests), and for the diagnostics and tokens,
   * which parse an outline when they need it (`full`).
   */
  outlineState(document: EditableDocument): DocumentState {
    const uri = document.uri;
    let state = this.states.get(uri);
    if (state && state.version === document.version) return state;
    const outline = this.outlines.get(uri);
    this.outlines.delete(uri);
    const fromOutline = outline?.version === document.version ? outline : undefined;
    const parsed = fromOutline
      ? { text: fromOutline.text, blocks: fromOutline.blocks }
      : this.host.service().parse(document.getText(), state?.parsed);
    const scopes = state?.scopes ?? new ScopeTracker();
    const env = this.environmentFor(uri);
    const { scope, key } = scopes.update(parsed, env);
    state = {
      version: document.version,
      parsed,
      scopes,
      scopeKey: key,
      scope,
      env,
      outlined: fromOutline !== undefined || state?.outlined === true,
    };
    this.states.set(uri, state);
    return state;
  }

  /**
   * A state to answer about `offset` with at once (completion, hover): the current one, its
   * block at `offset` parsed in full when it is an outline (in a copy of the list of blocks:
   * the state keeps the outline). Right for services about that block.
   */
  quickState(document: EditableDocument, offset: number, end = offset): DocumentState {
    const state = this.outlineState(document);
    if (!state.outlined || state.parsed.blocks.length === 0) return state;
    let blocks: BlockRef[] | undefined;
    // The blocks from `offset` to `end` (a code action's range), each parsed in full.
    for (let k = blockIndexAt(state.parsed, offset), last = blockIndexAt(state.parsed, end); k <= last; k++) {
      const ref = state.parsed.blocks[k];
      if (!this.outlineBlocks.has(ref.block)) continue;
      blocks ??= state.parsed.blocks.slice();
      blocks[k] = { start: ref.start, block: parseBlock(ref.block.text) };
    }
    return blocks ? { ...state, parsed: { text: state.parsed.text, blocks } } : state;
  }

  /** A block in full: itself, or for an outline its text parsed again (not kept). */
  full(block: Block): Block {
    return this.outlineBlocks.has(block) ? parseBlock(block.text) : block;
  }

  /** Parses every outline of a state in full, in place; what is kept by block moves from each outline to its block. */
  private realizeAll(state: DocumentState): void {
    const blocks = state.parsed.blocks;
    for (let k = 0; k < blocks.length; k++) {
      const outline = blocks[k].block;
      if (!this.outlineBlocks.has(outline)) continue;
      const block = parseBlock(outline.text);
      blocks[k] = { start: blocks[k].start, block };
      for (const move of this.realized) move(outline, block);
    }
    state.outlined = false;
  }

  /**
   * A document just opened, and the outline of its blocks from the pass that published its
   * diagnostics (diagnostics.ts): its state is made of them when first asked for, and a
   * block is parsed in full only when a service needs it.
   */
  outlined(document: EditableDocument, text: string, blocks: BlockRef[]): void {
    for (const ref of blocks) this.outlineBlocks.add(ref.block);
    this.outlines.set(document.uri, { version: document.version, text, blocks });
  }

  /** The environment chosen in this session for every project; undefined when none is (each project's rule decides). */
  get chosen(): string | null | undefined {
    return this.chosenHere;
  }

  set chosen(choice: string | null | undefined) {
    this.chosenHere = choice;
    this.answers.clear();
  }

  /** The folder of a document's URI, when it is a file on this machine. */
  private folderOf(uri: string): string | undefined {
    try {
      return uri.startsWith('file:') ? dirname(fileURLToPath(uri)) : undefined;
    } catch {
      return undefined;
    }
  }

  /** The environment of a document's folder, with the environment the rule answers for its project (none while the user must choose). */
  environmentFor(uri: string): EnvironmentInfo | undefined {
    const dir = this.folderOf(uri);
    if (!dir) return undefined;
    const info = this.environmentsOf(dir);
    if (!info) return undefined;
    const answer = this.answerIn(dir, info);
    return { ...info, selected: answer.state === 'chosen' ? answer.name : undefined };
  }

  /** The rule's answer for a document's project, as every host gives it (the editor's status bar, `lpreq env`). */
  answerFor(uri: string): EnvironmentAnswer | undefined {
    const dir = this.folderOf(uri);
    const info = dir === undefined ? undefined : this.environmentsOf(dir);
    return dir === undefined || info === undefined ? undefined : this.answerIn(dir, info);
  }

  /** The projects (the folders of environment files) of the open documents and the workspace folders, with their environments. */
  projects(): { folder: string; names: string[] }[] {
    const out = new Map<string, string[]>();
    for (const dir of this.knownFolders()) {
      const info = this.environmentsOf(dir);
      const file = info?.sharedFile ?? info?.privateFile;
      if (info && file !== undefined) out.set(dirname(file), Object.keys(info.environments));
    }
    return [...out].map(([folder, names]) => ({ folder, names }));
  }

  /** A project's remembered choice may have changed: the answers are made again when next asked for. */
  forgetAnswers(): void {
    this.answers.clear();
  }

  private answerIn(dir: string, info: EnvironmentInfo): EnvironmentAnswer {
    let answer = this.answers.get(dir);
    if (!answer) {
      const names = Object.keys(info.environments);
      const chosen = this.chosenHere;
      const file = info.sharedFile ?? info.privateFile;
      answer = decideEnvironment(names, {
        // A choice of this session that the folder's files do not have leaves its own rule to decide.
        given: chosen === null || (chosen !== undefined && hasOwn(info.environments, chosen)) ? chosen : undefined,
        remembered: file === undefined ? undefined : this.remembered(dirname(file)),
        preferred: this.preferred,
      });
      this.answers.set(dir, answer);
    }
    return answer;
  }

  /** The names of the environments of every open document's folder and of every workspace folder, sorted. */
  environmentNames(): string[] {
    const names = new Set<string>();
    for (const dir of this.knownFolders())
      for (const name of Object.keys(this.environmentsOf(dir)?.environments ?? {})) names.add(name);
    return [...names].sort();
  }

  /** The folders of the open documents and the workspace folders. */
  private knownFolders(): Set<string> {
    const dirs = new Set<string>(this.rootPaths());
    for (const uri of this.open.keys()) {
      const dir = this.folderOf(uri);
      if (dir !== undefined) dirs.add(dir);
    }
    return dirs;
  }

  /** The environment files of a folder, read once (until they change) and their problems told once. */
  private environmentsOf(dir: string): EnvironmentInfo | undefined {
    if (!this.environments.has(dir)) {
      // Without a file's environments every {{variable}} it defines reads as undefined: say why, once per problem.
      const warn = (message: string) => {
        this.host.log(message);
        if (this.warned.has(message)) return;
        this.warned.add(message);
        this.host.warn(`lpreq: ${message}. Its environments are not used until it is fixed.`);
      };
      let info: EnvironmentInfo | undefined;
      try {
        info = this.host.loadEnvironment(dir, this.rootOf(dir), warn);
        if (info?.sharedFile !== undefined) this.host.readShared?.(info.sharedFile);
      } catch (e) {
        warn(e instanceof EnvironmentFileError ? e.message : `environment files: ${(e as Error).message}`);
      }
      this.environments.set(dir, info);
    }
    return this.environments.get(dir);
  }

  /** The workspace folders (file URIs; others are left out), from initialize and as the client changes them. */
  setRoots(uris: readonly string[]): void {
    this.rootUris = uris;
    const roots: string[] = [];
    for (const uri of uris) {
      try {
        if (uri.startsWith('file:')) roots.push(fileURLToPath(uri));
      } catch {
        // Not a path on this machine: no document of it has environment files here.
      }
    }
    this.inOrder = roots.slice();
    this.roots = roots.sort((a, b) => b.length - a.length);
  }

  /** The workspace folders' paths, in the client's order. */
  rootPaths(): readonly string[] {
    return this.inOrder;
  }

  /** The workspace folder that holds `dir` (the deepest one), if any. */
  rootOf(dir: string): string | undefined {
    return this.roots.find((root) => dir === root || dir.startsWith(root.endsWith(sep) ? root : root + sep));
  }

  /** Whether a file changed is one the environments read: an environment file, or a list of scopes one names (`"$scopes": "scopes.json"`). */
  readsFile(path: string): boolean {
    const name = path.split(/[\\/]/).pop();
    if (name === 'http-client.env.json' || name === 'http-client.private.env.json') return true;
    // A project's chosen environment, kept where every host reads it (`lpreq env`, the editor).
    if (name === 'environment.json' && path.split(/[\\/]/).slice(-2, -1)[0] === '.lpreq') return true;
    for (const info of this.environments.values())
      for (const site of Object.values(info?.scopeSites ?? {})) if (site.listFile === path) return true;
    return false;
  }

  /** The environment files changed: read them again when next asked for, and tell of their problems again. */
  forgetEnvironments(): void {
    this.environments.clear();
    this.answers.clear();
    // A file fixed and broken again is told again.
    this.warned.clear();
  }

  /** Every parse is made again when next asked for (from its blocks): the scope may have changed. */
  invalidate(uri: string): void {
    const state = this.states.get(uri);
    if (state) state.version = Number.NaN;
  }

  opened(uri: string, languageId: string, version: number, text: string): void {
    this.open.set(uri, new EditableDocument(uri, languageId, version, text));
    this.states.delete(uri);
    this.outlines.delete(uri);
    this.desynced.delete(uri);
  }

  closed(uri: string): void {
    this.states.delete(uri);
    this.outlines.delete(uri);
    this.open.delete(uri);
    this.desynced.delete(uri);
  }

  /**
   * Applies a didChange. A malformed one (no text, a position that is not two integers from
   * 0) cannot be placed: the whole notification is refused, as the changes after one are
   * relative to it. The document stays as it was, whole and consistent with its parse, which
   * is built again from its text; the editor's copy may now differ, so the user is told once.
   */
  changed(document: EditableDocument, version: unknown, changes: unknown): void {
    const problem = Number.isSafeInteger(version) ? malformedChange(changes) : 'its version is not an integer';
    if (problem !== undefined) {
      this.host.log(`change: refused a didChange of ${document.uri} (version ${String(version)}): ${problem}`);
      this.states.delete(document.uri);
      if (!this.desynced.has(document.uri)) {
        this.desynced.add(document.uri);
        this.host.warn(
          `lpreq: the editor sent a change to ${document.uri} that cannot be applied (${problem}); its diagnostics may not match the editor's text until the file is closed and opened again.`,
        );
      }
      return;
    }
    for (const change of changes as { range?: Range; text: string }[])
      this.applyChange(document, change, version as number);
  }

  /** Applies one incremental change to the document and, when it is current, to its parse. */
  private applyChange(document: EditableDocument, change: { range?: Range; text: string }, version: number) {
    const state = this.states.get(document.uri);
    if (!change.range) {
      document.update([{ text: change.text }], version);
      // The whole text is new: the parse is made again (from the old one's blocks) when next asked for,
      // even when an earlier change of the same notification brought it to this version.
      if (state) state.version = Number.NaN;
      return;
    }
    const wasCurrent = state !== undefined && state.version === document.version;
    // The parse is edited at the offsets the document applied the change at: one reading of
    // the range (a range given end first included) for both.
    const [{ start, end }] = document.update([{ range: change.range, text: change.text }], version);
    if (!state || !wasCurrent) return;
    // Read around the edit only: the document's whole text is not joined for an edit.
    const {
      document: parsed,
      removed,
      added,
    } = this.host.service().reparse(state.parsed, document, start, end, change.text.length);
    const { scope, key } = state.scopes.update(parsed, state.env, { removed, added });
    state.parsed = parsed;
    state.version = version;
    state.scopeKey = key;
    state.scope = scope;
  }
}
