/** Gradebook history (document B): grading events by day, grader and assignment. */
import { course, type HandlersOf, list, type MockContext, pathId } from '../context';
import type { Row } from '../state';
import { submissionView } from './submissions';

interface GradeEvent {
  submission: Row;
  date: string;
  graderId: number;
}

function gradeEvents(ctx: MockContext, c: Row): GradeEvent[] {
  return ctx.state
    .rows(
      'submissions',
      (s) =>
        s.course_id === c.id && typeof s.graded_at === 'string' && s.grader_id !== undefined && s.grader_id !== null,
    )
    .map((s) => ({ submission: s, date: String(s.graded_at).slice(0, 10), graderId: s.grader_id as number }));
}

function graders(ctx: MockContext, events: GradeEvent[]): Row[] {
  const byGrader = new Map<number, Set<number>>();
  for (const e of events) {
    const set = byGrader.get(e.graderId) ?? new Set<number>();
    set.add(e.submission.assignment_id as number);
    byGrader.set(e.graderId, set);
  }
  return [...byGrader].map(([id, assignments]) => ({
    id,
    name: ctx.state.get('users', id)?.name ?? `user ${id}`,
    assignments: [...assignments],
  }));
}

/**
 * A version of a graded submission: the submission, with the grade it has now as its current
 * and new grade. The mock keeps one version of each grade, so there is no previous grade to show.
 */
function versionOf(ctx: MockContext, s: Row): Row {
  const grader = ctx.state.get('users', s.grader_id as number)?.name;
  return {
    ...submissionView(ctx, s),
    assignment_name: ctx.state.get('assignments', s.assignment_id as number)?.name,
    user_name: ctx.state.get('users', s.user_id as number)?.name,
    current_grade: s.grade,
    current_graded_at: s.graded_at,
    current_grader: grader,
    grader,
    new_grade: s.grade,
    new_graded_at: s.graded_at,
    new_grader: grader,
  };
}

export const gradebookHistoryHandlers = {
  'gradebook_history.days': (ctx) => {
    const events = gradeEvents(ctx, course(ctx));
    const dates = [...new Set(events.map((e) => e.date))].sort().reverse();
    return list(
      dates.map((date) => ({
        date,
        graders: graders(
          ctx,
          events.filter((e) => e.date === date),
        ),
      })),
    );
  },
  'gradebook_history.day': (ctx) => {
    const date = ctx.bindings.get('date') ?? '';
    return list(
      graders(
        ctx,
        gradeEvents(ctx, course(ctx)).filter((e) => e.date === date),
      ),
    );
  },
  'gradebook_history.submissions': (ctx) => {
    const date = ctx.bindings.get('date') ?? '';
    const grader = pathId(ctx, 'grader_id');
    const assignment = pathId(ctx, 'assignment_id');
    const events = gradeEvents(ctx, course(ctx)).filter(
      (e) => e.date === date && e.graderId === grader && e.submission.assignment_id === assignment,
    );
    return list(events.map((e) => ({ submission_id: e.submission.id, versions: [versionOf(ctx, e.submission)] })));
  },
  'gradebook_history.feed': (ctx) => {
    const assignment = ctx.params.int('assignment_id');
    const userId = ctx.params.int('user_id');
    const events = gradeEvents(ctx, course(ctx))
      .filter(
        (e) =>
          (assignment === undefined || e.submission.assignment_id === assignment) &&
          (userId === undefined || e.submission.user_id === userId),
      )
      .sort((a, b) => (String(a.submission.graded_at) < String(b.submission.graded_at) ? -1 : 1));
    if (ctx.params.bool('ascending') !== true) events.reverse();
    return list(
      events.map((e) => {
        const v = versionOf(ctx, e.submission);
        delete v.new_grade;
        return v;
      }),
    );
  },
} satisfies HandlersOf<'gradebook_history'>;
