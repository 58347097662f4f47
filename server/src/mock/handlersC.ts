/** Document C: planner, outcomes, webhook subscriptions, notification preferences, audit log, error reports, search. */
import { inTimeRange, toInt } from './params';
import type { Row } from './state';
import { badRequest, course, HttpError, includes, list, listParam, must, notFound, one, pathId, raw, user, type Handler, type MockContext } from './context';
import { courseView } from './handlersB';

function noteOf(ctx: MockContext): Row {
  const note = ctx.state.get('planner_notes', pathId(ctx));
  if (!note || note.user_id !== ctx.state.selfUserId) notFound(`planner note ${ctx.bindings.get('id') ?? ''}`);
  return note;
}

function noteView(ctx: MockContext, note: Row): Row {
  const type = typeof note.linked_object_type === 'string' ? note.linked_object_type : '';
  const linked = type ? `courses/${String(note.course_id ?? 0)}/${type}s/${String(note.linked_object_id)}` : '';
  return {
    ...note,
    workflow_state: 'active',
    description: note.description ?? '',
    linked_object_type: type,
    linked_object_id: note.linked_object_id ?? 0,
    linked_object_html_url: linked ? `${ctx.baseUrl}/${linked}` : '',
    linked_object_url: linked ? `${ctx.baseUrl}/api/v1/${linked}` : '',
  };
}

function writeNote(ctx: MockContext, note: Row) {
  for (const k of ['title', 'todo_date', 'linked_object_type'] as const) if (ctx.params.has(k)) note[k] = ctx.params.get(k);
  if (ctx.params.has('details')) note.description = ctx.params.get('details');
  if (ctx.params.has('linked_object_id')) note.linked_object_id = ctx.params.int('linked_object_id');
  if (ctx.params.has('course_id')) {
    const value = ctx.params.get('course_id') ?? '';
    if (value === '' || value === 'null') delete note.course_id;
    else {
      const c = must(ctx, 'courses', toInt(value), 'course', value);
      if (note.linked_object_type && note.course_id !== undefined && note.course_id !== c.id) badRequest('course_id cannot change for a note linked to a learning object', 'linked-note', 'course_id');
      note.course_id = c.id;
    }
  }
  if (note.linked_object_type && note.linked_object_id !== undefined) {
    const other = ctx.state.find('planner_notes', (n) => n !== note && n.linked_object_type === note.linked_object_type && n.linked_object_id === note.linked_object_id);
    if (other) badRequest(`planner note ${String(other.id)} already links to ${String(note.linked_object_type)} ${String(note.linked_object_id)}`, 'duplicate-link', 'linked_object_id');
  }
}

function subscriptionOf(ctx: MockContext): Row {
  const sub = ctx.state.get('webhook_subscriptions', ctx.bindings.get('id') ?? '');
  if (!sub) notFound(`webhook subscription ${ctx.bindings.get('id') ?? ''}`);
  return sub;
}

function writeSubscription(ctx: MockContext, sub: Row) {
  const g = ctx.params.group('subscription');
  const contextId = ctx.params.get('submission[ContextId]') ?? ctx.params.get('subscription[ContextId]');
  if (contextId !== undefined) sub.ContextId = contextId;
  for (const k of ['ContextType', 'Format', 'TransportType'] as const) if (g[k] !== undefined) sub[k] = g[k];
  if (Array.isArray(g.EventTypes)) sub.EventTypes = g.EventTypes;
  if (g.TransportMetadata && typeof g.TransportMetadata === 'object') sub.TransportMetadata = g.TransportMetadata;
  sub.updated_at = ctx.state.now();
}

function channelOf(ctx: MockContext): Row {
  const u = ctx.template.includes('/users/self/') ? must(ctx, 'users', ctx.state.selfUserId, 'user') : user(ctx);
  const byId = ctx.bindings.get('communication_channel_id');
  const channel = byId !== undefined
    ? ctx.state.get('communication_channels', toInt(byId) ?? -1)
    : ctx.state.find('communication_channels', (c) => c.type === ctx.bindings.get('type') && c.address === ctx.bindings.get('address'));
  if (!channel || channel.user_id !== u.id) notFound(`communication channel ${byId ?? `${ctx.bindings.get('type') ?? ''}/${ctx.bindings.get('address') ?? ''}`} of user ${String(u.id)}`);
  return channel;
}

function preferenceView(ctx: MockContext, channel: Row, p: Row): Row {
  return { ...p, href: `${ctx.baseUrl}/api/v1/users/${String(channel.user_id)}/communication_channels/${String(channel.id)}/notification_preferences/${String(p.notification)}` };
}

const FREQUENCIES = ['immediately', 'daily', 'weekly', 'never'];

function frequencyOf(value: unknown, parameter: string): string {
  const f = typeof value === 'string' ? value : '';
  if (!FREQUENCIES.includes(f)) badRequest(`${parameter} must be one of ${FREQUENCIES.join(', ')}`, 'invalid-enum', parameter);
  return f;
}

function recipients(ctx: MockContext): Row[] {
  const terms = (ctx.params.get('search') ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const matches = (name: unknown) => terms.every((t) => String(name).toLowerCase().includes(t));
  const type = ctx.params.get('type');
  const userId = ctx.params.int('user_id');
  const users = ctx.state.rows('users').map((u) => ({ id: u.id, name: u.name, full_name: u.name, avatar_url: `${ctx.baseUrl}/images/messages/avatar-50.png`, type: 'user', types: ['user'], common_courses: {}, common_groups: {} }));
  if (userId !== undefined) return users.filter((u) => u.id === userId).slice(0, 1);
  const contexts = [
    ...ctx.state.rows('courses').map((c) => ({ id: `course_${String(c.id)}`, name: c.name, avatar_url: `${ctx.baseUrl}/images/messages/avatar-group-50.png`, type: 'context', types: ['course'], user_count: ctx.state.rows('enrollments', (e) => e.course_id === c.id).length })),
    ...ctx.state.rows('groups').map((g) => ({ id: `group_${String(g.id)}`, name: g.name, avatar_url: `${ctx.baseUrl}/images/messages/avatar-group-50.png`, type: 'context', types: ['group'], user_count: g.members_count ?? 0 })),
  ];
  const context = ctx.params.get('context');
  let out: Row[] = type === 'user' ? users : type === 'context' ? contexts : [...contexts, ...users];
  if (context) {
    const m = /^course_(\d+)/.exec(context);
    const members = m ? new Set(ctx.state.rows('enrollments', (e) => e.course_id === toInt(m[1])).map((e) => e.user_id)) : undefined;
    out = out.filter((r) => r.type === 'user' && (!members || members.has(r.id)));
  }
  const excluded = new Set(listParam(ctx, 'exclude'));
  return out.filter((r) => matches(r.name) && !excluded.has(String(r.id)));
}

export const handlersC: Record<string, Handler> = {
  'planner_notes.list': (ctx) => {
    const start = ctx.params.get('start_date');
    const end = ctx.params.get('end_date');
    const codes = listParam(ctx, 'context_codes');
    const notes = ctx.state.rows('planner_notes', (n) => n.user_id === ctx.state.selfUserId && inTimeRange(n.todo_date, start, end) && (codes.length === 0 || codes.includes(`course_${String(n.course_id)}`) || codes.includes(`user_${String(n.user_id)}`)));
    return { kind: 'list', items: notes, view: (n) => noteView(ctx, n as Row) };
  },
  'planner_notes.show': (ctx) => one(noteView(ctx, noteOf(ctx))),
  'planner_notes.create': (ctx) => {
    const note: Row = { user_id: ctx.state.selfUserId, title: '', description: '', todo_date: ctx.state.now() };
    writeNote(ctx, note);
    return one(noteView(ctx, ctx.state.insert('planner_notes', note)));
  },
  'planner_notes.update': (ctx) => {
    const note = noteOf(ctx);
    const before = { ...note };
    try {
      writeNote(ctx, note);
    } catch (e) {
      // The note's own keys: it is put back as it was.
      for (const k of Object.keys(note)) Reflect.deleteProperty(note, k);
      Object.assign(note, before);
      throw e;
    }
    return one(noteView(ctx, note));
  },
  'planner_notes.delete': (ctx) => {
    const note = noteOf(ctx);
    ctx.state.remove('planner_notes', note.id as number);
    return one({ ...noteView(ctx, note), workflow_state: 'deleted' });
  },
  'planner_items.list': (ctx) => {
    const start = ctx.params.get('start_date');
    const end = ctx.params.get('end_date');
    const courseIds = new Set(ctx.state.rows('enrollments', (e) => e.user_id === ctx.state.selfUserId).map((e) => e.course_id));
    const notes = ctx.state.rows('planner_notes', (n) => n.user_id === ctx.state.selfUserId && inTimeRange(n.todo_date, start, end)).map((n) => ({
      course_id: n.course_id ?? 0,
      plannable_id: String(n.id),
      plannable_type: 'planner_note',
      plannable: noteView(ctx, n),
      html_url: `${ctx.baseUrl}/api/v1/planner_notes/${String(n.id)}`,
      visible_in_planner: true,
      planner_override: null,
      submissions: false,
      _date: n.todo_date,
    }));
    const assignments = ctx.state.rows('assignments', (a) => courseIds.has(a.course_id) && inTimeRange(a.due_at, start, end)).map((a) => ({
      context_type: 'Course',
      course_id: a.course_id,
      plannable_id: String(a.id),
      plannable_type: 'assignment',
      plannable: { id: a.id, title: a.name, due_at: a.due_at, points_possible: a.points_possible },
      html_url: `${ctx.baseUrl}/courses/${String(a.course_id)}/assignments/${String(a.id)}`,
      visible_in_planner: true,
      planner_override: null,
      submissions: { excused: false, graded: false, late: false, missing: false, needs_grading: false, with_feedback: false },
      _date: a.due_at,
    }));
    return list([...notes, ...assignments].sort((a, b) => (String(a._date) < String(b._date) ? -1 : 1)));
  },

  'outcome_results.list': (ctx) => {
    const c = course(ctx);
    const users = listParam(ctx, 'user_ids').map((x) => toInt(x.replace(/^sis_user_id:/, '')));
    const outcomes = listParam(ctx, 'outcome_ids').map((x) => toInt(x));
    const rows = ctx.state.rows('outcome_results', (r) => r.course_id === c.id && (users.length === 0 || users.includes(r.user_id as number)) && (outcomes.length === 0 || outcomes.includes(r.outcome_id as number)));
    const results = rows.map((r) => ({ ...r, links: { user: String(r.user_id), learning_outcome: String(r.outcome_id), alignment: r.alignment_id } }));
    const extra: Row = {};
    if (includes(ctx, 'users') || includes(ctx, 'outcomes') || includes(ctx, 'alignments')) {
      const linked: Row = {};
      if (includes(ctx, 'users')) linked.users = [...new Set(rows.map((r) => r.user_id))].map((id) => ctx.state.get('users', id as number)).filter(Boolean);
      if (includes(ctx, 'outcomes')) linked.outcomes = [...new Set(rows.map((r) => r.outcome_id))].map((id) => ({ id, title: `Outcome ${String(id)}` }));
      if (includes(ctx, 'alignments')) linked.alignments = [...new Set(rows.map((r) => String(r.alignment_id)))].map((id) => ({ id, name: id, html_url: null }));
      extra.linked = linked;
    }
    return list(results, 'outcome_results', extra);
  },
  'outcome_rollups.list': (ctx) => {
    const c = course(ctx);
    const rows = ctx.state.rows('outcome_results', (r) => r.course_id === c.id);
    const byUser = new Map<number, Row[]>();
    for (const r of rows) byUser.set(r.user_id as number, [...(byUser.get(r.user_id as number) ?? []), r]);
    const rollups = [...byUser].map(([userId, rs]) => {
      const byOutcome = new Map<number, number[]>();
      for (const r of rs) byOutcome.set(r.outcome_id as number, [...(byOutcome.get(r.outcome_id as number) ?? []), Number(r.score ?? 0)]);
      return {
        name: ctx.state.get('users', userId)?.name ?? `user ${userId}`,
        links: { user: userId, course: c.id },
        scores: [...byOutcome].map(([outcome, scores]) => ({ score: scores.reduce((s, v) => s + v, 0) / scores.length, count: scores.length, links: { outcome: String(outcome) } })),
      };
    });
    const linked: Row = {};
    if (includes(ctx, 'users')) linked.users = [...byUser.keys()].map((id) => ctx.state.get('users', id)).filter(Boolean);
    if (includes(ctx, 'courses')) linked.courses = [courseView(ctx, c)];
    return list(rollups, 'rollups', { linked });
  },

  'webhook_subscriptions.create': (ctx) => {
    const sub: Row = { DeveloperKey: '10000000000001', created_at: ctx.state.now() };
    writeSubscription(ctx, sub);
    return one(ctx.state.insert('webhook_subscriptions', sub, true));
  },
  'webhook_subscriptions.list': (ctx) => {
    const all = ctx.state.rows('webhook_subscriptions');
    const size = Math.min(Math.max(ctx.params.int('per_page') ?? 100, 1), 100);
    let from = 0;
    const startKey = ctx.headers.startkey;
    if (typeof startKey === 'string' && startKey.trim()) {
      let key: unknown;
      try {
        key = JSON.parse(startKey);
      } catch {
        key = undefined;
      }
      const id = key && typeof key === 'object' ? (key as Row).Id : undefined;
      if (typeof id !== 'string') throw new HttpError(400, 'the StartKey header must be the JSON object of a previous EndKey header, with the keys Id and DeveloperKey', 'invalid-start-key', 'StartKey');
      const at = all.findIndex((s) => s.id === id);
      if (at === -1) throw new HttpError(400, `StartKey names subscription ${id}, which does not exist`, 'invalid-start-key', 'StartKey');
      from = at + 1;
    }
    const page = all.slice(from, from + size);
    const headers: Record<string, string> = {};
    if (from + size < all.length && page.length) headers.EndKey = JSON.stringify({ Id: page[page.length - 1].id, DeveloperKey: page[page.length - 1].DeveloperKey ?? '' });
    return { kind: 'raw', status: 200, body: page, headers };
  },
  'webhook_subscriptions.show': (ctx) => one(subscriptionOf(ctx)),
  'webhook_subscriptions.update': (ctx) => {
    const sub = subscriptionOf(ctx);
    writeSubscription(ctx, sub);
    return one(sub);
  },
  'webhook_subscriptions.delete': (ctx) => {
    const sub = subscriptionOf(ctx);
    ctx.state.remove('webhook_subscriptions', String(sub.id));
    return one(sub);
  },

  'notification_preferences.list': (ctx) => {
    const channel = channelOf(ctx);
    return list(ctx.state.rows('notification_preferences', (p) => p.channel_id === channel.id).map((p) => preferenceView(ctx, channel, p)));
  },
  'notification_preferences.list_categories': (ctx) => {
    const channel = channelOf(ctx);
    return raw(200, { categories: [...new Set(ctx.state.rows('notification_preferences', (p) => p.channel_id === channel.id).map((p) => p.category))] });
  },
  'notification_preferences.show': (ctx) => {
    const channel = channelOf(ctx);
    const p = ctx.state.find('notification_preferences', (x) => x.channel_id === channel.id && x.notification === ctx.bindings.get('notification'));
    if (!p) notFound(`notification preference ${ctx.bindings.get('notification') ?? ''}`);
    return one(preferenceView(ctx, channel, p));
  },
  'notification_preferences.update': (ctx) => {
    const channel = channelOf(ctx);
    const name = ctx.bindings.get('notification') ?? '';
    const frequency = frequencyOf(ctx.params.get('notification_preferences[frequency]'), 'notification_preferences[frequency]');
    let p = ctx.state.find('notification_preferences', (x) => x.channel_id === channel.id && x.notification === name);
    if (p) p.frequency = frequency;
    else p = ctx.state.insert('notification_preferences', { channel_id: channel.id, notification: name, category: name, frequency });
    return raw(200, { notification_preferences: [preferenceView(ctx, channel, p)] });
  },
  'notification_preferences.update_category': (ctx) => {
    const channel = channelOf(ctx);
    const category = ctx.bindings.get('category') ?? '';
    const frequency = frequencyOf(ctx.params.get('notification_preferences[frequency]'), 'notification_preferences[frequency]');
    const rows = ctx.state.rows('notification_preferences', (x) => x.channel_id === channel.id && x.category === category);
    for (const p of rows) p.frequency = frequency;
    return raw(200, { notification_preferences: rows.map((p) => preferenceView(ctx, channel, p)) });
  },
  'notification_preferences.update_multiple': (ctx) => {
    const channel = channelOf(ctx);
    const sent = ctx.params.group('notification_preferences');
    const changed: Row[] = [];
    for (const [name, value] of Object.entries(sent)) {
      const frequency = frequencyOf((value as Row | undefined)?.frequency, `notification_preferences[${name}][frequency]`);
      let p = ctx.state.find('notification_preferences', (x) => x.channel_id === channel.id && x.notification === name);
      if (p) p.frequency = frequency;
      else p = ctx.state.insert('notification_preferences', { channel_id: channel.id, notification: name, category: name, frequency });
      changed.push(p);
    }
    return raw(200, { notification_preferences: changed.map((p) => preferenceView(ctx, channel, p)) });
  },

  'course_audit_log.list': (ctx) => {
    const c = course(ctx);
    const start = ctx.params.get('start_time');
    const end = ctx.params.get('end_time');
    const events = ctx.state
      .rows('course_events', (e) => e.course_id === c.id && (!start || String(e.created_at) >= start) && (!end || String(e.created_at) <= end))
      .sort((a, b) => (String(a.created_at) < String(b.created_at) ? 1 : -1))
      .map((e): Row => ({ ...e, links: { course: e.course_id, user: e.user_id, sis_batch: 0 } }));
    const userIds = [...new Set(events.map((e) => e.user_id))];
    return list(events, 'events', { linked: { courses: [courseView(ctx, c)], users: userIds.map((id) => ctx.state.get('users', id as number)).filter(Boolean), page_views: [] } });
  },
  'error_reports.create': (ctx) => {
    const error = ctx.params.group('error');
    const stored = ctx.state.insert('error_reports', { ...error, created_at: ctx.state.now() });
    return raw(200, { logged: true, id: stored.id });
  },
  'search.recipients': (ctx) => list(recipients(ctx)),
  'search.all_courses': (ctx) => {
    const terms = (ctx.params.get('search') ?? '').toLowerCase();
    const openOnly = ctx.params.bool('open_enrollment_only') === true;
    return list(ctx.state.rows('courses', (c) => c.is_public === true && c.workflow_state !== 'deleted' && (!terms || String(c.name).toLowerCase().includes(terms)) && (!openOnly || c.open_enrollment === true)).map((c) => courseView(ctx, c)));
  },
};
