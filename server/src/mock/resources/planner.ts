/** Planner notes and planner items (document C). */
import {
  badRequest,
  type HandlersOf,
  list,
  listParam,
  type MockContext,
  must,
  notFound,
  one,
  pathId,
} from '../context';
import { documentedFields } from '../documented';
import { toInt, inTimeRange } from '../params';
import type { Row } from '../state';
import { submissionView } from './submissions';

function noteOf(ctx: MockContext): Row {
  const note = ctx.state.get('planner_notes', pathId(ctx));
  if (!note || note.user_id !== ctx.callerId) notFound(`planner note ${ctx.bindings.get('id') ?? ''}`);
  return note;
}

/** A note as stored, with the links of the object it is linked to, if any; an unlinked note has no link fields. */
function noteView(ctx: MockContext, note: Row): Row {
  const view: Row = { ...note, workflow_state: 'active' };
  if (typeof note.linked_object_type === 'string' && note.course_id !== undefined) {
    const linked = `courses/${String(note.course_id)}/${note.linked_object_type}s/${String(note.linked_object_id)}`;
    view.linked_object_html_url = `${ctx.baseUrl}/${linked}`;
    view.linked_object_url = `${ctx.baseUrl}/api/v1/${linked}`;
  }
  return view;
}

function writeNote(ctx: MockContext, note: Row) {
  // course_id is checked below; the docs name the description `details` when it is sent.
  Object.assign(note, documentedFields(ctx, { except: ['course_id'] }));
  if (ctx.params.has('details')) note.description = ctx.params.get('details');
  if (ctx.params.has('course_id')) {
    const value = ctx.params.get('course_id') ?? '';
    if (value === '' || value === 'null') delete note.course_id;
    else {
      const c = must(ctx, 'courses', toInt(value), 'course', value);
      if (note.linked_object_type && note.course_id !== undefined && note.course_id !== c.id)
        badRequest('course_id cannot change for a note linked to a learning object', 'linked-note', 'course_id');
      note.course_id = c.id;
    }
  }
  if (note.linked_object_type && note.linked_object_id !== undefined) {
    // Document C, create: the linked object "must be in the course named by course_id; if title
    // is omitted the object's title is used" (of the objects the mock holds: assignments, quizzes).
    const table =
      note.linked_object_type === 'assignment'
        ? 'assignments'
        : note.linked_object_type === 'quiz'
          ? 'quizzes'
          : undefined;
    if (table) {
      const linked = ctx.state.get(table, note.linked_object_id as number);
      if (!linked || linked.course_id !== note.course_id)
        badRequest(
          `linked_object_id: ${String(note.linked_object_type)} ${String(note.linked_object_id)} is not in course ${String(note.course_id ?? '(none given)')}`,
          'not-in-course',
          'linked_object_id',
        );
      note.title ??= linked.name ?? linked.title;
    }
    const other = ctx.state.find(
      'planner_notes',
      (n) =>
        n !== note && n.linked_object_type === note.linked_object_type && n.linked_object_id === note.linked_object_id,
    );
    if (other)
      badRequest(
        `planner note ${String(other.id)} already links to ${String(note.linked_object_type)} ${String(note.linked_object_id)}`,
        'duplicate-link',
        'linked_object_id',
      );
  }
}

/**
 * Document C, Planner item `submissions`: "booleans excused, graded, late, missing,
 * needs_grading, with_feedback for the current user", from the caller's submission of the
 * assignment (none yet: nothing turned in, which may be missing once the due date has passed).
 */
function submissionFlags(ctx: MockContext, assignment: Row): Row {
  const stored = ctx.state.find('submissions', (s) => s.assignment_id === assignment.id && s.user_id === ctx.callerId);
  const view = submissionView(
    ctx,
    stored ?? { course_id: assignment.course_id, assignment_id: assignment.id, user_id: ctx.callerId },
  );
  return {
    excused: view.excused === true,
    graded: view.workflow_state === 'graded',
    late: view.late === true,
    missing: view.missing === true,
    needs_grading: view.workflow_state === 'submitted' || view.workflow_state === 'pending_review',
    with_feedback: Array.isArray(stored?.comments) && stored.comments.length > 0,
  };
}

export const plannerHandlers = {
  'planner_notes.list': (ctx) => {
    const start = ctx.params.get('start_date');
    const end = ctx.params.get('end_date');
    const codes = listParam(ctx, 'context_codes');
    const notes = ctx.state.rows(
      'planner_notes',
      (n) =>
        n.user_id === ctx.callerId &&
        inTimeRange(n.todo_date, start, end) &&
        (codes.length === 0 ||
          codes.includes(`course_${String(n.course_id)}`) ||
          codes.includes(`user_${String(n.user_id)}`)),
    );
    return { kind: 'list', items: notes, view: (n) => noteView(ctx, n as Row) };
  },
  'planner_notes.show': (ctx) => one(noteView(ctx, noteOf(ctx))),
  'planner_notes.create': (ctx) => {
    const note: Row = { user_id: ctx.callerId };
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
    const courseIds = new Set(ctx.state.rows('enrollments', (e) => e.user_id === ctx.callerId).map((e) => e.course_id));
    const notes = ctx.state
      .rows('planner_notes', (n) => n.user_id === ctx.callerId && inTimeRange(n.todo_date, start, end))
      .map((n) => ({
        // Document C, Planner item: context_type is "absent for notes without a course", and so is the course.
        ...(n.course_id !== undefined ? { context_type: 'Course', course_id: n.course_id } : {}),
        plannable_id: String(n.id),
        plannable_type: 'planner_note',
        plannable: noteView(ctx, n),
        html_url: `${ctx.baseUrl}/api/v1/planner_notes/${String(n.id)}`,
        visible_in_planner: true,
        planner_override: null,
        submissions: false,
        _date: n.todo_date,
      }));
    const assignments = ctx.state
      .rows('assignments', (a) => courseIds.has(a.course_id) && inTimeRange(a.due_at, start, end))
      .map((a) => ({
        context_type: 'Course',
        course_id: a.course_id,
        plannable_id: String(a.id),
        plannable_type: 'assignment',
        plannable: { id: a.id, title: a.name, due_at: a.due_at, points_possible: a.points_possible },
        html_url: `${ctx.baseUrl}/courses/${String(a.course_id)}/assignments/${String(a.id)}`,
        visible_in_planner: true,
        planner_override: null,
        submissions: submissionFlags(ctx, a),
        _date: a.due_at,
      }));
    return list([...notes, ...assignments].sort((a, b) => (String(a._date) < String(b._date) ? -1 : 1)));
  },
} satisfies HandlersOf<'planner_notes' | 'planner_items'>;
