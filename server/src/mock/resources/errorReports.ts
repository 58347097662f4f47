/** Error reports (document C). */
import { type HandlersOf, raw } from '../context';

export const errorReportHandlers = {
  'error_reports.create': (ctx) => {
    const error = ctx.params.group('error');
    const stored = ctx.state.insert('error_reports', { ...error, created_at: ctx.state.now() });
    return raw(200, { logged: true, id: stored.id });
  },
} satisfies HandlersOf<'error_reports'>;
