/** Roles (document A): built-in and custom roles of an account and their permissions. */
import { account, badRequest, type HandlersOf, list, listParam, type MockContext, notFound, one } from '../context';
import { documentedFields } from '../documented';
import type { Row } from '../state';
import { setOwn } from '../../core';

const DEFAULT_PERMISSIONS = new Map<string, string[]>(
  Object.entries({
    StudentEnrollment: ['read_forum', 'post_to_forum', 'read_announcements'],
    TeacherEnrollment: ['manage_grades', 'manage_content', 'read_roster'],
    TaEnrollment: ['manage_grades', 'read_roster'],
    DesignerEnrollment: ['manage_content', 'manage_wiki'],
    ObserverEnrollment: ['read_forum', 'read_announcements'],
    AccountMembership: ['read_course_list', 'view_statistics'],
  }),
);

function roleView(ctx: MockContext, role: Row): Row {
  const acct = ctx.state.get('accounts', role.account_id as number) ?? {};
  const permissions: Row = {};
  for (const name of DEFAULT_PERMISSIONS.get(String(role.base_role_type)) ?? []) {
    setOwn(permissions, name, { enabled: true, locked: false, readonly: role.workflow_state === 'built_in', explicit: false });
  }
  for (const [name, p] of Object.entries((role.permissions as Row | undefined) ?? {}))
    setOwn(permissions, name, { readonly: false, explicit: true, enabled: false, locked: false, ...(p as Row) });
  // The response shows the account's fields that RoleAccount documents.
  return { ...role, account: acct, permissions };
}

function roleOf(ctx: MockContext): Row {
  const acct = account(ctx);
  const text = ctx.bindings.get('id') ?? '';
  const role = ctx.state.find('roles', (r) => r.account_id === acct.id && (String(r.id) === text || r.role === text));
  if (!role) notFound(`role ${text} in account ${String(acct.id)}`);
  return role;
}

export const roleHandlers = {
  'roles.list': (ctx) => {
    const acct = account(ctx);
    const states = listParam(ctx, 'state');
    const wanted = states.length ? states : ['active'];
    return list(
      ctx.state
        .rows('roles', (r) => r.account_id === acct.id && (r.workflow_state === 'built_in' || wanted.includes(String(r.workflow_state))))
        .map((r) => roleView(ctx, r)),
    );
  },
  'roles.show': (ctx) => one(roleView(ctx, roleOf(ctx))),
  'roles.create': (ctx) => {
    const acct = account(ctx);
    // `role`, the deprecated alias of `label`, fills the label when no label is sent; the new role is named by its label.
    const fields = documentedFields(ctx, { defaults: true });
    const label = fields.label;
    if (typeof label !== 'string' || !label) badRequest('label is required', 'missing-required', 'label');
    const role: Row = { account_id: acct.id, workflow_state: 'active', permissions: {}, ...fields, role: label };
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
    const fields = documentedFields(ctx, { current: role });
    if (fields.label !== undefined && role.workflow_state === 'built_in')
      badRequest('only a custom role belonging to the account can be relabeled', 'built-in-role', 'label');
    Object.assign(role, fields);
    return one(roleView(ctx, role));
  },
} satisfies HandlersOf<'roles'>;
