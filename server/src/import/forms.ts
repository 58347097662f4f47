/** Form and query strings, read as a server reads them: `&` between pairs, `+` a space, percent-decoded. */

export function decodeFormPart(s: string): string {
  const spaced = s.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    // A stray `%` is sent as it is; the server reads it so.
    return spaced;
  }
}

/** `a=1&b=2` to its pairs, decoded; a pair without `=` has an empty value. */
export function splitForm(s: string): [string, string][] {
  const out: [string, string][] = [];
  for (const part of s.split('&')) {
    if (part.length === 0) continue;
    const eq = part.indexOf('=');
    out.push(
      eq === -1 ? [decodeFormPart(part), ''] : [decodeFormPart(part.slice(0, eq)), decodeFormPart(part.slice(eq + 1))],
    );
  }
  return out;
}
