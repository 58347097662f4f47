/**
 * The extension's settings as the sender's options. Pure: the values are read from the
 * configuration by the caller.
 */
import type { ExchangeOptions } from '../../../server/src/sender/index';
import { parseByteSize } from '../../../server/src/core/index';

export interface LpreqSettings {
  timeout: number;
  maxBodySize: number;
  followRedirects: boolean;
  proxy: string;
  protectedEnvironments: string[];
  showCodeLens: boolean;
  historySize: number;
  confirmSendWithErrors: boolean;
  /** `lpreq.response.view`: the response in an editor beside the request, or in the side bar's tree. */
  responseView: 'editor' | 'sidebar';
  /** `lpreq.response.reuse`: one response view for every request, instead of one per request. */
  responseReuse: boolean;
  /** `lpreq.defaultHeaders`: headers every request gets unless it (or its environment's `$defaultHeaders`) sets them. */
  defaultHeaders: [string, string][];
}

export const DEFAULT_SETTINGS: LpreqSettings = {
  timeout: 30000,
  maxBodySize: 52428800,
  followRedirects: true,
  proxy: '',
  protectedEnvironments: [],
  showCodeLens: true,
  historySize: 50,
  confirmSendWithErrors: true,
  responseView: 'editor',
  responseReuse: false,
  defaultHeaders: [],
};

/** The configuration key of a setting under `lpreq.`, where it is not the setting's own name. */
const CONFIG_KEYS: Partial<Record<keyof LpreqSettings, string>> = {
  responseView: 'response.view',
  responseReuse: 'response.reuse',
};

/** Settings that take a size in bytes: a number, or a text with a unit (`10MB`). */
const BYTE_SETTINGS: ReadonlySet<keyof LpreqSettings> = new Set(['maxBodySize']);

/** The least a body limit may be (as `lpreq send --max-body-size`). */
const MIN_BODY_SIZE = 1024;

/** A byte setting's value read, or why it cannot be (the default is used then). */
function readBytes(key: keyof LpreqSettings, value: unknown): { bytes: number } | { problem: string } | undefined {
  if (value === undefined || value === null) return undefined;
  const read = parseByteSize(value);
  if ('problem' in read) return { problem: `lpreq.${CONFIG_KEYS[key] ?? key}: ${read.problem}; the default is used` };
  if (read.bytes < MIN_BODY_SIZE)
    return {
      problem: `lpreq.${CONFIG_KEYS[key] ?? key} is at least 1 KiB (1024 bytes), not ${read.bytes}; the default is used`,
    };
  return read;
}

/** What is wrong with the settings as read through `get`, in words for the user (a value that cannot be read falls back to its default). */
export function settingProblems(get: (key: string) => unknown): string[] {
  const out: string[] = [];
  for (const key of BYTE_SETTINGS) {
    const read = readBytes(key, get(CONFIG_KEYS[key] ?? key));
    if (read && 'problem' in read) out.push(read.problem);
  }
  return out;
}

/** Reads the settings through `get` (given the key under `lpreq.`), falling back to the defaults on values of the wrong type. */
export function readSettings(get: (key: string) => unknown): LpreqSettings {
  const out = { ...DEFAULT_SETTINGS };
  for (const key of Object.keys(DEFAULT_SETTINGS) as (keyof LpreqSettings)[]) {
    const value = get(CONFIG_KEYS[key] ?? key);
    if (BYTE_SETTINGS.has(key)) {
      const read = readBytes(key, value);
      if (read && 'bytes' in read) (out as Record<string, unknown>)[key] = read.bytes;
      continue;
    }
    const fallback = DEFAULT_SETTINGS[key];
    if (Array.isArray(fallback)) {
      if (Array.isArray(value)) (out as Record<string, unknown>)[key] = value.filter((v) => typeof v === 'string');
    } else if (typeof value === typeof fallback) {
      (out as Record<string, unknown>)[key] = value;
    }
  }
  if (out.responseView !== 'editor' && out.responseView !== 'sidebar') out.responseView = DEFAULT_SETTINGS.responseView;
  out.defaultHeaders = headerPairs(get('defaultHeaders'));
  return out;
}

/** `{ "X-Trace": "lpreq" }` as header pairs; values that are not text are left out (the sender checks the names). */
function headerPairs(value: unknown): [string, string][] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([n, v]): [string, string][] =>
    typeof v === 'string' ? [[n, v]] : [],
  );
}

/** The exchange options of the settings (the token and the signal are added by the caller). */
export function exchangeOptions(s: LpreqSettings): ExchangeOptions {
  const options: ExchangeOptions = {
    timeoutMs: s.timeout > 0 ? s.timeout : undefined,
    maxBodyBytes: s.maxBodySize,
    maxRedirects: s.followRedirects ? undefined : 0,
  };
  if (s.proxy.trim().length > 0) options.proxy = s.proxy.trim();
  return options;
}
