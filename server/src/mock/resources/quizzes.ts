/** The quiz of a path and its questions, shared by the quiz submission and quiz question endpoints (document B). */
import { byPosition, course, type MockContext, notFound, pathId } from '../context';
import type { MockState, Row } from '../state';

export function quizOf(ctx: MockContext): { course: Row; quiz: Row } {
  const c = course(ctx);
  const quiz = ctx.state.get('quizzes', pathId(ctx, 'quiz_id'));
  if (!quiz || quiz.course_id !== c.id) notFound(`quiz ${ctx.bindings.get('quiz_id') ?? ''} in course ${String(c.id)}`);
  return { course: c, quiz };
}

export function questionsOf(state: MockState, quizId: unknown): Row[] {
  return state.rows('quiz_questions', (q) => q.quiz_id === quizId).sort(byPosition);
}
