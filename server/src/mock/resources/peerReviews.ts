/** Peer reviews (document B). */
import {
  badRequest,
  courseOrSection,
  type HandlersOf,
  includes,
  list,
  type MockContext,
  must,
  notFound,
  one,
  pathId,
} from '../context';
import type { Row } from '../state';
import { assignmentOf } from './submissions';

function peerReviewView(ctx: MockContext, r: Row): Row {
  const view: Row = { ...r, asset_type: 'Submission' };
  if (includes(ctx, 'user')) {
    view.user = ctx.state.get('users', r.user_id as number) ?? {};
    view.assessor = ctx.state.get('users', r.assessor_id as number) ?? {};
  }
  if (includes(ctx, 'submission_comments')) view.submission_comments = [];
  return view;
}

function submissionOfPath(ctx: MockContext, c: Row, a: Row): Row {
  const id = pathId(ctx, 'submission_id');
  const s = ctx.state.find('submissions', (x) => x.assignment_id === a.id && (x.id === id || x.user_id === id));
  if (!s || s.course_id !== c.id) notFound(`submission ${id} of assignment ${String(a.id)}`);
  return s;
}

export const peerReviewHandlers = {
  'peer_reviews.list': (ctx) => {
    const { course: c } = courseOrSection(ctx);
    const a = assignmentOf(ctx, c);
    const asset = ctx.bindings.has('submission_id') ? submissionOfPath(ctx, c, a).id : undefined;
    return list(
      ctx.state
        .rows('peer_reviews', (r) => r.assignment_id === a.id && (asset === undefined || r.asset_id === asset))
        .map((r) => peerReviewView(ctx, r)),
    );
  },
  'peer_reviews.create': (ctx) => {
    const { course: c } = courseOrSection(ctx);
    const a = assignmentOf(ctx, c);
    const s = submissionOfPath(ctx, c, a);
    const reviewer = must(ctx, 'users', ctx.params.int('user_id'), 'user');
    if (!ctx.state.find('enrollments', (e) => e.course_id === c.id && e.user_id === reviewer.id))
      badRequest(`user ${String(reviewer.id)} is not in course ${String(c.id)}`, 'not-enrolled', 'user_id');
    const existing = ctx.state.find('peer_reviews', (r) => r.asset_id === s.id && r.assessor_id === reviewer.id);
    return one(
      peerReviewView(
        ctx,
        existing ??
          ctx.state.insert('peer_reviews', {
            course_id: c.id,
            assignment_id: a.id,
            asset_id: s.id,
            user_id: s.user_id,
            assessor_id: reviewer.id,
            workflow_state: 'assigned',
          }),
      ),
    );
  },
  'peer_reviews.delete': (ctx) => {
    const { course: c } = courseOrSection(ctx);
    const a = assignmentOf(ctx, c);
    const s = submissionOfPath(ctx, c, a);
    const reviewer = ctx.params.int('user_id');
    const r = ctx.state.find('peer_reviews', (x) => x.asset_id === s.id && x.assessor_id === reviewer);
    if (!r) notFound(`a peer review of submission ${String(s.id)} by user ${String(reviewer)}`);
    ctx.state.remove('peer_reviews', r.id as number);
    return one(peerReviewView(ctx, r));
  },
} satisfies HandlersOf<'peer_reviews'>;
