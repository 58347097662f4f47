/** Roles (document A): built-in and custom roles of an account and their permissions. */
import { account, badRequest, type HandlersOf, list, listParam, type MockContext, notFound, one } from '../context';
import { documentedFields } from '../documented';
import type { Row } from '../state';

/**
 * A role as stored, with its account. Its permissions are the ones the role holds: a built-in
 * course role's defaults come from the seed, written from document A's table (an upper-case
 * letter on by default, a lower-case one off), a custom role's are those it was given.
 */
function roleView(ctx: MockContext, role: Row): Row {
  return {
    ...role,
    account: ctx.state.get('accounts', role.account_id as number),
    permissions: role.permissions ?? {},
  };
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
        .rows(
          'roles',
          (r) =>
            r.account_id === acct.id && (r.workflow_state === 'built_in' || wanted.includes(String(r.workflow_state))),
        )
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
    if (role.workflow_state === 'built_in')
      badRequest(`${String(role.label)} is a built-in role; built-in roles cannot be deactivated`, 'built-in-role');
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
