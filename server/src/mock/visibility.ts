/**
 * Who sees what (issue 30): the one reader of the catalog's visibility statements, for the
 * user of a request's token. The statements are data (`visibility` on resource fields and
 * endpoints, schemas/CATALOG.md); this file only says what each kind of condition means in the
 * mock's data:
 *
 * - A user's roles in a course are their enrollments' types there (in the path's section, when
 *   the path names one), and AccountAdmin when they administer the course's account.
 * - A role holds a permission as document A's table says (Roles: `read_sis [sTa]`), unless the
 *   role's row in the data sets it (`permissions[X].enabled`, a custom role's or a built-in
 *   one's; a permission the docs say cannot be enabled for the role stays off). An
 *   administrator holds every permission (the docs give no defaults for AccountAdmin; the real
 *   LMS grants it all), and a user holds every permission over their own files.
 * - A row is where its data puts it: a course, a row's `course_id`, an appointment group's
 *   `context_codes`, a folder's or tool's context; otherwise where the request's path is.
 *
 * The server asks it before a handler (`refusal`: 403), of every list and single answer of an
 * endpoint with a `rows` statement (`visibleRows`, `sees`), and the materializer of every field
 * with a statement (`sees`), so that every resource is treated the same way.
 */
import type { Catalog, Endpoint, RoleType, Who } from '../core';
import { defaultPermission, own } from '../core';
import type { Params } from './params';
import { toInt } from './params';
import type { MockState, Row } from './state';

/** Where a row or a request is: courses (and a section of one), a user's own context, an account. */
export interface Scope {
  courses: readonly number[];
  section?: number;
  /** A user's own context (their files and folders). */
  user?: number;
  account?: number;
}

const NOWHERE: Scope = { courses: [] };

/** What the viewer reads of a request; the MockContext gives it. */
export interface ViewerRequest {
  state: MockState;
  catalog: Catalog;
  callerId: number;
  params: Params;
  bindings: ReadonlyMap<string, string>;
  template: string;
}

/** A refusal of an access statement: the 403 the server answers. */
export interface Refusal {
  message: string;
  code: string;
  parameter?: string;
}

/** What a viewer keeps for the rest of its request, made on first use. */
interface Memos {
  permission: Map<string, Map<unknown, boolean>>;
  roles: Map<number, Map<unknown, ReadonlySet<RoleType>>>;
  grants: Map<Row | string, Map<string, boolean>>;
  builtIn: Map<string, Map<unknown, Row | undefined>>;
  accounts: Map<number, unknown>;
  sent: Map<string, string[]>;
  holds: Map<Who, boolean>;
  courseScopes: Map<number, Scope>;
  enrollments: Map<number, Map<unknown, Row[]>>;
}

export class Viewer {
  private memoStore: Memos | undefined;
  private pathScopeMemo: Scope | undefined;
  private allAdmin: boolean | undefined;
  private adminAccounts: ReadonlySet<unknown> | undefined;

  private readonly permissionNames: ReadonlySet<string> | undefined;

  /** Most requests ask nothing of their viewer: its tables are made when first asked for. */
  private get memo(): Memos {
    return (this.memoStore ??= {
      permission: new Map(),
      roles: new Map(),
      grants: new Map(),
      builtIn: new Map(),
      accounts: new Map(),
      sent: new Map(),
      holds: new Map(),
      courseScopes: new Map(),
      enrollments: new Map(),
    });
  }

  constructor(private readonly request: ViewerRequest) {
    this.permissionNames = request.catalog.permissions?.names;
  }

  get callerId(): number {
    return this.request.callerId;
  }

  /** Where the request's path is: its course (or section of one), group, folder, file, user or account. */
  pathScope(): Scope {
    return (this.pathScopeMemo ??= scopeOfPath(this.request));
  }

  /** Where a row is: its own place when its data says (`Course` rows are courses), else `fallback`. */
  scopeOf(resource: string | undefined, row: unknown, fallback: Scope): Scope {
    if (row === null || typeof row !== 'object' || Array.isArray(row)) return fallback;
    const r = row as Row;
    if (resource === 'Course' && typeof r.id === 'number') return this.courseScope(r.id);
    if (typeof r.course_id === 'number')
      return sameCourse(fallback, r.course_id) ? fallback : this.courseScope(r.course_id);
    if (Array.isArray(r.context_codes)) {
      const courses = r.context_codes
        .map((c) => /^course_(\d+)$/.exec(String(c))?.[1])
        .filter((c): c is string => c !== undefined)
        .map(Number);
      return { courses };
    }
    if (typeof r.context_type === 'string' && typeof r.context_id === 'number')
      return contextScope(this.request.state, r.context_type, r.context_id);
    return fallback;
  }

  /** Whether `who` holds for the caller, the request, and `row` where it is (`scope`). */
  holds(who: Who, scope: Scope, row?: Row): boolean {
    const { fn, rowFree } = compiled(who);
    if (!rowFree || scope !== this.pathScopeMemo) return fn(this, scope, row) === true;
    // A statement about the caller and the request alone holds or not for every row where the request is: once a request.
    let value = this.memo.holds.get(who);
    if (value === undefined) this.memo.holds.set(who, (value = fn(this, scope, row) === true));
    return value;
  }

  /**
   * `who` for the caller and the request, and for `row`: undefined where it depends on a row
   * not given (`own`, `observed`, `field`), so that `anyOf` with a condition true for the
   * caller holds for every row, and `not` of a row's condition is not taken for true.
   */
  private evaluate(who: Who, scope: Scope, row: Row | undefined): boolean | undefined {
    return compiled(who).fn(this, scope, row);
  }

  /** Whether the caller holds a permission where `scope` is. */
  may(permission: string, scope: Scope = this.pathScope()): boolean {
    // A name document A does not give is no one's permission.
    if (this.permissionNames?.has(permission) === false) return false;
    if (scope.user !== undefined && scope.user === this.callerId) return true;
    // An administrator of every root account holds every permission everywhere: no course need be asked.
    if (this.adminOfAll()) return true;
    if (scope.courses.length === 0) return this.isAdmin(this.callerId, scope.account);
    for (const course of scope.courses) if (this.mayInCourse(permission, course, scope.section)) return true;
    return false;
  }

  /** Whether a user (the caller, or the user a path placeholder `of` names) has one of `roles` where `scope` is. */
  hasRoleOf(roles: readonly RoleType[], of: string | undefined, scope: Scope): boolean {
    const user = of !== undefined && this.request.bindings.has(of) ? this.pathUser(of) : this.callerId;
    return user !== undefined && roles.some((r) => this.hasRole(user, r, scope));
  }

  /** A course's scope, made once a request. */
  private courseScope(course: number): Scope {
    let scope = this.memo.courseScopes.get(course);
    if (!scope) this.memo.courseScopes.set(course, (scope = { courses: [course] }));
    return scope;
  }

  /** The first access statement of the endpoint the caller fails, as the 403 to answer. */
  refusal(endpoint: Endpoint): Refusal | undefined {
    for (const statement of endpoint.visibility?.access ?? []) {
      // A path naming a user who does not exist is the handler's 404, not a refusal.
      if (pathUsers(statement.when).some((name) => this.pathUser(name) === undefined)) return undefined;
      if (statement.if && !this.holds(statement.if, this.pathScope())) continue;
      if (this.holds(statement.when, this.pathScope())) continue;
      return {
        message: `user ${this.callerId} may not do this: ${statement.text} (document ${statement.source.doc}, ${statement.source.section})`,
        code: refusalCode(statement.when),
        parameter: statement.if ? this.sentIn(statement.if) : undefined,
      };
    }
    return undefined;
  }

  /**
   * Whether the endpoint's `rows` statement may narrow what this caller sees where the path is
   * (false: it holds for every row there, whatever the row).
   */
  narrowsRows(endpoint: Endpoint): boolean {
    const rows = endpoint.visibility?.rows;
    if (!rows || (rows.if && !this.holds(rows.if, this.pathScope()))) return false;
    return this.evaluate(rows.when, this.pathScope(), undefined) !== true;
  }

  /** The rows of a list the caller may see, by the endpoint's `rows` statement. */
  visibleRows<T>(endpoint: Endpoint, resource: string | undefined, items: T[]): T[] {
    const rows = endpoint.visibility?.rows;
    if (!rows || (rows.if && !this.holds(rows.if, this.pathScope()))) return items;
    const path = this.pathScope();
    return items.filter((item) => this.holds(rows.when, this.scopeOf(resource, item, path), item as Row));
  }

  /** Whether the caller may see one row the endpoint answers. */
  seesRow(endpoint: Endpoint, resource: string | undefined, item: unknown): boolean {
    return this.visibleRows(endpoint, resource, [item]).length === 1;
  }

  /** The roles of a user where `scope` is (the scope's section, when it names one). */
  rolesOf(userId: number, course: number, section?: number): ReadonlySet<RoleType> {
    const key = section === undefined ? course : `${course}/${section}`;
    let ofUser = this.memo.roles.get(userId);
    if (!ofUser) this.memo.roles.set(userId, (ofUser = new Map()));
    let roles = ofUser.get(key);
    if (!roles) {
      const found = new Set<RoleType>();
      for (const e of this.enrollments(userId, course, section)) found.add(e.type as RoleType);
      if (this.isAdmin(userId, this.accountOf(course))) found.add('AccountAdmin');
      roles = found;
      ofUser.set(key, roles);
    }
    return roles;
  }

  /** Whether `observer` observes `student` (in one of `courses`, or anywhere when none is given). */
  observes(student: unknown, courses: readonly number[], observer: number = this.callerId): boolean {
    if (typeof student !== 'number') return false;
    return this.request.state
      .rowsWith('enrollments', 'user_id', observer)
      .some(
        (e) =>
          e.type === 'ObserverEnrollment' &&
          e.associated_user_id === student &&
          (courses.length === 0 || courses.includes(e.course_id as number)) &&
          active(e),
      );
  }

  /**
   * Whether a user administers an account, or an account above it (any account, when none is
   * given): an administrator of a parent account is one of its sub-accounts, as in the real LMS.
   */
  isAdmin(userId: number, account?: unknown): boolean {
    const administered =
      userId === this.callerId ? (this.adminAccounts ??= this.administered(userId)) : this.administered(userId);
    if (account === undefined) return administered.size > 0;
    if (administered.size === 0) return false;
    const state = this.request.state;
    let at: unknown = account;
    for (let depth = 0; at !== undefined && at !== null && depth < 32; depth++) {
      if (administered.has(at)) return true;
      at = state.get('accounts', at as number)?.parent_account_id;
    }
    return false;
  }

  private adminOfAll(): boolean {
    if (this.allAdmin === undefined) {
      const roots = this.request.state.rows(
        'accounts',
        (a) => a.parent_account_id === null || a.parent_account_id === undefined,
      );
      this.allAdmin = roots.length > 0 && roots.every((a) => this.isAdmin(this.callerId, a.id));
    }
    return this.allAdmin;
  }

  private administered(userId: number): ReadonlySet<unknown> {
    return new Set(this.request.state.rowsWith('admins', 'user_id', userId).map((a) => a.account_id));
  }

  /** The name of the first parameter sent that a condition's `param` or `paramGroup` names. */
  private sentIn(who: Who): string | undefined {
    if ('anyOf' in who || 'allOf' in who) {
      for (const w of 'anyOf' in who ? who.anyOf : who.allOf) {
        const found = this.sentIn(w);
        if (found !== undefined) return found;
      }
      return undefined;
    }
    if ('param' in who) return this.sent(who.param, who.in) ? who.param : undefined;
    if ('paramGroup' in who) return this.sentInGroup(who.paramGroup);
    return undefined;
  }

  /** Whether the request sent a parameter (with one of `values`). */
  sent(name: string, values?: readonly string[]): boolean {
    let sent = this.memo.sent.get(name);
    if (!sent) this.memo.sent.set(name, (sent = this.request.params.all(name)));
    if (values === undefined) return sent.length > 0;
    for (const v of sent) if (values.includes(v)) return true;
    return false;
  }

  /** The first parameter sent that is `group[...]`. */
  sentInGroup(group: string): string | undefined {
    return this.request.params.pairs.find(([name]) => name.startsWith(`${group}[`))?.[0];
  }

  private hasRole(userId: number, role: RoleType, scope: Scope): boolean {
    if (scope.courses.length === 0) return role === 'AccountAdmin' && this.isAdmin(userId, scope.account);
    return scope.courses.some((course) => this.rolesOf(userId, course, scope.section).has(role));
  }

  private mayInCourse(permission: string, course: number, section: number | undefined): boolean {
    const key = section === undefined ? course : `${course}/${section}`;
    let ofPermission = this.memo.permission.get(permission);
    if (!ofPermission) this.memo.permission.set(permission, (ofPermission = new Map()));
    const known = ofPermission.get(key);
    if (known !== undefined) return known;
    const account = this.accountOf(course);
    let holds = this.isAdmin(this.callerId, account);
    if (!holds)
      for (const e of this.enrollments(this.callerId, course, section))
        if (this.grants(e, account, permission)) {
          holds = true;
          break;
        }
    ofPermission.set(key, holds);
    return holds;
  }

  /**
   * Whether an enrollment's role grants a permission: document A's default for its type, unless
   * its role's row sets it ("Permissions inapplicable to the account or base role type are
   * ignored": one the docs say cannot be enabled for the type stays off). Known once a request
   * for each role.
   */
  private grants(e: Row, account: unknown, permission: string): boolean {
    const type = e.type as RoleType;
    const role =
      typeof e.role_id === 'number' ? this.request.state.get('roles', e.role_id) : this.builtIn(type, account);
    const memoKey = role ?? type;
    let byPermission = this.memo.grants.get(memoKey);
    if (!byPermission) this.memo.grants.set(memoKey, (byPermission = new Map()));
    let granted = byPermission.get(permission);
    if (granted === undefined) {
      const table = this.request.catalog.permissions;
      const byDefault = table && defaultPermission(table, type, permission);
      granted = byDefault !== undefined && (roleSetting(role, permission) ?? byDefault);
      byPermission.set(permission, granted);
    }
    return granted;
  }

  /** The account's built-in role of an enrollment type (the row the seed gives, as roles.update changes it). */
  private builtIn(type: RoleType, account: unknown): Row | undefined {
    let ofType = this.memo.builtIn.get(type);
    if (!ofType) this.memo.builtIn.set(type, (ofType = new Map()));
    if (ofType.has(account)) return ofType.get(account);
    const role = this.request.state.find(
      'roles',
      (r) => r.workflow_state === 'built_in' && r.role === type && (account === undefined || r.account_id === account),
    );
    ofType.set(account, role);
    return role;
  }

  private accountOf(course: number): unknown {
    if (this.memo.accounts.has(course)) return this.memo.accounts.get(course);
    const account = this.request.state.get('courses', course)?.account_id;
    this.memo.accounts.set(course, account);
    return account;
  }

  /** A user's active enrollments in a course (in one section of it), from their enrollments by course, read once a request. */
  private enrollments(userId: number, course: number, section: number | undefined): Row[] {
    let byCourse = this.memo.enrollments.get(userId);
    if (!byCourse) {
      byCourse = new Map();
      for (const e of this.request.state.rowsWith('enrollments', 'user_id', userId)) {
        if (!active(e)) continue;
        const list = byCourse.get(e.course_id);
        if (list) list.push(e);
        else byCourse.set(e.course_id, [e]);
      }
      this.memo.enrollments.set(userId, byCourse);
    }
    const inCourse = byCourse.get(course) ?? [];
    return section === undefined ? inCourse : inCourse.filter((e) => e.section_id === section);
  }

  /** The user a path placeholder names (`self`, an id, `sis_user_id:`), or undefined when no user is so named. */
  pathUser(name: string): number | undefined {
    const text = this.request.bindings.get(name);
    if (text === undefined) return undefined;
    if (text === 'self') return this.callerId;
    const state = this.request.state;
    const sis = /^sis_user_id:(.+)$/.exec(text);
    const user = sis ? state.find('users', (u) => u.sis_user_id === sis[1]) : state.get('users', toInt(text) ?? -1);
    return user?.id as number | undefined;
  }
}

/** A condition made into a function once (they are the catalog's, and live as long as it). */
type Compiled = (v: Viewer, scope: Scope, row: Row | undefined) => boolean | undefined;
const COMPILED = new WeakMap<Who, { fn: Compiled; rowFree: boolean }>();

function compiled(who: Who): { fn: Compiled; rowFree: boolean } {
  let entry = COMPILED.get(who);
  if (!entry) COMPILED.set(who, (entry = { fn: compile(who), rowFree: !readsRow(who) }));
  return entry;
}

/** Whether a condition reads the row it is about (`own`, `observed`, `field`). */
function readsRow(who: Who): boolean {
  if ('anyOf' in who) return who.anyOf.some(readsRow);
  if ('allOf' in who) return who.allOf.some(readsRow);
  if ('not' in who) return readsRow(who.not);
  return 'own' in who || 'observed' in who || 'field' in who;
}

/**
 * What a condition means, as a function of the viewer, where the row is and the row: undefined
 * where it depends on a row not given (`own`, `observed`, `field`).
 */
function compile(who: Who): Compiled {
  if ('anyOf' in who || 'allOf' in who) {
    const any = 'anyOf' in who;
    const parts = (any ? who.anyOf : who.allOf).map((w) => compiled(w).fn);
    return (v, scope, row) => {
      let unknown = false;
      for (const part of parts) {
        const value = part(v, scope, row);
        if (value === any) return any;
        if (value === undefined) unknown = true;
      }
      return unknown ? undefined : !any;
    };
  }
  if ('not' in who) {
    const inner = compiled(who.not).fn;
    return (v, scope, row) => {
      const value = inner(v, scope, row);
      return value === undefined ? undefined : !value;
    };
  }
  if ('permission' in who) {
    const name = who.permission;
    return (v, scope) => v.may(name, scope);
  }
  if ('role' in who) {
    const { role, of } = who;
    return (v, scope) => v.hasRoleOf(role, of, scope);
  }
  if ('include' in who) {
    const values = [who.include];
    return (v) => v.sent('include[]', values) || v.sent('include', values);
  }
  if ('param' in who) {
    const { param, in: values } = who;
    return (v) => v.sent(param, values);
  }
  if ('paramGroup' in who) {
    const group = who.paramGroup;
    return (v) => v.sentInGroup(group) !== undefined;
  }
  if ('own' in who) {
    const field = who.own;
    return (v, _scope, row) => (row === undefined ? undefined : own(row, field) === v.callerId);
  }
  if ('observed' in who) {
    const field = who.observed;
    return (v, scope, row) => (row === undefined ? undefined : v.observes(own(row, field), scope.courses));
  }
  if ('self' in who) {
    const placeholder = who.self;
    return (v) => v.pathUser(placeholder) === v.callerId;
  }
  if ('observerOf' in who) {
    const placeholder = who.observerOf;
    return (v) => v.observes(v.pathUser(placeholder), []);
  }
  const { field, in: values } = who;
  return (_v, _scope, row) => {
    if (row === undefined) return undefined;
    const value = own(row, field);
    return value !== undefined && value !== null && values.includes(String(value));
  };
}

/** The path placeholders a condition reads users from. */
function pathUsers(who: Who): string[] {
  if ('anyOf' in who) return who.anyOf.flatMap(pathUsers);
  if ('allOf' in who) return who.allOf.flatMap(pathUsers);
  if ('not' in who) return pathUsers(who.not);
  if ('self' in who) return [who.self];
  if ('observerOf' in who) return [who.observerOf];
  return 'role' in who && who.of !== undefined ? [who.of] : [];
}

/** A deleted or inactive enrollment gives no role. */
function active(e: Row): boolean {
  return e.enrollment_state !== 'deleted' && e.enrollment_state !== 'inactive';
}

/** What a role's row sets for a permission in the data (`permissions[X].enabled`), if anything. */
function roleSetting(role: Row | undefined, permission: string): boolean | undefined {
  const permissions = role?.permissions;
  if (permissions === null || typeof permissions !== 'object') return undefined;
  const entry = own(permissions as Row, permission);
  const enabled = entry !== null && typeof entry === 'object' ? (entry as Row).enabled : undefined;
  return typeof enabled === 'boolean' ? enabled : undefined;
}

function sameCourse(scope: Scope, course: number): boolean {
  return scope.courses.length === 1 && scope.courses[0] === course;
}

function contextScope(state: MockState, type: string, id: number): Scope {
  switch (type) {
    case 'Course':
      return { courses: [id] };
    case 'Group': {
      const course = state.get('groups', id)?.course_id;
      return typeof course === 'number' ? { courses: [course] } : NOWHERE;
    }
    case 'User':
      return { courses: [], user: id };
    case 'Account':
      return { courses: [], account: id };
    default:
      return NOWHERE;
  }
}

/** The code of a refusal, by what the statement asks for. */
function refusalCode(when: Who): string {
  if ('role' in when && when.role.length === 1 && when.role[0] !== 'AccountAdmin')
    return `not-a-${when.role[0].replace(/Enrollment$/, '').toLowerCase()}`;
  if ('permission' in when || ('allOf' in when && when.allOf.every((w) => 'permission' in w)))
    return 'missing-permission';
  return 'forbidden';
}

/** Where the path of a request is, from its placeholders. */
function scopeOfPath(request: ViewerRequest): Scope {
  const { state, bindings, template } = request;
  const sectionText = bindings.get('section_id');
  if (sectionText !== undefined) {
    const sis = /^sis_section_id:(.+)$/.exec(sectionText);
    const s = sis
      ? state.find('sections', (r) => r.sis_section_id === sis[1])
      : state.get('sections', toInt(sectionText) ?? -1);
    return s ? { courses: [s.course_id as number], section: s.id as number } : NOWHERE;
  }
  const m = /^\/api\/v1\/(courses|users|groups|accounts|folders|files)\/\{(\w+)\}/.exec(template);
  if (!m) return NOWHERE;
  const text = bindings.get(m[2]) ?? '';
  switch (m[1]) {
    case 'courses': {
      const sis = /^sis_course_id:(.+)$/.exec(text);
      const c = sis
        ? state.find('courses', (r) => r.sis_course_id === sis[1])
        : state.get('courses', toInt(text) ?? -1);
      return c ? { courses: [c.id as number] } : NOWHERE;
    }
    case 'users': {
      const sis = /^sis_user_id:(.+)$/.exec(text);
      const user =
        text === 'self'
          ? request.callerId
          : sis
            ? (state.find('users', (u) => u.sis_user_id === sis[1])?.id as number | undefined)
            : toInt(text);
      return user === undefined ? NOWHERE : { courses: [], user };
    }
    case 'groups':
      return contextScope(state, 'Group', toInt(text) ?? -1);
    case 'accounts':
      return { courses: [], account: toInt(text) };
    case 'folders': {
      const folder = state.get('folders', toInt(text) ?? -1);
      return folder ? contextScope(state, String(folder.context_type), folder.context_id as number) : NOWHERE;
    }
    default: {
      const file = state.get('files', toInt(text) ?? -1);
      const folder = file && state.get('folders', file.folder_id as number);
      return folder ? contextScope(state, String(folder.context_type), folder.context_id as number) : NOWHERE;
    }
  }
}
