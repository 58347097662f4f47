/** Files and usage rights (document A). */
import {
  badRequest,
  type ContextType,
  type HandlersOf,
  list,
  listParam,
  must,
  notFound,
  one,
  pathContext,
  pick,
  raw,
} from '../context';
import { firstStep, offerUpload } from '../upload';
import { documentedFields } from '../documented';
import { own } from '../../core';
import { toInt } from '../params';
import type { MockState, Row } from '../state';
import { fileView, folderById, fileById, contextFolders, placeFile, sortFiles } from './fileTree';

/**
 * The storage quota of a context in megabytes: its own `storage_quota_mb`, else its account's
 * default for that kind of context (`default_storage_quota_mb` for courses,
 * `default_group_storage_quota_mb`, `default_user_storage_quota_mb`, as the real LMS keeps
 * them); undefined when the data gives neither.
 */
/** Bytes a folder's context may still take, by its quota; undefined when the data gives no quota or no sizes. */
function roomIn(state: MockState, folder: Row): number | undefined {
  const type = folder.context_type as ContextType;
  const id = folder.context_id as number;
  const quotaMb = quotaMbOf(state, type, id);
  const folderIds = new Set(contextFolders(state, type, id).map((f) => f.id));
  const sizes = state.rows('files', (f) => folderIds.has(f.folder_id)).map((f) => toInt(f.size));
  if (quotaMb === undefined || sizes.some((n) => n === undefined)) return undefined;
  return Math.max(0, quotaMb * 1024 * 1024 - sizes.reduce<number>((sum, n) => sum + (n ?? 0), 0));
}

function quotaMbOf(state: MockState, type: ContextType, id: number): number | undefined {
  const owner = state.get(type === 'Course' ? 'courses' : type === 'Group' ? 'groups' : 'users', id);
  const given = toInt(owner?.storage_quota_mb);
  if (given !== undefined || type === 'Account') return given;
  const courseOfGroup = type === 'Group' ? state.get('courses', owner?.course_id as number) : undefined;
  const accountId =
    type === 'Course'
      ? owner?.account_id
      : type === 'Group'
        ? (owner?.account_id ?? courseOfGroup?.account_id)
        : undefined;
  // A user belongs to no account in the data: the root account's default is theirs.
  const account =
    accountId !== undefined
      ? state.get('accounts', accountId as number)
      : state.find('accounts', (a) => a.parent_account_id === null || a.parent_account_id === undefined);
  const key =
    type === 'Course'
      ? 'default_storage_quota_mb'
      : type === 'Group'
        ? 'default_group_storage_quota_mb'
        : 'default_user_storage_quota_mb';
  return toInt(account && own(account, key));
}

export const fileHandlers = {
  'files.quota': (ctx) => {
    const context = pathContext(ctx);
    if (!context) notFound('context');
    const folderIds = new Set(contextFolders(ctx.state, context.type, context.id).map((f) => f.id));
    const files = ctx.state.rows('files', (f) => folderIds.has(f.folder_id));
    // Document A, Limits: "a quota per course, group and user". What is used is the sizes of the context's files, when each is known.
    const quotaMb = quotaMbOf(ctx.state, context.type, context.id);
    const sizes = files.map((f) => toInt(f.size));
    return one({
      quota: quotaMb === undefined ? undefined : quotaMb * 1024 * 1024,
      quota_used: sizes.every((n) => n !== undefined) ? sizes.reduce<number>((s, n) => s + (n ?? 0), 0) : undefined,
    });
  },
  'files.list': (ctx) => {
    let files: Row[];
    if (ctx.template.startsWith('/api/v1/folders/')) {
      const folder = folderById(ctx, 'id');
      files = ctx.state.rows('files', (f) => f.folder_id === folder.id);
    } else {
      const context = pathContext(ctx);
      if (!context) notFound('context');
      const folderIds = new Set(contextFolders(ctx.state, context.type, context.id).map((f) => f.id));
      files = ctx.state.rows('files', (f) => folderIds.has(f.folder_id));
    }
    const term = ctx.params.get('search_term')?.toLowerCase();
    const types = listParam(ctx, 'content_types');
    files = files.filter((f) => {
      const mime = String(f['content-type'] ?? '');
      return (
        (!term || String(f.display_name).toLowerCase().includes(term)) &&
        (types.length === 0 || types.some((t) => (t.includes('/') ? mime === t : mime.startsWith(`${t}/`))))
      );
    });
    // "names returns only file names; overrides include[]": a file's names and ids, as the real LMS answers.
    if (listParam(ctx, 'only').includes('names'))
      return {
        kind: 'list',
        // Only these: a File's other fields, even those the docs allow to be null, are not there.
        as: 'any',
        items: sortFiles(ctx, files).map((f) => pick(f, ['id', 'uuid', 'folder_id', 'display_name', 'filename'])),
      };
    return list(sortFiles(ctx, files).map((f) => fileView(ctx, f)));
  },
  'files.public_url': (ctx) => {
    const file = fileById(ctx);
    return one({
      public_url: `${ctx.baseUrl}/files/${String(file.id)}/public/${encodeURIComponent(String(file.display_name))}?verifier=mock`,
    });
  },
  'files.show': (ctx) => one(fileView(ctx, fileById(ctx))),
  'files.update': (ctx) => {
    const file = fileById(ctx);
    const folder = must(ctx, 'folders', file.folder_id as number, 'folder');
    let destId = file.folder_id as number;
    const parent = ctx.params.get('parent_folder_id');
    if (parent !== undefined) {
      const dest = ctx.state.get('folders', toInt(parent) ?? -1);
      if (!dest) badRequest(`parent_folder_id: folder ${parent} does not exist`, 'not-found', 'parent_folder_id');
      if (dest.context_type !== folder.context_type || dest.context_id !== folder.context_id)
        badRequest(
          'parent_folder_id must be in the same context as the current folder',
          'other-context',
          'parent_folder_id',
        );
      destId = dest.id as number;
    }
    const name = placeFile(ctx, destId, ctx.params.get('name') ?? String(file.display_name), file.id as number);
    // `name` and `parent_folder_id` are no fields of a File: they rename and move it, above.
    Object.assign(file, { display_name: name, folder_id: destId, updated_at: ctx.state.now() }, documentedFields(ctx));
    return one(fileView(ctx, file));
  },
  'files.delete': (ctx) => {
    const file = fileById(ctx);
    const view = fileView(ctx, file);
    ctx.state.remove('files', file.id as number);
    return one(view);
  },
  // The first step of an upload (upload.ts has the last): the caller has the Manage Files permission (its access statement).
  'files.upload': (ctx) => {
    const folder = folderById(ctx, 'folder_id');
    return raw(200, offerUpload(ctx, firstStep(ctx, folder.id as number, roomIn(ctx.state, folder))));
  },
  'usage_rights.set': (ctx) => {
    const context = pathContext(ctx);
    if (!context) notFound('context');
    const rights = ctx.params.group('usage_rights');
    const ids = listParam(ctx, 'file_ids')
      .map((s) => toInt(s))
      .filter((n): n is number => n !== undefined);
    const folderIds = new Set(contextFolders(ctx.state, context.type, context.id).map((f) => f.id));
    const updated: number[] = [];
    for (const id of ids) {
      const file = ctx.state.get('files', id);
      if (!file || !folderIds.has(file.folder_id)) notFound(`file ${id} in this context`);
      file.usage_rights = { ...rights };
      updated.push(id);
    }
    // What was sent, and what was done; the licenses' names are not shown, so none is given.
    return one({
      legal_copyright: rights.legal_copyright,
      use_justification: rights.use_justification,
      license: rights.license,
      message: `${updated.length} file${updated.length === 1 ? '' : 's'} updated`,
      file_ids: updated,
    });
  },
} satisfies HandlersOf<'files' | 'usage_rights'>;
