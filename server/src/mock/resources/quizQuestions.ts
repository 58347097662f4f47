/** Quiz questions (document B). */
import {
  type HandlersOf,
  list,
  type MockContext,
  nextPosition,
  notFound,
  one,
  pathId,
  pick,
  raw,
} from '../context';
import { toInt, toNumber } from '../params';
import type { Row } from '../state';
import { quizOf, questionsOf } from './quizzes';

function writeQuestion(ctx: MockContext, q: Row) {
  const g = ctx.params.group('question');
  Object.assign(q, pick(g, ['question_name', 'question_text', 'question_type', 'correct_comments', 'incorrect_comments', 'neutral_comments', 'text_after_answers']));
  if (g.position !== undefined) q.position = toInt(g.position);
  if (g.points_possible !== undefined) q.points_possible = toNumber(g.points_possible);
  if (g.quiz_group_id !== undefined) q._quiz_group_id = toInt(g.quiz_group_id);
  const answers = g.answers;
  if (answers && typeof answers === 'object') {
    const entries = Array.isArray(answers) ? answers : Object.entries(answers as Row).sort(([a], [b]) => (toInt(a) ?? 0) - (toInt(b) ?? 0)).map(([, v]) => v);
    q.answers = entries.filter((a): a is Row => a !== null && typeof a === 'object').map((a, i) => ({ id: toInt(a.id) ?? i + 1, answer_text: '', answer_weight: 0, answer_comments: '', ...a }));
  }
}

export const quizQuestionHandlers = {
  'quiz_questions.list': (ctx) => list(questionsOf(ctx.state, quizOf(ctx).quiz.id)),
  'quiz_questions.show': (ctx) => {
    const { quiz } = quizOf(ctx);
    const q = ctx.state.get('quiz_questions', pathId(ctx));
    if (!q || q.quiz_id !== quiz.id) notFound(`question ${ctx.bindings.get('id') ?? ''} of quiz ${String(quiz.id)}`);
    return one(q);
  },
  'quiz_questions.create': (ctx) => {
    const { course: c, quiz } = quizOf(ctx);
    const q: Row = { quiz_id: quiz.id, course_id: c.id, position: nextPosition(questionsOf(ctx.state, quiz.id)), question_name: 'Question', question_type: 'text_only_question', question_text: '', points_possible: 0, answers: [] };
    writeQuestion(ctx, q);
    return one(ctx.state.insert('quiz_questions', q));
  },
  'quiz_questions.update': (ctx) => {
    const { quiz } = quizOf(ctx);
    const q = ctx.state.get('quiz_questions', pathId(ctx));
    if (!q || q.quiz_id !== quiz.id) notFound(`question ${ctx.bindings.get('id') ?? ''} of quiz ${String(quiz.id)}`);
    writeQuestion(ctx, q);
    return one(q);
  },
  'quiz_questions.delete': (ctx) => {
    const { quiz } = quizOf(ctx);
    const q = ctx.state.get('quiz_questions', pathId(ctx));
    if (!q || q.quiz_id !== quiz.id) notFound(`question ${ctx.bindings.get('id') ?? ''} of quiz ${String(quiz.id)}`);
    ctx.state.remove('quiz_questions', q.id as number);
    return raw(204);
  },
} satisfies HandlersOf<'quiz_questions'>;
