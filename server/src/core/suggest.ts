/** The closest documented name or value to what was typed, for "did you mean". */

/** Optimal string alignment distance (a transposition counts as one edit: nmae -> name). */
export function editDistance(a: string, b: string, limit = Infinity): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let prev2 = new Array<number>(b.length + 1).fill(0);
  let prev = new Array<number>(b.length + 1);
  let cur = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2] + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > limit) return limit + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[b.length];
}

/** The candidate closest to `input`, if it is close enough to be a likely typo. */
export function closest(input: string, candidates: Iterable<string>): string | undefined {
  const lower = input.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  let bestPrefix = -1;
  for (const c of candidates) {
    if (c.toLowerCase() === lower) return c;
    const limit = Math.max(2, Math.floor(Math.max(c.length, input.length) / 3));
    const d = editDistance(lower, c.toLowerCase(), Math.min(limit, bestDistance));
    if (d > limit || d > bestDistance) continue;
    // Among equally near ones, the one that starts like the input (`dsc`: desc, not asc).
    const prefix = commonPrefix(lower, c.toLowerCase());
    if (d < bestDistance || prefix > bestPrefix) {
      best = c;
      bestDistance = d;
      bestPrefix = prefix;
    }
  }
  return best;
}

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/**
 * What a quick fix offers for a value outside a short enum: the closest value (a likely typo,
 * or else the nearest by edits, so a fix and "did you mean" always name one), then the others
 * by closeness. An empty input has no closest: the documented order is kept.
 */
export function enumSuggestions(input: string, values: readonly string[]): { closest?: string; others: string[] } {
  const near = closest(input, values);
  const short = values.length <= MAX_CHOICES;
  if (input.trim() === '')
    return near !== undefined ? { closest: near, others: [] } : { others: short ? [...values] : [] };
  if (!short) return near !== undefined ? { closest: near, others: [] } : { others: [] };
  const lower = input.toLowerCase();
  const ranked = values
    .map((v, index) => {
      const l = v.toLowerCase();
      // A value that holds what was typed (`page`: wiki_page) is nearer than one a few edits away (quiz).
      return {
        v,
        index,
        within: l.includes(lower) || lower.includes(l) ? 0 : 1,
        d: editDistance(lower, l),
        prefix: commonPrefix(lower, l),
      };
    })
    .sort((a, b) => a.within - b.within || a.d - b.d || b.prefix - a.prefix || a.index - b.index)
    .map((r) => r.v);
  const first = near ?? ranked[0];
  return { closest: first, others: ranked.filter((v) => v !== first) };
}

/** Enums longer than this get no list of choices, only a close match. */
const MAX_CHOICES = 10;
