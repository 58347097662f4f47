/** Folders (document A). */
import {
  badRequest,
  byPosition,
  type HandlersOf,
  HttpError,
  list,
  nextPosition,
  notFound,
  one,
  pathContext,
} from '../context';
import { documentedFields } from '../documented';
import type { Row } from '../state';
import {
  rootFolder,
  fullName,
  folderView,
  fileView,
  folderById,
  contextFolders,
  freeName,
  placeFile,
  isInside,
  deleteFolderTree,
  copyFolderTree,
  folderAtPath,
} from './fileTree';

export const folderHandlers = {
  'folders.list': (ctx) => {
    const folder = folderById(ctx, 'id');
    return list(
      ctx.state
        .rows('folders', (f) => f.parent_folder_id === folder.id)
        .sort(byPosition)
        .map((f) => folderView(ctx, f)),
    );
  },
  'folders.list_all': (ctx) => {
    const context = pathContext(ctx);
    if (!context) notFound('context');
    rootFolder(ctx.state, context.type, context.id);
    return list(contextFolders(ctx.state, context.type, context.id).map((f) => folderView(ctx, f)));
  },
  'folders.resolve_path': (ctx) => {
    const context = pathContext(ctx);
    if (!context) notFound('context');
    const root = rootFolder(ctx.state, context.type, context.id);
    const path = ctx.bindings.get('full_path') ?? '';
    const parts = path.split('/').filter((p) => p.length > 0);
    const chain = [root];
    for (const part of parts) {
      const parent = chain[chain.length - 1];
      const next = ctx.state.find('folders', (f) => f.parent_folder_id === parent.id && f.name === part);
      if (!next) notFound(`folder path '${parts.join('/')}'`);
      chain.push(next);
    }
    return list(chain.map((f) => folderView(ctx, f)));
  },
  'folders.show': (ctx) => one(folderView(ctx, folderById(ctx, 'id'))),
  'folders.update': (ctx) => {
    const folder = folderById(ctx, 'id');
    if (ctx.params.has('parent_folder_id')) {
      const dest = ctx.state.get('folders', ctx.params.int('parent_folder_id') ?? -1);
      if (!dest)
        badRequest(
          `parent_folder_id: folder ${ctx.params.get('parent_folder_id') ?? ''} does not exist`,
          'not-found',
          'parent_folder_id',
        );
      if (dest.context_type !== folder.context_type || dest.context_id !== folder.context_id)
        badRequest('parent_folder_id must be in the same context', 'other-context', 'parent_folder_id');
      if (isInside(ctx.state, dest, folder))
        badRequest('a folder cannot be moved into itself', 'invalid-move', 'parent_folder_id');
      folder.parent_folder_id = dest.id;
    }
    Object.assign(folder, documentedFields(ctx, { except: ['parent_folder_id'] }));
    folder.updated_at = ctx.state.now();
    return one(folderView(ctx, folder));
  },
  'folders.create': (ctx) => {
    let parent: Row;
    if (ctx.bindings.has('folder_id')) parent = folderById(ctx, 'folder_id');
    else {
      const context = pathContext(ctx);
      if (!context) notFound('context');
      const root = rootFolder(ctx.state, context.type, context.id);
      parent = root;
      if (ctx.params.has('parent_folder_id')) {
        const p = ctx.state.get('folders', ctx.params.int('parent_folder_id') ?? -1);
        if (!p || p.context_type !== context.type || p.context_id !== context.id)
          notFound(`folder ${ctx.params.get('parent_folder_id') ?? ''} in this context`);
        parent = p;
      } else if (ctx.params.has('parent_folder_path')) {
        const chain = folderAtPath(ctx, root, ctx.params.get('parent_folder_path') ?? '', true);
        parent = chain?.[chain.length - 1] ?? root;
      }
    }
    // The parent is found above; the name must be free in it.
    const fields = documentedFields(ctx, { except: ['parent_folder_id'] });
    const name = typeof fields.name === 'string' ? fields.name : 'New Folder';
    if (ctx.state.find('folders', (f) => f.parent_folder_id === parent.id && f.name === name)) {
      throw new HttpError(
        409,
        `a folder named '${name}' already exists in ${fullName(ctx.state, parent)}`,
        'duplicate-name',
        'name',
      );
    }
    const folder = ctx.state.insert('folders', {
      context_type: parent.context_type,
      context_id: parent.context_id,
      parent_folder_id: parent.id,
      position: nextPosition(ctx.state.rows('folders', (f) => f.parent_folder_id === parent.id)),
      ...fields,
      name,
      created_at: ctx.state.now(),
      updated_at: ctx.state.now(),
    });
    return one(folderView(ctx, folder));
  },
  'folders.delete': (ctx) => {
    const folder = folderById(ctx, 'id');
    if (folder.parent_folder_id === null) badRequest('the root folder of a context cannot be deleted', 'root-folder');
    const view = folderView(ctx, folder);
    if (((view.files_count as number) > 0 || (view.folders_count as number) > 0) && ctx.params.bool('force') !== true) {
      throw new HttpError(
        409,
        `folder ${String(folder.id)} is not empty (${String(view.files_count)} files, ${String(view.folders_count)} folders); send force=true to delete it with its contents`,
        'folder-not-empty',
        'force',
      );
    }
    deleteFolderTree(ctx.state, folder);
    return { kind: 'one', value: view, as: 'Folder' };
  },
  'folders.copy_file': (ctx) => {
    const dest = folderById(ctx, 'dest_folder_id');
    const source = ctx.state.get('files', ctx.params.int('source_file_id') ?? -1);
    if (!source) notFound(`file ${ctx.params.get('source_file_id') ?? ''}`);
    const name = placeFile(ctx, dest.id as number, String(source.display_name));
    const copy = ctx.state.insert('files', {
      ...source,
      id: undefined,
      uuid: undefined,
      folder_id: dest.id,
      display_name: name,
      created_at: ctx.state.now(),
      updated_at: ctx.state.now(),
    });
    return one(fileView(ctx, copy));
  },
  'folders.copy_folder': (ctx) => {
    const dest = folderById(ctx, 'dest_folder_id');
    const source = ctx.state.get('folders', ctx.params.int('source_folder_id') ?? -1);
    if (!source) notFound(`folder ${ctx.params.get('source_folder_id') ?? ''}`);
    if (isInside(ctx.state, dest, source))
      badRequest('the source folder contains the destination folder', 'invalid-copy', 'source_folder_id');
    const name = freeName(
      (n) => ctx.state.find('folders', (f) => f.parent_folder_id === dest.id && f.name === n) !== undefined,
      String(source.name),
    );
    return one(folderView(ctx, copyFolderTree(ctx.state, source, dest, name)));
  },
} satisfies HandlersOf<'folders'>;
