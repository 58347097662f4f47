/**
 * What the response view's webview sends, checked before the extension host acts on it:
 * a message of another shape, a field of the wrong type, an unknown action or an oversized
 * list is dropped (undefined), never thrown on. The webview is ours, but what it sends is
 * treated as input. Pure.
 */
import { own } from '../../../server/src/core/index';
import { ACTION_IDS, type ActionId, type WebviewMessage } from '../../webview/model/protocol';

/** Patterns asked for at once; a screen shows far fewer. */
const MAX_PATTERNS = 500;
/** Longest path or pattern taken. */
const MAX_PATH_CHARS = 4096;
const MAX_ID_CHARS = 4096;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isPath = (v: unknown): v is string =>
  typeof v === 'string' && v.length > 0 && v.length <= MAX_PATH_CHARS && v.startsWith('$');

const field = (m: Record<string, unknown>, name: string): unknown => own(m, name);
const isDuration = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

export function parseWebviewMessage(message: unknown): WebviewMessage | undefined {
  if (!isRecord(message)) return undefined;
  const type = field(message, 'type');
  switch (type) {
    case 'ready':
      return field(message, 'inflate') === true ? { type, inflate: true } : { type };
    case 'action': {
      const action = field(message, 'action');
      return typeof action === 'string' && (ACTION_IDS as readonly string[]).includes(action)
        ? { type, action: action as ActionId }
        : undefined;
    }
    case 'describe': {
      const id = field(message, 'id');
      const patterns = field(message, 'patterns');
      if (!isId(id) || !Array.isArray(patterns) || patterns.length > MAX_PATTERNS || !patterns.every(isPath))
        return undefined;
      return { type, id, patterns: [...(patterns as string[])] };
    }
    case 'tree': {
      const id = field(message, 'id');
      const parent = field(message, 'parent');
      if (!isId(id) || !(parent === null || (typeof parent === 'string' && parent.length <= MAX_ID_CHARS)))
        return undefined;
      return { type, id, parent };
    }
    case 'copy': {
      const what = field(message, 'what');
      const path = field(message, 'path');
      return (what === 'value' || what === 'path') && isPath(path) ? { type, what, path } : undefined;
    }
    case 'docs': {
      const path = field(message, 'path');
      return isPath(path) ? { type, path } : undefined;
    }
    case 'select': {
      const index = field(message, 'index');
      return index === null || isId(index) ? { type, index } : undefined;
    }
    case 'rendered': {
      const id = field(message, 'id');
      const ms = field(message, 'ms');
      const transferMs = field(message, 'transferMs');
      if (!isId(id) || !isDuration(ms)) return undefined;
      return isDuration(transferMs) ? { type, id, ms, transferMs } : { type, id, ms };
    }
    default:
      return undefined;
  }
}
