/** Quiz questions (document B). */
import { type HandlersOf, list, type MockContext, nextPosition, notFound, one, pathId, raw } from '../context';
import { documentedFields } from '../documented';
import type { Row } from '../state';
import { quizOf, questionsOf } from './quizzes';

function writeQuestion(ctx: MockContext, q: Row) {
  const fields = documentedFields(ctx, { under: 'question' });
  // The docs give answers no id of their own: an answer sent without one is numbered by its place.
  if (Array.isArray(fields.answers))
    fields.answers = fields.answers.map((answer, i) => ({ id: i + 1, ...(answer as Row) }));
  Object.assign(q, fields);
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
    const q: Row = {
      quiz_id: quiz.id,
      course_id: c.id,
      position: nextPosition(questionsOf(ctx.state, quiz.id)),
      question_name: 'Question',
      question_type: 'text_only_question',
      answers: [],
    };
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
