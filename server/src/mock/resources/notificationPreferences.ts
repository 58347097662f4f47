/** Notification preferences of a communication channel (document C). */
import { type HandlersOf, list, type MockContext, must, notFound, one, raw, user } from '../context';
import { enumValue } from '../documented';
import { toInt } from '../params';
import type { Row } from '../state';

function channelOf(ctx: MockContext): Row {
  const u = ctx.template.includes('/users/self/') ? must(ctx, 'users', ctx.callerId, 'user') : user(ctx);
  const byId = ctx.bindings.get('communication_channel_id');
  const channel =
    byId !== undefined
      ? ctx.state.get('communication_channels', toInt(byId) ?? -1)
      : ctx.state.find(
          'communication_channels',
          (c) => c.type === ctx.bindings.get('type') && c.address === ctx.bindings.get('address'),
        );
  if (!channel || channel.user_id !== u.id)
    notFound(
      `communication channel ${byId ?? `${ctx.bindings.get('type') ?? ''}/${ctx.bindings.get('address') ?? ''}`} of user ${String(u.id)}`,
    );
  return channel;
}

function preferenceView(ctx: MockContext, channel: Row, p: Row): Row {
  return {
    ...p,
    href: `${ctx.baseUrl}/api/v1/users/${String(channel.user_id)}/communication_channels/${String(channel.id)}/notification_preferences/${String(p.notification)}`,
  };
}

export const notificationPreferenceHandlers = {
  'notification_preferences.list': (ctx) => {
    const channel = channelOf(ctx);
    return list(
      ctx.state
        .rows('notification_preferences', (p) => p.channel_id === channel.id)
        .map((p) => preferenceView(ctx, channel, p)),
    );
  },
  'notification_preferences.list_categories': (ctx) => {
    const channel = channelOf(ctx);
    return raw(200, {
      categories: [
        ...new Set(
          ctx.state.rows('notification_preferences', (p) => p.channel_id === channel.id).map((p) => p.category),
        ),
      ],
    });
  },
  'notification_preferences.show': (ctx) => {
    const channel = channelOf(ctx);
    const p = ctx.state.find(
      'notification_preferences',
      (x) => x.channel_id === channel.id && x.notification === ctx.bindings.get('notification'),
    );
    if (!p) notFound(`notification preference ${ctx.bindings.get('notification') ?? ''}`);
    return one(preferenceView(ctx, channel, p));
  },
  'notification_preferences.update': (ctx) => {
    const channel = channelOf(ctx);
    const name = ctx.bindings.get('notification') ?? '';
    const frequency = enumValue(ctx, 'notification_preferences[frequency]');
    let p = ctx.state.find('notification_preferences', (x) => x.channel_id === channel.id && x.notification === name);
    if (p) p.frequency = frequency;
    else
      p = ctx.state.insert('notification_preferences', {
        channel_id: channel.id,
        notification: name,
        category: name,
        frequency,
      });
    return raw(200, { notification_preferences: [preferenceView(ctx, channel, p)] });
  },
  'notification_preferences.update_category': (ctx) => {
    const channel = channelOf(ctx);
    const category = ctx.bindings.get('category') ?? '';
    const frequency = enumValue(ctx, 'notification_preferences[frequency]');
    const rows = ctx.state.rows(
      'notification_preferences',
      (x) => x.channel_id === channel.id && x.category === category,
    );
    for (const p of rows) p.frequency = frequency;
    return raw(200, { notification_preferences: rows.map((p) => preferenceView(ctx, channel, p)) });
  },
  'notification_preferences.update_multiple': (ctx) => {
    const channel = channelOf(ctx);
    const changed: Row[] = [];
    for (const name of Object.keys(ctx.params.group('notification_preferences'))) {
      const frequency = enumValue(ctx, `notification_preferences[${name}][frequency]`);
      let p = ctx.state.find('notification_preferences', (x) => x.channel_id === channel.id && x.notification === name);
      if (p) p.frequency = frequency;
      else
        p = ctx.state.insert('notification_preferences', {
          channel_id: channel.id,
          notification: name,
          category: name,
          frequency,
        });
      changed.push(p);
    }
    return raw(200, { notification_preferences: changed.map((p) => preferenceView(ctx, channel, p)) });
  },
} satisfies HandlersOf<'notification_preferences'>;
