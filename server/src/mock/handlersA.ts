/** Document A: external tools, modules, appointment groups, files and folders, roles. */
import { toBool, toInt } from './params';
import type { MockState, Row } from './state';
import { own, setOwn } from '../core/own';
import {
  account,
  badRequest,
  byPosition,
  course,
  HttpError,
  includes,
  list,
  listParam,
  must,
  nextPosition,
  notFound,
  one,
  pathContext,
  pathId,
  pick,
  type ContextType,
  type Handler,
  type MockContext,
} from './context';

// ---------------------------------------------------------------- external tools

const PLACEMENTS = [
  'account_navigation', 'assignment_selection', 'course_home_sub_navigation', 'course_navigation', 'editor_button',
  'homework_submission', 'link_selection', 'migration_selection', 'resource_selection', 'tool_configuration', 'user_navigation',
] as const;

function toolsOf(ctx: MockContext): { rows: Row[]; context: { type: ContextType; id: number } } {
  const context = pathContext(ctx);
  if (!context) notFound('context');
  return { rows: ctx.state.rows('external_tools', (t) => t.context_type === context.type && t.context_id === context.id), context };
}

function tool(ctx: MockContext, id: unknown): Row {
  const { rows } = toolsOf(ctx);
  const found = rows.find((t) => t.id === toInt(id));
  if (!found) notFound(`external tool ${String(id)}`);
  return found;
}

// ---------------------------------------------------------------- modules

function moduleOf(ctx: MockContext, idName = 'id'): Row {
  const c = course(ctx);
  const m = ctx.state.get('modules', pathId(ctx, idName));
  if (!m || m.course_id !== c.id) notFound(`module ${ctx.bindings.get(idName) ?? ''} in course ${String(c.id)}`);
  return m;
}

function itemView(ctx: MockContext, item: Row, contentDetails: boolean): Row {
  const base = `${ctx.baseUrl}/api/v1/courses/${String(item.course_id)}`;
  const view: Row = { ...item, html_url: `${base.replace('/api/v1', '')}/modules/items/${String(item.id)}`, url: `${base}/modules/${String(item.module_id)}/items/${String(item.id)}` };
  if (item.completion_requirement === undefined) view.completion_requirement = { type: 'must_view' };
  if (contentDetails) {
    const assignment = item.type === 'Assignment' ? ctx.state.get('assignments', item.content_id as number) : undefined;
    view.content_details = {
      points_possible: assignment?.points_possible ?? 0,
      due_at: assignment?.due_at,
      unlock_at: item.unlock_at,
      lock_at: item.lock_at,
      locked_for_user: false,
      lock_explanation: '',
      lock_info: { asset_string: `${String(item.type).toLowerCase()}_${String(item.content_id ?? item.id)}` },
    };
  }
  return view;
}

function itemsOf(ctx: MockContext, module: Row): Row[] {
  return ctx.state.rows('module_items', (i) => i.module_id === module.id).sort(byPosition);
}

function moduleView(ctx: MockContext, module: Row): Row {
  const items = itemsOf(ctx, module);
  const view: Row = {
    ...module,
    items_count: items.length,
    items_url: `${ctx.baseUrl}/api/v1/courses/${String(module.course_id)}/modules/${String(module.id)}/items`,
    prerequisite_module_ids: module.prerequisite_module_ids ?? [],
    workflow_state: module.workflow_state ?? 'active',
  };
  // Doc A, Module: state and completed_at are present only for a student caller or when student_id is given.
  const studentCaller = ctx.state.find('enrollments', (e) => e.course_id === module.course_id && e.user_id === ctx.state.selfUserId && e.type === 'StudentEnrollment') !== undefined;
  if (studentCaller || ctx.params.has('student_id')) {
    view.state = 'unlocked';
    view.completed_at = null;
  } else {
    delete view.state;
    delete view.completed_at;
  }
  if (includes(ctx, 'items')) {
    const term = ctx.params.get('search_term')?.toLowerCase();
    view.items = items.filter((i) => !term || String(i.title ?? '').toLowerCase().includes(term)).map((i) => itemView(ctx, i, includes(ctx, 'content_details')));
  }
  return view;
}

const MODULE_FIELDS = ['name', 'unlock_at', 'position', 'require_sequential_progress', 'prerequisite_module_ids', 'publish_final_grade', 'published'] as const;

function writeModule(ctx: MockContext, target: Row) {
  const fields = pick(ctx.params.group('module'), MODULE_FIELDS);
  if (fields.prerequisite_module_ids !== undefined) {
    fields.prerequisite_module_ids = (fields.prerequisite_module_ids as unknown[]).map(toInt).filter((n) => n !== undefined);
  }
  for (const k of ['position'] as const) if (fields[k] !== undefined) fields[k] = toInt(fields[k]) ?? target[k];
  for (const k of ['published', 'require_sequential_progress', 'publish_final_grade'] as const) if (fields[k] !== undefined) fields[k] = toBool(fields[k]);
  Object.assign(target, fields);
}

/**
 * Puts a module at its (new) 1-based position among the course's other modules, which
 * move up or down by one so that positions stay unique; `from` is where it was (one past
 * the last for a new module). A position past the end is the end.
 */
function moveModule(others: Row[], module: Row, from: number) {
  const last = nextPosition(others);
  const to = Math.min(Math.max(toInt(module.position) ?? from, 1), last);
  module.position = to;
  for (const o of others) {
    const p = toInt(o.position) ?? 0;
    if (to < from && p >= to && p < from) o.position = p + 1;
    else if (to > from && p > from && p <= to) o.position = p - 1;
  }
}

function itemTitle(state: MockState, type: string, contentId: number | undefined, fallback: unknown): string {
  if (typeof fallback === 'string' && fallback) return fallback;
  const source =
    type === 'Assignment' ? state.get('assignments', contentId ?? 0)?.name
    : type === 'Quiz' ? state.get('quizzes', contentId ?? 0)?.title
    : type === 'File' ? state.get('files', contentId ?? 0)?.display_name
    : type === 'ExternalTool' ? state.get('external_tools', contentId ?? 0)?.name
    : undefined;
  return typeof source === 'string' ? source : `${type} ${contentId ?? ''}`.trim();
}

function writeItem(ctx: MockContext, target: Row) {
  const g = ctx.params.group('module_item');
  const fields = pick(g, ['title', 'type', 'content_id', 'position', 'indent', 'page_url', 'external_url', 'new_tab', 'published']);
  if (fields.content_id !== undefined) fields.content_id = toInt(fields.content_id);
  if (fields.position !== undefined) fields.position = toInt(fields.position);
  if (fields.indent !== undefined) fields.indent = toInt(fields.indent);
  for (const k of ['new_tab', 'published'] as const) if (fields[k] !== undefined) fields[k] = toBool(fields[k]);
  const req = g.completion_requirement as Row | undefined;
  if (req && typeof req === 'object') fields.completion_requirement = { ...(target.completion_requirement as Row | undefined), ...pick(req, ['type', 'min_score']), completed: false };
  Object.assign(target, fields);
}

// ---------------------------------------------------------------- appointment groups

function appointmentGroup(ctx: MockContext): Row {
  const g = ctx.state.get('appointment_groups', pathId(ctx));
  if (!g || g.workflow_state === 'deleted') notFound(`appointment group ${ctx.bindings.get('id') ?? ''}`);
  return g;
}

function appointmentsOf(state: MockState, group: Row): Row[] {
  return state.rows('calendar_events', (e) => e.appointment_group_id === group.id);
}

function groupView(ctx: MockContext, group: Row, withAppointments: boolean): Row {
  const appointments = appointmentsOf(ctx.state, group);
  const view: Row = {
    ...group,
    appointments_count: appointments.length,
    requiring_action: false,
    url: `${ctx.baseUrl}/api/v1/appointment_groups/${String(group.id)}`,
    html_url: `${ctx.baseUrl}/appointment_groups/${String(group.id)}`,
  };
  if (withAppointments) view.appointments = appointments;
  if (includes(ctx, 'participant_count')) view.participant_count = new Set(appointments.flatMap((a) => (a.reserved_user_ids as unknown[]) ?? [])).size;
  if (includes(ctx, 'reserved_times')) view.reserved_times = appointments.filter((a) => ((a.reserved_user_ids as unknown[]) ?? []).length > 0).map((a) => pick(a, ['id', 'start_at', 'end_at']));
  return view;
}

function writeAppointmentGroup(ctx: MockContext, group: Row, creating: boolean): Row[] {
  const g = ctx.params.group('appointment_group');
  const fields = pick(g, ['title', 'description', 'location_name', 'location_address', 'participant_visibility', 'context_codes', 'sub_context_codes']);
  for (const k of ['participants_per_appointment', 'min_appointments_per_participant', 'max_appointments_per_participant'] as const) {
    if (g[k] !== undefined) fields[k] = toInt(g[k]) ?? null;
  }
  for (const code of (fields.context_codes as string[] | undefined) ?? []) {
    const m = /^course_(\d+)$/.exec(code);
    if (!m || !ctx.state.get('courses', m[1])) badRequest(`appointment_group[context_codes][]: ${code} is not a course of this institution`, 'invalid-context', 'appointment_group[context_codes][]');
  }
  const publish = toBool(g.publish);
  if (publish === false && !creating && group.workflow_state === 'active') {
    badRequest('an appointment group cannot be unpublished once it is published', 'cannot-unpublish', 'appointment_group[publish]');
  }
  Object.assign(group, fields);
  if (Array.isArray(fields.sub_context_codes) && fields.sub_context_codes.some((c) => String(c).startsWith('group_category_'))) group.participant_type = 'Group';
  if (publish === true) group.workflow_state = 'active';
  group.updated_at = ctx.state.now();
  const created: Row[] = [];
  const slots = g.new_appointments;
  if (slots && typeof slots === 'object') {
    for (const pair of Object.values(slots as Record<string, unknown>)) {
      if (!Array.isArray(pair) || pair.length < 2) continue;
      created.push({ start_at: String(pair[0]), end_at: String(pair[1]) });
    }
  }
  return created;
}

// ---------------------------------------------------------------- files and folders

function rootFolder(state: MockState, type: ContextType, id: number): Row {
  const existing = state.find('folders', (f) => f.context_type === type && f.context_id === id && f.parent_folder_id === null);
  if (existing) return existing;
  const name = type === 'Course' ? 'course files' : type === 'Group' ? 'group files' : 'my files';
  return state.insert('folders', { context_type: type, context_id: id, name, parent_folder_id: null, position: 1, created_at: state.now(), updated_at: state.now() });
}

function fullName(state: MockState, folder: Row): string {
  const names: string[] = [];
  let f: Row | undefined = folder;
  for (let depth = 0; f && depth < 64; depth++) {
    names.unshift(String(f.name));
    f = f.parent_folder_id === null ? undefined : state.get('folders', f.parent_folder_id as number);
  }
  return names.join('/');
}

function folderView(ctx: MockContext, folder: Row): Row {
  return {
    ...folder,
    full_name: fullName(ctx.state, folder),
    files_count: ctx.state.rows('files', (x) => x.folder_id === folder.id).length,
    folders_count: ctx.state.rows('folders', (x) => x.parent_folder_id === folder.id).length,
    folders_url: `${ctx.baseUrl}/api/v1/folders/${String(folder.id)}/folders`,
    files_url: `${ctx.baseUrl}/api/v1/folders/${String(folder.id)}/files`,
    locked: folder.locked ?? false,
    hidden: folder.hidden ?? false,
    hidden_for_user: false,
    locked_for_user: false,
    for_submissions: false,
  };
}

function fileView(ctx: MockContext, file: Row): Row {
  const name = String(file.display_name);
  const mime = String(file['content-type'] ?? 'application/octet-stream');
  return {
    ...file,
    filename: file.filename ?? name,
    uuid: file.uuid ?? `f${String(file.id)}uuid`,
    url: `${ctx.baseUrl}/files/${String(file.id)}/download`,
    modified_at: file.updated_at ?? file.created_at,
    updated_at: file.updated_at ?? file.created_at,
    mime_class: mime.startsWith('image/') ? 'image' : mime === 'application/pdf' ? 'pdf' : mime.startsWith('text/') ? 'text' : 'file',
    locked: file.locked ?? false,
    hidden: file.hidden ?? false,
    thumbnail_url: null,
    lock_info: null,
  };
}

function folderById(ctx: MockContext, idName: string): Row {
  const text = ctx.bindings.get(idName);
  if (text === 'root') {
    const context = pathContext(ctx) ?? { type: 'User' as const, id: ctx.state.selfUserId };
    return rootFolder(ctx.state, context.type, context.id);
  }
  const folder = must(ctx, 'folders', toInt(text), 'folder', text);
  const context = pathContext(ctx);
  if (context && (folder.context_type !== context.type || folder.context_id !== context.id)) notFound(`folder ${text ?? ''} in this context`);
  return folder;
}

function fileById(ctx: MockContext): Row {
  const file = must(ctx, 'files', pathId(ctx), 'file');
  const context = pathContext(ctx);
  if (context) {
    const folder = ctx.state.get('folders', file.folder_id as number);
    if (!folder || folder.context_type !== context.type || folder.context_id !== context.id) notFound(`file ${String(file.id)} in this context`);
  }
  return file;
}

function contextFolders(state: MockState, type: ContextType, id: number): Row[] {
  return state.rows('folders', (f) => f.context_type === type && f.context_id === id);
}

/** A name not taken in the folder: `notes.txt` -> `notes-1.txt`. */
function freeName(taken: (name: string) => boolean, name: string): string {
  if (!taken(name)) return name;
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const ext = dot > 0 ? name.slice(dot) : '';
  for (let n = 1; ; n++) if (!taken(`${stem}-${n}${ext}`)) return `${stem}-${n}${ext}`;
}

/** Applies the on_duplicate rule for a file that is to be named `name` in `folderId`; returns the name to use. */
function placeFile(ctx: MockContext, folderId: number, name: string, movingId?: number): string {
  const clash = ctx.state.find('files', (f) => f.folder_id === folderId && f.display_name === name && f.id !== movingId);
  if (!clash) return name;
  const onDuplicate = ctx.params.get('on_duplicate');
  if (onDuplicate === 'overwrite') {
    ctx.state.remove('files', clash.id as number);
    return name;
  }
  if (onDuplicate === 'rename') {
    return freeName((n) => ctx.state.find('files', (f) => f.folder_id === folderId && f.display_name === n && f.id !== movingId) !== undefined, name);
  }
  throw new HttpError(409, `a file named '${name}' already exists in folder ${folderId}; send on_duplicate=overwrite or on_duplicate=rename`, 'duplicate-name', 'on_duplicate');
}

function isInside(state: MockState, folder: Row, ancestor: Row): boolean {
  let f: Row | undefined = folder;
  for (let depth = 0; f && depth < 64; depth++) {
    if (f.id === ancestor.id) return true;
    f = f.parent_folder_id === null ? undefined : state.get('folders', f.parent_folder_id as number);
  }
  return false;
}

function deleteFolderTree(state: MockState, folder: Row) {
  for (const child of state.rows('folders', (f) => f.parent_folder_id === folder.id)) deleteFolderTree(state, child);
  for (const file of state.rows('files', (f) => f.folder_id === folder.id)) state.remove('files', file.id as number);
  state.remove('folders', folder.id as number);
}

function copyFolderTree(state: MockState, source: Row, parent: Row, name: string): Row {
  const copy = state.insert('folders', { ...source, id: undefined, name, parent_folder_id: parent.id, context_type: parent.context_type, context_id: parent.context_id, created_at: state.now(), updated_at: state.now() });
  for (const file of state.rows('files', (f) => f.folder_id === source.id)) state.insert('files', { ...file, id: undefined, folder_id: copy.id, uuid: undefined, created_at: state.now(), updated_at: state.now() });
  for (const child of state.rows('folders', (f) => f.parent_folder_id === source.id)) copyFolderTree(state, child, copy, String(child.name));
  return copy;
}

/** Finds (and with `create`, makes) the folder at a path under the context's root. */
function folderAtPath(ctx: MockContext, root: Row, path: string, create: boolean): Row[] | undefined {
  const chain = [root];
  const parts = path.split('/').map((p) => p.trim()).filter((p) => p.length > 0);
  if (parts[0] === root.name) parts.shift();
  for (const part of parts) {
    const parent = chain[chain.length - 1];
    let next = ctx.state.find('folders', (f) => f.parent_folder_id === parent.id && f.name === part);
    if (!next) {
      if (!create) return undefined;
      next = ctx.state.insert('folders', { context_type: parent.context_type, context_id: parent.context_id, name: part, parent_folder_id: parent.id, position: nextPosition(ctx.state.rows('folders', (f) => f.parent_folder_id === parent.id)), created_at: ctx.state.now(), updated_at: ctx.state.now() });
    }
    chain.push(next);
  }
  return chain;
}

function sortFiles(ctx: MockContext, files: Row[]): Row[] {
  const sort = ctx.params.get('sort') ?? 'name';
  const key = (f: Row): string | number =>
    sort === 'size' ? (toInt(f.size) ?? 0)
    : sort === 'created_at' ? String(f.created_at ?? '')
    : sort === 'updated_at' ? String(f.updated_at ?? f.created_at ?? '')
    : sort === 'content_type' ? String(f['content-type'] ?? '')
    : String(f.display_name).toLowerCase();
  const out = [...files].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  return ctx.params.get('order') === 'desc' ? out.reverse() : out;
}

// ---------------------------------------------------------------- roles

const DEFAULT_PERMISSIONS = new Map<string, string[]>(Object.entries({
  StudentEnrollment: ['read_forum', 'post_to_forum', 'read_announcements'],
  TeacherEnrollment: ['manage_grades', 'manage_content', 'read_roster'],
  TaEnrollment: ['manage_grades', 'read_roster'],
  DesignerEnrollment: ['manage_content', 'manage_wiki'],
  ObserverEnrollment: ['read_forum', 'read_announcements'],
  AccountMembership: ['read_course_list', 'view_statistics'],
}));

function roleView(ctx: MockContext, role: Row): Row {
  const acct = ctx.state.get('accounts', role.account_id as number) ?? {};
  const permissions: Row = {};
  for (const name of DEFAULT_PERMISSIONS.get(String(role.base_role_type)) ?? []) {
    setOwn(permissions, name, { enabled: true, locked: false, readonly: role.workflow_state === 'built_in', explicit: false });
  }
  for (const [name, p] of Object.entries((role.permissions as Row | undefined) ?? {})) setOwn(permissions, name, { readonly: false, explicit: true, enabled: false, locked: false, ...(p as Row) });
  return { ...role, account: pick(acct, ['id', 'name', 'parent_account_id', 'root_account_id', 'sis_account_id']), permissions };
}

function roleOf(ctx: MockContext): Row {
  const acct = account(ctx);
  const text = ctx.bindings.get('id') ?? '';
  const role = ctx.state.find('roles', (r) => r.account_id === acct.id && (String(r.id) === text || r.role === text));
  if (!role) notFound(`role ${text} in account ${String(acct.id)}`);
  return role;
}

function writePermissions(ctx: MockContext, role: Row) {
  const sent = ctx.params.group('permissions');
  const current = { ...((role.permissions as Row | undefined) ?? {}) };
  for (const [name, value] of Object.entries(sent)) {
    if (!value || typeof value !== 'object') continue;
    const p = value as Row;
    const entry: Row = { ...(own(current, name) as Row | undefined) };
    for (const k of ['explicit', 'enabled', 'locked', 'applies_to_self', 'applies_to_descendants'] as const) if (p[k] !== undefined) entry[k] = toBool(p[k]) ?? false;
    setOwn(current, name, entry);
  }
  role.permissions = current;
}

// ---------------------------------------------------------------- the handlers

export const handlersA: Record<string, Handler> = {
  'external_tools.list': (ctx) => {
    const term = ctx.params.get('search_term')?.toLowerCase();
    return list(toolsOf(ctx).rows.filter((t) => !term || String(t.name).toLowerCase().includes(term)));
  },
  'external_tools.sessionless_launch': (ctx) => {
    const { rows } = toolsOf(ctx);
    const id = ctx.params.get('id');
    const t = id !== undefined ? rows.find((r) => String(r.id) === id) : ctx.params.get('url') ? rows.find((r) => r.url === ctx.params.get('url')) : rows[0];
    if (!t) notFound(`external tool ${id ?? ''}`.trim());
    return one({ id: t.id, name: t.name, url: `${ctx.baseUrl}/api/v1/external_tools/${String(t.id)}/sessionless_launch?verifier=${String(t.id)}-mock` });
  },
  'external_tools.show': (ctx) => one(tool(ctx, ctx.bindings.get('external_tool_id'))),
  'external_tools.create': (ctx) => {
    const { context } = toolsOf(ctx);
    const n = ctx.params.nested;
    const row: Row = { ...pick(n, ['name', 'privacy_level', 'consumer_key', 'description', 'url', 'domain', 'icon_url', 'custom_fields', 'not_selectable']), context_type: context.type, context_id: context.id, created_at: ctx.state.now(), updated_at: ctx.state.now() };
    if (!row.domain && typeof row.url === 'string') row.domain = /^https?:\/\/([^/]+)/.exec(row.url)?.[1];
    for (const p of PLACEMENTS) if (n[p] && typeof n[p] === 'object') row[p] = n[p];
    return one(ctx.state.insert('external_tools', row));
  },

  'modules.list': (ctx) => {
    const c = course(ctx);
    const term = ctx.params.get('search_term')?.toLowerCase();
    const modules = ctx.state.rows('modules', (m) => m.course_id === c.id).sort(byPosition);
    return list(modules.filter((m) => !term || String(m.name).toLowerCase().includes(term) || (includes(ctx, 'items') && itemsOf(ctx, m).some((i) => String(i.title ?? '').toLowerCase().includes(term)))).map((m) => moduleView(ctx, m)));
  },
  'modules.show': (ctx) => one(moduleView(ctx, moduleOf(ctx))),
  'modules.create': (ctx) => {
    const c = course(ctx);
    const others = ctx.state.rows('modules', (x) => x.course_id === c.id);
    const last = nextPosition(others);
    const m: Row = { course_id: c.id, workflow_state: 'active', published: false, require_sequential_progress: false, prerequisite_module_ids: [], position: last };
    writeModule(ctx, m);
    moveModule(others, m, last);
    return one(moduleView(ctx, ctx.state.insert('modules', m)));
  },
  'modules.update': (ctx) => {
    const m = moduleOf(ctx);
    const from = toInt(m.position) ?? 1;
    writeModule(ctx, m);
    moveModule(
      ctx.state.rows('modules', (x) => x.course_id === m.course_id && x.id !== m.id),
      m,
      from,
    );
    if (m.published !== undefined) for (const item of itemsOf(ctx, m)) if (m.published === true && item.published === undefined) item.published = true;
    return one(moduleView(ctx, m));
  },
  'modules.delete': (ctx) => {
    const m = moduleOf(ctx);
    const view = moduleView(ctx, m);
    for (const item of itemsOf(ctx, m)) ctx.state.remove('module_items', item.id as number);
    ctx.state.remove('modules', m.id as number);
    return one({ ...view, workflow_state: 'deleted', items_count: 0 });
  },
  'modules.relock': (ctx) => one(moduleView(ctx, moduleOf(ctx))),

  'module_items.list': (ctx) => {
    const m = moduleOf(ctx, 'module_id');
    const term = ctx.params.get('search_term')?.toLowerCase();
    return list(itemsOf(ctx, m).filter((i) => !term || String(i.title ?? '').toLowerCase().includes(term)).map((i) => itemView(ctx, i, includes(ctx, 'content_details'))));
  },
  'module_items.show': (ctx) => {
    const m = moduleOf(ctx, 'module_id');
    const item = ctx.state.get('module_items', pathId(ctx));
    if (!item || item.module_id !== m.id) notFound(`module item ${ctx.bindings.get('id') ?? ''} in module ${String(m.id)}`);
    return one(itemView(ctx, item, includes(ctx, 'content_details')));
  },
  'module_items.create': (ctx) => {
    const m = moduleOf(ctx, 'module_id');
    const siblings = itemsOf(ctx, m);
    const item: Row = { module_id: m.id, course_id: m.course_id, indent: 0, published: false, position: nextPosition(siblings) };
    writeItem(ctx, item);
    item.title = itemTitle(ctx.state, String(item.type), item.content_id as number | undefined, item.title);
    return one(itemView(ctx, ctx.state.insert('module_items', item), false));
  },
  'module_items.update': (ctx) => {
    const m = moduleOf(ctx, 'module_id');
    const item = ctx.state.get('module_items', pathId(ctx));
    if (!item || item.module_id !== m.id) notFound(`module item ${ctx.bindings.get('id') ?? ''} in module ${String(m.id)}`);
    const target = toInt(ctx.params.group('module_item').module_id);
    writeItem(ctx, item);
    if (target !== undefined && target !== m.id) {
      const dest = ctx.state.get('modules', target);
      if (!dest || dest.course_id !== m.course_id) badRequest(`module_item[module_id]: module ${target} is not in this course`, 'not-found', 'module_item[module_id]');
      item.module_id = target;
    }
    return one(itemView(ctx, item, false));
  },

  'appointment_groups.list': (ctx) => {
    const codes = listParam(ctx, 'context_codes');
    const manageable = ctx.params.get('scope') === 'manageable';
    const groups = ctx.state.rows('appointment_groups', (g) => g.workflow_state !== 'deleted' && (manageable || g.workflow_state === 'active') && (codes.length === 0 || (g.context_codes as string[]).some((c) => codes.includes(c))));
    return list(groups.map((g) => groupView(ctx, g, includes(ctx, 'appointments'))));
  },
  'appointment_groups.create': (ctx) => {
    const group: Row = { workflow_state: 'pending', participant_type: 'User', participant_visibility: 'private', sub_context_codes: [], participants_per_appointment: null, min_appointments_per_participant: 0, max_appointments_per_participant: null, created_at: ctx.state.now() };
    const slots = writeAppointmentGroup(ctx, group, true);
    const stored = ctx.state.insert('appointment_groups', group);
    const created = slots.map((s) => ctx.state.insert('calendar_events', { ...s, appointment_group_id: stored.id, title: stored.title, reserved_user_ids: [] }));
    const times = created.map((e) => String(e.start_at)).concat(created.map((e) => String(e.end_at))).sort();
    if (times.length) Object.assign(stored, { start_at: times[0], end_at: times[times.length - 1] });
    const view = groupView(ctx, stored, false);
    if (created.length) view.new_appointments = created;
    return one(view);
  },
  'appointment_groups.show': (ctx) => one(groupView(ctx, appointmentGroup(ctx), true)),
  'appointment_groups.update': (ctx) => {
    const group = appointmentGroup(ctx);
    const slots = writeAppointmentGroup(ctx, group, false);
    const created = slots.map((s) => ctx.state.insert('calendar_events', { ...s, appointment_group_id: group.id, title: group.title, reserved_user_ids: [] }));
    const view = groupView(ctx, group, false);
    if (created.length) view.new_appointments = created;
    return one(view);
  },
  'appointment_groups.delete': (ctx) => {
    const group = appointmentGroup(ctx);
    group.workflow_state = 'deleted';
    group.cancel_reason = ctx.params.get('cancel_reason');
    for (const e of appointmentsOf(ctx.state, group)) ctx.state.remove('calendar_events', e.id as number);
    return one(groupView(ctx, group, false));
  },
  'appointment_groups.users': (ctx) => {
    const group = appointmentGroup(ctx);
    if (group.participant_type === 'Group') return list([]);
    const courseIds = (group.context_codes as string[]).map((c) => toInt(c.replace(/^course_/, '')));
    const reserved = new Set(appointmentsOf(ctx.state, group).flatMap((a) => (a.reserved_user_ids as number[]) ?? []));
    const registered = ctx.params.get('registration_status') === 'registered';
    const ids = new Set(ctx.state.rows('enrollments', (e) => courseIds.includes(e.course_id as number) && e.type === 'StudentEnrollment').map((e) => e.user_id as number));
    return list([...ids].filter((id) => !registered || reserved.has(id)).map((id) => ctx.state.get('users', id)).filter((u) => u !== undefined));
  },
  'appointment_groups.groups': (ctx) => {
    const group = appointmentGroup(ctx);
    if (group.participant_type !== 'Group') return list([]);
    const courseIds = (group.context_codes as string[]).map((c) => toInt(c.replace(/^course_/, '')));
    return list(ctx.state.rows('groups', (g) => courseIds.includes(g.course_id as number)));
  },
  'appointment_groups.next_appointment': (ctx) => {
    const wanted = listParam(ctx, 'appointment_group_ids').map((s) => toInt(s));
    const now = ctx.state.now();
    const open = ctx.state
      .rows('calendar_events', (e) => {
        const g = ctx.state.get('appointment_groups', e.appointment_group_id as number);
        return g !== undefined && g.workflow_state === 'active' && (wanted.length === 0 || wanted.includes(g.id as number)) && String(e.start_at) >= now && ((e.reserved_user_ids as unknown[]) ?? []).length === 0;
      })
      .sort((a, b) => (String(a.start_at) < String(b.start_at) ? -1 : 1));
    return list(open.slice(0, 1));
  },

  'files.quota': (ctx) => {
    const context = pathContext(ctx);
    if (!context) notFound('context');
    const folderIds = new Set(contextFolders(ctx.state, context.type, context.id).map((f) => f.id));
    const used = ctx.state.rows('files', (f) => folderIds.has(f.folder_id)).reduce((s, f) => s + (toInt(f.size) ?? 0), 0);
    return one({ quota: 524288000, quota_used: used });
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
      return (!term || String(f.display_name).toLowerCase().includes(term)) && (types.length === 0 || types.some((t) => (t.includes('/') ? mime === t : mime.startsWith(`${t}/`))));
    });
    return list(sortFiles(ctx, files).map((f) => fileView(ctx, f)));
  },
  'files.public_url': (ctx) => {
    const file = fileById(ctx);
    return one({ public_url: `${ctx.baseUrl}/files/${String(file.id)}/public/${encodeURIComponent(String(file.display_name))}?verifier=mock` });
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
      if (dest.context_type !== folder.context_type || dest.context_id !== folder.context_id) badRequest('parent_folder_id must be in the same context as the current folder', 'other-context', 'parent_folder_id');
      destId = dest.id as number;
    }
    const name = placeFile(ctx, destId, ctx.params.get('name') ?? String(file.display_name), file.id as number);
    Object.assign(file, { display_name: name, folder_id: destId, updated_at: ctx.state.now() });
    for (const k of ['lock_at', 'unlock_at'] as const) if (ctx.params.has(k)) file[k] = ctx.params.get(k);
    for (const k of ['locked', 'hidden'] as const) if (ctx.params.has(k)) file[k] = ctx.params.bool(k);
    return one(fileView(ctx, file));
  },
  'files.delete': (ctx) => {
    const file = fileById(ctx);
    const view = fileView(ctx, file);
    ctx.state.remove('files', file.id as number);
    return one(view);
  },

  'folders.list': (ctx) => {
    const folder = folderById(ctx, 'id');
    return list(ctx.state.rows('folders', (f) => f.parent_folder_id === folder.id).sort(byPosition).map((f) => folderView(ctx, f)));
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
      if (!dest) badRequest(`parent_folder_id: folder ${ctx.params.get('parent_folder_id') ?? ''} does not exist`, 'not-found', 'parent_folder_id');
      if (dest.context_type !== folder.context_type || dest.context_id !== folder.context_id) badRequest('parent_folder_id must be in the same context', 'other-context', 'parent_folder_id');
      if (isInside(ctx.state, dest, folder)) badRequest('a folder cannot be moved into itself', 'invalid-move', 'parent_folder_id');
      folder.parent_folder_id = dest.id;
    }
    for (const k of ['name', 'lock_at', 'unlock_at'] as const) if (ctx.params.has(k)) folder[k] = ctx.params.get(k);
    for (const k of ['locked', 'hidden'] as const) if (ctx.params.has(k)) folder[k] = ctx.params.bool(k);
    if (ctx.params.has('position')) folder.position = ctx.params.int('position');
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
        if (!p || p.context_type !== context.type || p.context_id !== context.id) notFound(`folder ${ctx.params.get('parent_folder_id') ?? ''} in this context`);
        parent = p;
      } else if (ctx.params.has('parent_folder_path')) {
        const chain = folderAtPath(ctx, root, ctx.params.get('parent_folder_path') ?? '', true);
        parent = chain?.[chain.length - 1] ?? root;
      }
    }
    const name = ctx.params.get('name') ?? 'New Folder';
    if (ctx.state.find('folders', (f) => f.parent_folder_id === parent.id && f.name === name)) {
      throw new HttpError(409, `a folder named '${name}' already exists in ${fullName(ctx.state, parent)}`, 'duplicate-name', 'name');
    }
    const folder = ctx.state.insert('folders', {
      context_type: parent.context_type,
      context_id: parent.context_id,
      name,
      parent_folder_id: parent.id,
      position: ctx.params.int('position') ?? nextPosition(ctx.state.rows('folders', (f) => f.parent_folder_id === parent.id)),
      lock_at: ctx.params.get('lock_at') ?? null,
      unlock_at: ctx.params.get('unlock_at') ?? null,
      locked: ctx.params.bool('locked') ?? false,
      hidden: ctx.params.bool('hidden') ?? false,
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
      throw new HttpError(409, `folder ${String(folder.id)} is not empty (${String(view.files_count)} files, ${String(view.folders_count)} folders); send force=true to delete it with its contents`, 'folder-not-empty', 'force');
    }
    deleteFolderTree(ctx.state, folder);
    return { kind: 'one', value: view, as: 'Folder' };
  },
  'files.upload': (ctx) => {
    const folder = folderById(ctx, 'folder_id');
    return { kind: 'raw', status: 200, body: { upload_url: `${ctx.baseUrl}/files_api/upload/${String(folder.id)}`, upload_params: { folder_id: folder.id, name: ctx.params.get('name') ?? null } } };
  },
  'folders.copy_file': (ctx) => {
    const dest = folderById(ctx, 'dest_folder_id');
    const source = ctx.state.get('files', ctx.params.int('source_file_id') ?? -1);
    if (!source) notFound(`file ${ctx.params.get('source_file_id') ?? ''}`);
    const name = placeFile(ctx, dest.id as number, String(source.display_name));
    const copy = ctx.state.insert('files', { ...source, id: undefined, uuid: undefined, folder_id: dest.id, display_name: name, created_at: ctx.state.now(), updated_at: ctx.state.now() });
    return one(fileView(ctx, copy));
  },
  'folders.copy_folder': (ctx) => {
    const dest = folderById(ctx, 'dest_folder_id');
    const source = ctx.state.get('folders', ctx.params.int('source_folder_id') ?? -1);
    if (!source) notFound(`folder ${ctx.params.get('source_folder_id') ?? ''}`);
    if (isInside(ctx.state, dest, source)) badRequest('the source folder contains the destination folder', 'invalid-copy', 'source_folder_id');
    const name = freeName((n) => ctx.state.find('folders', (f) => f.parent_folder_id === dest.id && f.name === n) !== undefined, String(source.name));
    return one(folderView(ctx, copyFolderTree(ctx.state, source, dest, name)));
  },
  'usage_rights.set': (ctx) => {
    const context = pathContext(ctx);
    if (!context) notFound('context');
    const rights = ctx.params.group('usage_rights');
    const ids = listParam(ctx, 'file_ids').map((s) => toInt(s)).filter((n): n is number => n !== undefined);
    const folderIds = new Set(contextFolders(ctx.state, context.type, context.id).map((f) => f.id));
    const updated: number[] = [];
    for (const id of ids) {
      const file = ctx.state.get('files', id);
      if (!file || !folderIds.has(file.folder_id)) notFound(`file ${id} in this context`);
      file.usage_rights = { ...rights };
      updated.push(id);
    }
    const license = String(rights.license ?? 'private');
    return one({ legal_copyright: rights.legal_copyright ?? '', use_justification: rights.use_justification ?? 'own_copyright', license, license_name: license === 'private' ? 'Private (Copyrighted)' : license, message: `${updated.length} file${updated.length === 1 ? '' : 's'} updated`, file_ids: updated });
  },

  'roles.list': (ctx) => {
    const acct = account(ctx);
    const states = listParam(ctx, 'state');
    const wanted = states.length ? states : ['active'];
    return list(ctx.state.rows('roles', (r) => r.account_id === acct.id && (r.workflow_state === 'built_in' || wanted.includes(String(r.workflow_state)))).map((r) => roleView(ctx, r)));
  },
  'roles.show': (ctx) => one(roleView(ctx, roleOf(ctx))),
  'roles.create': (ctx) => {
    const acct = account(ctx);
    const label = ctx.params.get('label') ?? ctx.params.get('role');
    if (!label) badRequest('label is required', 'missing-required', 'label');
    const role: Row = { account_id: acct.id, label, role: label, base_role_type: ctx.params.get('base_role_type') ?? 'AccountMembership', workflow_state: 'active', permissions: {} };
    writePermissions(ctx, role);
    return one(roleView(ctx, ctx.state.insert('roles', role)));
  },
  'roles.deactivate': (ctx) => {
    const role = roleOf(ctx);
    if (role.workflow_state === 'built_in') badRequest(`${String(role.label)} is a built-in role; built-in roles cannot be deactivated`, 'built-in-role');
    role.workflow_state = 'inactive';
    return one(roleView(ctx, role));
  },
  'roles.activate': (ctx) => {
    const role = roleOf(ctx);
    if (role.workflow_state === 'inactive') role.workflow_state = 'active';
    return one(roleView(ctx, role));
  },
  'roles.update': (ctx) => {
    const role = roleOf(ctx);
    const label = ctx.params.get('label');
    if (label !== undefined) {
      if (role.workflow_state === 'built_in') badRequest('only a custom role belonging to the account can be relabeled', 'built-in-role', 'label');
      role.label = label;
    }
    writePermissions(ctx, role);
    return one(roleView(ctx, role));
  },
};

