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

export class Viewer {
  private pathScopeMemo: Scope | undefined;
  private readonly permissionMemo = new Map<string, boolean>();
  private readonly rolesMemo = new Map<string, ReadonlySet<RoleType>>();
  private adminAccounts: ReadonlySet<unknown> | undefined;

  constructor(private readonly request: ViewerRequest) {}

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
    if (resource === 'Course' && typeof r.id === 'number') return { courses: [r.id] };
    if (typeof r.course_id === 'number')
      return sameCourse(fallback, r.course_id) ? fallback : { courses: [r.course_id] };
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
    return this.evaluate(who, scope, row) === true;
  }

  /**
   * `who` for the caller and the request, and for `row`: undefined where it depends on a row
   * not given (`own`, `observed`, `field`), so that `anyOf` with a condition true for the
   * caller holds for every row, and `not` of a row's condition is not taken for true.
   */
  private evaluate(who: Who, scope: Scope, row: Row | undefined): boolean | undefined {
    if ('anyOf' in who || 'allOf' in who) {
      const any = 'anyOf' in who;
      let unknown = false;
      for (const w of any ? who.anyOf : who.allOf) {
        const v = this.evaluate(w, scope, row);
        if (v === any) return any;
        if (v === undefined) unknown = true;
      }
      return unknown ? undefined : !any;
    }
    if ('not' in who) {
      const v = this.evaluate(who.not, scope, row);
      return v === undefined ? undefined : !v;
    }
    if (row === undefined && ('own' in who || 'observed' in who || 'field' in who)) return undefined;
    if ('permission' in who) return this.may(who.permission, scope);
    if ('role' in who) {
      const user = who.of !== undefined && this.request.bindings.has(who.of) ? this.pathUser(who.of) : this.callerId;
      return user !== undefined && who.role.some((r) => this.hasRole(user, r, scope));
    }
    if ('include' in who) return this.sent('include[]', [who.include]) || this.sent('include', [who.include]);
    if ('param' in who) return this.sent(who.param, who.in);
    if ('paramGroup' in who) return this.sentInGroup(who.paramGroup) !== undefined;
    if ('own' in who) return row !== undefined && own(row, who.own) === this.callerId;
    if ('observed' in who) return row !== undefined && this.observes(own(row, who.observed), scope.courses);
    if ('self' in who) return this.pathUser(who.self) === this.callerId;
    if ('observerOf' in who) return this.observes(this.pathUser(who.observerOf), []);
    const value = row === undefined ? undefined : own(row, who.field);
    return value !== undefined && value !== null && who.in.includes(String(value));
  }

  /** Whether the caller holds a permission where `scope` is. */
  may(permission: string, scope: Scope = this.pathScope()): boolean {
    // A name document A does not give is no one's permission.
    if (this.request.catalog.permissions?.names.has(permission) === false) return false;
    if (scope.user !== undefined && scope.user === this.callerId) return true;
    if (scope.courses.length === 0) return this.isAdmin(this.callerId, scope.account);
    return scope.courses.some((course) => this.mayInCourse(permission, course, scope.section));
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
    const key = `${userId}:${course}:${section ?? ''}`;
    let roles = this.rolesMemo.get(key);
    if (!roles) {
      const found = new Set<RoleType>();
      for (const e of this.enrollments(userId, course, section)) found.add(e.type as RoleType);
      const c = this.request.state.get('courses', course);
      if (this.isAdmin(userId, c?.account_id)) found.add('AccountAdmin');
      roles = found;
      this.rolesMemo.set(key, roles);
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

  /** Whether a user administers an account (any account, when none is given). */
  isAdmin(userId: number, account?: unknown): boolean {
    if (userId === this.callerId) {
      this.adminAccounts ??= new Set(this.request.state.rowsWith('admins', 'user_id', userId).map((a) => a.account_id));
      return account === undefined ? this.adminAccounts.size > 0 : this.adminAccounts.has(account);
    }
    return this.request.state
      .rowsWith('admins', 'user_id', userId)
      .some((a) => account === undefined || a.account_id === account);
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

  private sent(name: string, values?: readonly string[]): boolean {
    const params = this.request.params;
    if (values === undefined) return params.has(name);
    return params.all(name).some((v) => values.includes(v));
  }

  private sentInGroup(group: string): string | undefined {
    return this.request.params.pairs.find(([name]) => name.startsWith(`${group}[`))?.[0];
  }

  private hasRole(userId: number, role: RoleType, scope: Scope): boolean {
    if (scope.courses.length === 0) return role === 'AccountAdmin' && this.isAdmin(userId, scope.account);
    return scope.courses.some((course) => this.rolesOf(userId, course, scope.section).has(role));
  }

  private mayInCourse(permission: string, course: number, section: number | undefined): boolean {
    const key = `${permission}:${course}:${section ?? ''}`;
    const known = this.permissionMemo.get(key);
    if (known !== undefined) return known;
    let holds = this.rolesOf(this.callerId, course, section).has('AccountAdmin');
    const table = this.request.catalog.permissions;
    if (!holds && table) {
      const c = this.request.state.get('courses', course);
      for (const e of this.enrollments(this.callerId, course, section)) {
        const type = e.type as RoleType;
        const byDefault = defaultPermission(table, type, permission);
        // "Permissions inapplicable to the account or base role type are ignored."
        if (byDefault === undefined) continue;
        const set = roleSetting(this.request.state, e, c?.account_id, permission);
        if (set ?? byDefault) {
          holds = true;
          break;
        }
      }
    }
    this.permissionMemo.set(key, holds);
    return holds;
  }

  private enrollments(userId: number, course: number, section: number | undefined): Row[] {
    return this.request.state
      .rowsWith('enrollments', 'user_id', userId)
      .filter((e) => e.course_id === course && (section === undefined || e.section_id === section) && active(e));
  }

  /** The user a path placeholder names (`self`, an id, `sis_user_id:`), or undefined when no user is so named. */
  private pathUser(name: string): number | undefined {
    const text = this.request.bindings.get(name);
    if (text === undefined) return undefined;
    if (text === 'self') return this.callerId;
    const state = this.request.state;
    const sis = /^sis_user_id:(.+)$/.exec(text);
    const user = sis ? state.find('users', (u) => u.sis_user_id === sis[1]) : state.get('users', toInt(text) ?? -1);
    return user?.id as number | undefined;
  }
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

/** What the role of an enrollment sets for a permission in the data: its own role row (a custom role), else the built-in role's row of the account. */
function roleSetting(state: MockState, enrollment: Row, account: unknown, permission: string): boolean | undefined {
  const role =
    typeof enrollment.role_id === 'number'
      ? state.get('roles', enrollment.role_id)
      : state.find(
          'roles',
          (r) =>
            r.workflow_state === 'built_in' &&
            r.role === enrollment.type &&
            (account === undefined || r.account_id === account),
        );
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
