/**
 * Document A, Roles, as the catalog holds it: the permission names, and for each permission of
 * course-level roles the enrollment types it applies to and whether it is on by default.
 */
import { own } from '../own';
import type { PermissionTable, RoleType } from './schema';

export interface Permissions {
  /** Every permission name of document A. */
  names: ReadonlySet<string>;
  /** The account-level ones. */
  account: ReadonlySet<string>;
  /** `read_sis` -> `TeacherEnrollment` -> true (on by default), `StudentEnrollment` -> false (off by default); a role it cannot be enabled for is absent. */
  byRole: ReadonlyMap<string, ReadonlyMap<RoleType, boolean>>;
  table: PermissionTable;
}

/** The table of document A read: `sTa` is on for teachers, off by default for students and TAs, never for the others. */
export function indexPermissions(table: PermissionTable): Permissions {
  const byRole = new Map<string, Map<RoleType, boolean>>();
  for (const [name, letters] of Object.entries(table.course)) {
    const roles = new Map<RoleType, boolean>();
    for (const letter of letters) {
      const role = own(table.letters, letter.toUpperCase());
      if (role) roles.set(role, letter === letter.toUpperCase());
    }
    byRole.set(name, roles);
  }
  return {
    names: new Set([...table.account, ...Object.keys(table.course)]),
    account: new Set(table.account),
    byRole,
    table,
  };
}

/**
 * Whether a course-level role holds a permission by default: true or false by the docs' letter,
 * undefined when it cannot be enabled for the role (or the name is not a course-level one).
 */
export function defaultPermission(permissions: Permissions, role: RoleType, name: string): boolean | undefined {
  return permissions.byRole.get(name)?.get(role);
}
