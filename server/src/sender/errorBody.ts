/**
 * The API's own message in an error body. A body is the API's message only when it is JSON in
 * one of the shapes below, or `text/plain`; anything else (an HTML page of a proxy or a web
 * server, however short, XML, an unknown JSON shape) is shown as what it is, never quoted as
 * what the API says.
 *
 * The documentation leaves the structure of error bodies unstated (document A, "Errors",
 * item 4), so the shapes are those the API's family is known to answer, and lpreq's own mock
 * answers (docs/mock.md); each is read strictly, member by member.
 */
import { own } from '../core/index';

/** At most this many characters of a text/plain message: the whole body is in the view below it. */
const MAX_TEXT_MESSAGE = 2000;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isText = (v: unknown): v is string => typeof v === 'string' && v.trim().length > 0;

/** One message of a list: a string, or an object with a string `message`. */
function messageOf(item: unknown): string | undefined {
  if (isText(item)) return item;
  if (isObject(item)) {
    const m = own(item, 'message');
    if (isText(m)) return m;
  }
  return undefined;
}

/** Each shape: its name (for the tests and the docs) and how its messages are read; none when the body is not of it. */
export const ERROR_SHAPES: readonly { name: string; example: string; read(body: Json): string[] | undefined }[] = [
  {
    // The mock's, and the API's for most failures: a list of messages.
    name: 'errors as a list',
    example: '{"errors":[{"message":"The specified resource does not exist."}]}',
    read: (b) => {
      const errors = own(b, 'errors');
      if (!Array.isArray(errors) || errors.length === 0) return undefined;
      const messages = errors.map(messageOf);
      return messages.every((m) => m !== undefined) ? (messages as string[]) : undefined;
    },
  },
  {
    // A validation failure: the messages of each attribute.
    name: 'errors by attribute',
    example: '{"errors":{"name":[{"message":"name is too long"}]}}',
    read: (b) => {
      const errors = own(b, 'errors');
      if (!isObject(errors)) return undefined;
      const out: string[] = [];
      for (const [field, value] of Object.entries(errors)) {
        const list = Array.isArray(value) ? value.map(messageOf) : [messageOf(value)];
        if (list.length === 0 || list.some((m) => m === undefined)) return undefined;
        out.push(`${field}: ${list.join('; ')}`);
      }
      return out.length > 0 ? out : undefined;
    },
  },
  {
    name: 'a message',
    example: '{"message":"Invalid access token."}',
    read: (b) => {
      const m = own(b, 'message');
      return isText(m) ? [m] : undefined;
    },
  },
  {
    // OAuth 2.0's error response (RFC 6749, section 5.2), from the token endpoints.
    name: 'an OAuth error',
    example: '{"error":"invalid_grant","error_description":"The code has expired."}',
    read: (b) => {
      const error = own(b, 'error');
      if (!isText(error)) return undefined;
      const description = own(b, 'error_description');
      return [isText(description) ? `${error}: ${description}` : error];
    },
  },
];

/** Whether a content type is plain text (`text/plain; charset=utf-8`): not HTML, not XML, not any other text. */
function isPlainText(contentType: string | undefined): boolean {
  return contentType !== undefined && /^\s*text\/plain\s*(;|$)/i.test(contentType);
}

/**
 * The messages of an API error body, each on its own, in the order the body gives them: a
 * parsed JSON body of a known shape, or the text of a `text/plain` body. None for any other.
 */
export function apiErrorMessages(body: unknown, contentType: string | undefined): string[] {
  if (typeof body === 'string') {
    if (!isPlainText(contentType)) return [];
    const text = body.trim();
    if (text.length === 0) return [];
    return [text.length > MAX_TEXT_MESSAGE ? `${text.slice(0, MAX_TEXT_MESSAGE)}…` : text];
  }
  if (!isObject(body)) return [];
  for (const shape of ERROR_SHAPES) {
    const messages = shape.read(body);
    if (messages) return messages;
  }
  return [];
}

/** The message of an API error body, its messages joined, if any. */
export function apiErrorMessage(body: unknown, contentType: string | undefined): string | undefined {
  const messages = apiErrorMessages(body, contentType);
  return messages.length > 0 ? messages.join('; ') : undefined;
}
