/** Webhook subscriptions (document C), paged by the StartKey and EndKey headers. */
import { type HandlersOf, HttpError, type MockContext, notFound, one } from '../context';
import { documentedFields } from '../documented';
import type { Row } from '../state';

function subscriptionOf(ctx: MockContext): Row {
  const sub = ctx.state.get('webhook_subscriptions', ctx.bindings.get('id') ?? '');
  if (!sub) notFound(`webhook subscription ${ctx.bindings.get('id') ?? ''}`);
  return sub;
}

function writeSubscription(ctx: MockContext, sub: Row) {
  // The docs name the context id `submission[ContextId]`, beside the `subscription[...]` fields.
  Object.assign(sub, documentedFields(ctx, { under: 'submission' }), documentedFields(ctx, { under: 'subscription' }));
  sub.updated_at = ctx.state.now();
}

export const webhookHandlers = {
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
      if (typeof id !== 'string')
        throw new HttpError(
          400,
          'the StartKey header must be the JSON object of a previous EndKey header, with the keys Id and DeveloperKey',
          'invalid-start-key',
          'StartKey',
        );
      const at = all.findIndex((s) => s.id === id);
      if (at === -1)
        throw new HttpError(
          400,
          `StartKey names subscription ${id}, which does not exist`,
          'invalid-start-key',
          'StartKey',
        );
      from = at + 1;
    }
    const page = all.slice(from, from + size);
    const headers: Record<string, string> = {};
    if (from + size < all.length && page.length)
      headers.EndKey = JSON.stringify({
        Id: page[page.length - 1].id,
        DeveloperKey: page[page.length - 1].DeveloperKey ?? '',
      });
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
} satisfies HandlersOf<'webhook_subscriptions'>;
