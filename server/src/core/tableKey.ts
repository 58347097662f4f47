/**
 * A text to keep as the key of a table that outlives the document it came from. V8 makes a
 * `slice` of a long string a view of that string, not a copy, and a view keeps the whole of
 * it alive: a key sliced from a 2 MB document would keep the document, and a table filled
 * while someone types, one version of it a keystroke. Joined to a character first, the text
 * becomes a small string of its own (the join is made flat before it is sliced), of which
 * the key is a view.
 */
export function tableKey(text: string): string {
  return ` ${text}`.slice(1);
}
