/**
 * How a leak of a secret is looked for, with a decoder of the tests' own (never secrets.ts):
 * the spellings a server or a file may write a secret in, and the decodings a text may hide
 * one in. The secret property (test/system/secretProperty.test.ts) and the MCP server's
 * (test/system/mcpSecrets.test.ts) share them.
 */

/** Every UTF-16 unit of a text as a JSON `\u` escape. */
export const uEscape = (text: string) =>
  [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
const pct = (text: string, lower = false) =>
  [...Buffer.from(text, 'utf8')]
    .map((b) => `%${b.toString(16).padStart(2, '0')[lower ? 'toLowerCase' : 'toUpperCase']()}`)
    .join('');

/** The spellings of a secret the scrubber knows, as a server or a file writes them. */
export const SPELLINGS: Record<string, (s: string) => string> = {
  'as it is': (s) => s,
  'upper case': (s) => s.toUpperCase(),
  'lower case': (s) => s.toLowerCase(),
  'percent-encoded, upper': (s) => pct(s),
  'percent-encoded, lower': (s) => pct(s, true),
  'form-encoded': (s) => encodeURIComponent(s).replace(/%20/g, '+'),
  'JSON \\u escapes': uEscape,
  'JSON \\/': (s) => s.replace(/\//g, '\\/'),
  'a mix': (s) => [...s].map((c, i) => (i % 3 === 0 ? pct(c) : i % 3 === 1 ? uEscape(c) : c)).join(''),
};

/** The texts a leak could hide in, decoded as a server could decode them: percent (`+` a space), JSON escapes, each up to twice, in any order. */
function decodings(text: string): string[] {
  const percent = (t: string) => t.replace(/%([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  const json = (t: string) =>
    t
      .replace(/\\u([0-9a-f]{4})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
      .replace(/\\(["/\\])/g, '$1');
  const steps = [percent, (t: string) => percent(t.replace(/\+/g, ' ')), json];
  let all = [text];
  for (let depth = 0; depth < 2; depth++) all = [...new Set([...all, ...all.flatMap((t) => steps.map((f) => f(t)))])];
  return all;
}
export function leaks(text: string, secret: string): boolean {
  return decodings(text).some((d) => d.toLowerCase().includes(secret.toLowerCase()));
}
