/** Appointment groups (document A): groups of time slots, their appointments and participants. */
import {
  badRequest,
  enrollmentTypes,
  type HandlersOf,
  includes,
  list,
  listParam,
  type MockContext,
  notFound,
  one,
  pathId,
} from '../context';
import { documentedFields } from '../documented';
import { toInt, toBool } from '../params';
import type { MockState, Row } from '../state';

function appointmentGroup(ctx: MockContext): Row {
  const g = ctx.state.get('appointment_groups', pathId(ctx));
  if (!g || g.workflow_state === 'deleted') notFound(`appointment group ${ctx.bindings.get('id') ?? ''}`);
  return g;
}

function appointmentsOf(state: MockState, group: Row): Row[] {
  return state.rows('calendar_events', (e) => e.appointment_group_id === group.id);
}

/**
 * Document A, AppointmentGroup: requiring_action is "true when the current user still needs
 * to sign up (reservable and the minimum not met)": a published group of a course the caller
 * is a student in, whose minimum (if unset, users need not sign up) the caller's reservations
 * do not reach.
 */
function requiringAction(ctx: MockContext, group: Row, appointments: Row[]): boolean {
  const minimum = toInt(group.min_appointments_per_participant) ?? 0;
  if (group.workflow_state !== 'active' || minimum <= 0) return false;
  const courses = ((group.context_codes as string[] | undefined) ?? []).map((c) => toInt(c.replace(/^course_/, '')));
  if (!courses.some((id) => enrollmentTypes(ctx, id).includes('StudentEnrollment'))) return false;
  const reserved = appointments.filter((a) =>
    ((a.reserved_user_ids as unknown[] | undefined) ?? []).includes(ctx.callerId),
  ).length;
  return reserved < minimum;
}

function groupView(ctx: MockContext, group: Row, withAppointments: boolean): Row {
  const appointments = appointmentsOf(ctx.state, group);
  const view: Row = {
    ...group,
    appointments_count: appointments.length,
    requiring_action: requiringAction(ctx, group, appointments),
    url: `${ctx.baseUrl}/api/v1/appointment_groups/${String(group.id)}`,
    html_url: `${ctx.baseUrl}/appointment_groups/${String(group.id)}`,
  };
  if (withAppointments) view.appointments = appointments;
  if (includes(ctx, 'participant_count'))
    view.participant_count = new Set(appointments.flatMap((a) => (a.reserved_user_ids as unknown[]) ?? [])).size;
  // Each reserved time shows the fields an Appointment documents.
  if (includes(ctx, 'reserved_times'))
    view.reserved_times = appointments.filter((a) => ((a.reserved_user_ids as unknown[]) ?? []).length > 0);
  return view;
}

function writeAppointmentGroup(ctx: MockContext, group: Row, creating: boolean): Row[] {
  const g = ctx.params.group('appointment_group');
  // Each pair of new_appointments is a slot (a calendar event), not a field of the group.
  const fields = documentedFields(ctx, {
    under: 'appointment_group',
    except: ['new_appointments'],
    defaults: creating,
  });
  for (const code of (fields.context_codes as string[] | undefined) ?? []) {
    const m = /^course_(\d+)$/.exec(code);
    if (!m || !ctx.state.get('courses', m[1]))
      badRequest(
        `appointment_group[context_codes][]: ${code} is not a course of this institution`,
        'invalid-context',
        'appointment_group[context_codes][]',
      );
  }
  const publish = toBool(g.publish);
  if (publish === false && !creating && group.workflow_state === 'active') {
    badRequest(
      'an appointment group cannot be unpublished once it is published',
      'cannot-unpublish',
      'appointment_group[publish]',
    );
  }
  Object.assign(group, fields);
  if (
    Array.isArray(fields.sub_context_codes) &&
    fields.sub_context_codes.some((c) => String(c).startsWith('group_category_'))
  )
    group.participant_type = 'Group';
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

export const appointmentGroupHandlers = {
  'appointment_groups.list': (ctx) => {
    const codes = listParam(ctx, 'context_codes');
    const manageable = ctx.params.get('scope') === 'manageable';
    const groups = ctx.state.rows(
      'appointment_groups',
      (g) =>
        g.workflow_state !== 'deleted' &&
        (manageable || g.workflow_state === 'active') &&
        (codes.length === 0 || (g.context_codes as string[]).some((c) => codes.includes(c))),
    );
    return list(groups.map((g) => groupView(ctx, g, includes(ctx, 'appointments'))));
  },
  'appointment_groups.create': (ctx) => {
    // A group starts unpublished, for users; the fields not sent are filled from the docs when it is shown.
    const group: Row = { workflow_state: 'pending', participant_type: 'User', created_at: ctx.state.now() };
    const slots = writeAppointmentGroup(ctx, group, true);
    const stored = ctx.state.insert('appointment_groups', group);
    const created = slots.map((s) =>
      ctx.state.insert('calendar_events', {
        ...s,
        appointment_group_id: stored.id,
        title: stored.title,
        reserved_user_ids: [],
      }),
    );
    const times = created
      .map((e) => String(e.start_at))
      .concat(created.map((e) => String(e.end_at)))
      .sort();
    if (times.length) Object.assign(stored, { start_at: times[0], end_at: times[times.length - 1] });
    const view = groupView(ctx, stored, false);
    if (created.length) view.new_appointments = created;
    return one(view);
  },
  'appointment_groups.show': (ctx) => one(groupView(ctx, appointmentGroup(ctx), true)),
  'appointment_groups.update': (ctx) => {
    const group = appointmentGroup(ctx);
    const slots = writeAppointmentGroup(ctx, group, false);
    const created = slots.map((s) =>
      ctx.state.insert('calendar_events', {
        ...s,
        appointment_group_id: group.id,
        title: group.title,
        reserved_user_ids: [],
      }),
    );
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
    const ids = new Set(
      ctx.state
        .rows('enrollments', (e) => courseIds.includes(e.course_id as number) && e.type === 'StudentEnrollment')
        .map((e) => e.user_id as number),
    );
    return list(
      [...ids]
        .filter((id) => !registered || reserved.has(id))
        .map((id) => ctx.state.get('users', id))
        .filter((u) => u !== undefined),
    );
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
        return (
          g !== undefined &&
          g.workflow_state === 'active' &&
          (wanted.length === 0 || wanted.includes(g.id as number)) &&
          String(e.start_at) >= now &&
          ((e.reserved_user_ids as unknown[]) ?? []).length === 0
        );
      })
      .sort((a, b) => (String(a.start_at) < String(b.start_at) ? -1 : 1));
    return list(open.slice(0, 1));
  },
} satisfies HandlersOf<'appointment_groups'>;
