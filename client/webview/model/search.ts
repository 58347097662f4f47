/**
 * Find in a body: every place a text occurs, ignoring case, up to a limit. The body is
 * searched as text, not as the rows shown, so that a match in a collapsed or unscrolled
 * part is found too. Pure.
 */

/** Matches kept: more are counted as "at least". */
const MAX_MATCHES = 10_000;

export interface Matches {
  offsets: number[];
  /** More matches exist than were kept. */
  more: boolean;
}

export class TextSearch {
  private lower: string | undefined;

  constructor(private readonly text: string) {}

  find(query: string, max = MAX_MATCHES): Matches {
    const offsets: number[] = [];
    if (query.length === 0) return { offsets, more: false };
    const needle = query.toLowerCase();
    // Lower-casing a text can change its length (a few characters): then the text is searched as it is.
    let haystack = this.text;
    let wanted = query;
    if (needle !== query.toUpperCase()) {
      this.lower ??= this.text.toLowerCase();
      if (this.lower.length === this.text.length) {
        haystack = this.lower;
        wanted = needle;
      }
    }
    for (let i = haystack.indexOf(wanted); i !== -1; i = haystack.indexOf(wanted, i + Math.max(1, wanted.length))) {
      if (offsets.length === max) return { offsets, more: true };
      offsets.push(i);
    }
    return { offsets, more: false };
  }
}
