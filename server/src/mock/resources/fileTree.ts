/** The folder tree shared by the file and folder endpoints (document A): lookups, views, names and copies. */
import {
  type ContextType,
  HttpError,
  type MockContext,
  must,
  nextPosition,
  notFound,
  pathContext,
  pathId,
} from '../context';
import { toInt } from '../params';
import type { MockState, Row } from '../state';

export function rootFolder(state: MockState, type: ContextType, id: number): Row {
  const existing = state.find(
    'folders',
    (f) => f.context_type === type && f.context_id === id && f.parent_folder_id === null,
  );
  if (existing) return existing;
  const name = type === 'Course' ? 'course files' : type === 'Group' ? 'group files' : 'my files';
  return state.insert('folders', {
    context_type: type,
    context_id: id,
    name,
    parent_folder_id: null,
    position: 1,
    created_at: state.now(),
    updated_at: state.now(),
  });
}

export function fullName(state: MockState, folder: Row): string {
  const names: string[] = [];
  let f: Row | undefined = folder;
  for (let depth = 0; f && depth < 64; depth++) {
    names.unshift(String(f.name));
    f = f.parent_folder_id === null ? undefined : state.get('folders', f.parent_folder_id as number);
  }
  return names.join('/');
}

/**
 * Whether a hidden or locked object is so for the caller, when the data says whether it is
 * hidden or locked at all: in a course, a caller without the manage files permission is kept
 * out (the real LMS lets those who manage a course's files see through); the owner of a user or
 * group folder sees through it.
 */
function forCaller(ctx: MockContext, value: unknown, folder: Row | undefined): boolean | undefined {
  if (typeof value !== 'boolean') return undefined;
  return (
    value &&
    folder?.context_type === 'Course' &&
    !ctx.who.may('manage_files', { courses: [folder.context_id as number] })
  );
}

/** A folder as stored, with what follows from the tree: its full name, counts and links. */
export function folderView(ctx: MockContext, folder: Row): Row {
  return {
    ...folder,
    full_name: fullName(ctx.state, folder),
    files_count: ctx.state.rows('files', (x) => x.folder_id === folder.id).length,
    folders_count: ctx.state.rows('folders', (x) => x.parent_folder_id === folder.id).length,
    folders_url: `${ctx.baseUrl}/api/v1/folders/${String(folder.id)}/folders`,
    files_url: `${ctx.baseUrl}/api/v1/folders/${String(folder.id)}/files`,
    hidden_for_user: forCaller(ctx, folder.hidden, folder),
    locked_for_user: forCaller(ctx, folder.locked, folder),
  };
}

/** The simplified content type (document A, File: mime_class), from the content type the file has. */
function mimeClass(contentType: unknown): string | undefined {
  if (typeof contentType !== 'string') return undefined;
  return contentType.startsWith('image/')
    ? 'image'
    : contentType === 'application/pdf'
      ? 'pdf'
      : contentType.startsWith('text/')
        ? 'text'
        : 'file';
}

/** A file as stored, with its download link and what follows from its content type and its folder. */
export function fileView(ctx: MockContext, file: Row): Row {
  const folder = ctx.state.get('folders', file.folder_id as number);
  return {
    ...file,
    url: `${ctx.baseUrl}/files/${String(file.id)}/download`,
    mime_class: mimeClass(file['content-type']),
    hidden_for_user: forCaller(ctx, file.hidden, folder),
    locked_for_user: forCaller(ctx, file.locked, folder),
  };
}

export function folderById(ctx: MockContext, idName: string): Row {
  const text = ctx.bindings.get(idName);
  if (text === 'root') {
    const context = pathContext(ctx) ?? { type: 'User' as const, id: ctx.callerId };
    return rootFolder(ctx.state, context.type, context.id);
  }
  const folder = must(ctx, 'folders', toInt(text), 'folder', text);
  const context = pathContext(ctx);
  if (context && (folder.context_type !== context.type || folder.context_id !== context.id))
    notFound(`folder ${text ?? ''} in this context`);
  return folder;
}

export function fileById(ctx: MockContext): Row {
  const file = must(ctx, 'files', pathId(ctx), 'file');
  const context = pathContext(ctx);
  if (context) {
    const folder = ctx.state.get('folders', file.folder_id as number);
    if (!folder || folder.context_type !== context.type || folder.context_id !== context.id)
      notFound(`file ${String(file.id)} in this context`);
  }
  return file;
}

export function contextFolders(state: MockState, type: ContextType, id: number): Row[] {
  return state.rows('folders', (f) => f.context_type === type && f.context_id === id);
}

/** A name not taken in the folder: `notes.txt` -> `notes-1.txt`. */
export function freeName(taken: (name: string) => boolean, name: string): string {
  if (!taken(name)) return name;
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const ext = dot > 0 ? name.slice(dot) : '';
  for (let n = 1; ; n++) if (!taken(`${stem}-${n}${ext}`)) return `${stem}-${n}${ext}`;
}

/** Applies the on_duplicate rule for a file that is to be named `name` in `folderId`; returns the name to use. */
export function placeFile(ctx: MockContext, folderId: number, name: string, movingId?: number): string {
  const clash = ctx.state.find(
    'files',
    (f) => f.folder_id === folderId && f.display_name === name && f.id !== movingId,
  );
  if (!clash) return name;
  const onDuplicate = ctx.params.get('on_duplicate');
  if (onDuplicate === 'overwrite') {
    ctx.state.remove('files', clash.id as number);
    return name;
  }
  if (onDuplicate === 'rename') {
    return freeName(
      (n) =>
        ctx.state.find('files', (f) => f.folder_id === folderId && f.display_name === n && f.id !== movingId) !==
        undefined,
      name,
    );
  }
  throw new HttpError(
    409,
    `a file named '${name}' already exists in folder ${folderId}; send on_duplicate=overwrite or on_duplicate=rename`,
    'duplicate-name',
    'on_duplicate',
  );
}

export function isInside(state: MockState, folder: Row, ancestor: Row): boolean {
  let f: Row | undefined = folder;
  for (let depth = 0; f && depth < 64; depth++) {
    if (f.id === ancestor.id) return true;
    f = f.parent_folder_id === null ? undefined : state.get('folders', f.parent_folder_id as number);
  }
  return false;
}

export function deleteFolderTree(state: MockState, folder: Row) {
  for (const child of state.rows('folders', (f) => f.parent_folder_id === folder.id)) deleteFolderTree(state, child);
  for (const file of state.rows('files', (f) => f.folder_id === folder.id)) state.remove('files', file.id as number);
  state.remove('folders', folder.id as number);
}

export function copyFolderTree(state: MockState, source: Row, parent: Row, name: string): Row {
  const copy = state.insert('folders', {
    ...source,
    id: undefined,
    name,
    parent_folder_id: parent.id,
    context_type: parent.context_type,
    context_id: parent.context_id,
    created_at: state.now(),
    updated_at: state.now(),
  });
  for (const file of state.rows('files', (f) => f.folder_id === source.id))
    state.insert('files', {
      ...file,
      id: undefined,
      folder_id: copy.id,
      uuid: undefined,
      created_at: state.now(),
      updated_at: state.now(),
    });
  for (const child of state.rows('folders', (f) => f.parent_folder_id === source.id))
    copyFolderTree(state, child, copy, String(child.name));
  return copy;
}

/** Finds (and with `create`, makes) the folder at a path under the context's root. */
export function folderAtPath(ctx: MockContext, root: Row, path: string, create: boolean): Row[] | undefined {
  const chain = [root];
  const parts = path
    .split('/')
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  if (parts[0] === root.name) parts.shift();
  for (const part of parts) {
    const parent = chain[chain.length - 1];
    let next = ctx.state.find('folders', (f) => f.parent_folder_id === parent.id && f.name === part);
    if (!next) {
      if (!create) return undefined;
      next = ctx.state.insert('folders', {
        context_type: parent.context_type,
        context_id: parent.context_id,
        name: part,
        parent_folder_id: parent.id,
        position: nextPosition(ctx.state.rows('folders', (f) => f.parent_folder_id === parent.id)),
        created_at: ctx.state.now(),
        updated_at: ctx.state.now(),
      });
    }
    chain.push(next);
  }
  return chain;
}

export function sortFiles(ctx: MockContext, files: Row[]): Row[] {
  const sort = ctx.params.get('sort') ?? 'name';
  const key = (f: Row): string | number =>
    sort === 'size'
      ? (toInt(f.size) ?? 0)
      : sort === 'created_at'
        ? String(f.created_at ?? '')
        : sort === 'updated_at'
          ? String(f.updated_at ?? f.created_at ?? '')
          : sort === 'content_type'
            ? String(f['content-type'] ?? '')
            : String(f.display_name).toLowerCase();
  const out = [...files].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  return ctx.params.get('order') === 'desc' ? out.reverse() : out;
}
