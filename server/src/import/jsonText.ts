/**
 * A JSON body laid out over lines without being parsed into values and written again: the
 * characters of every string and number stay as they were (a 20-digit id keeps its digits),
 * only the whitespace between tokens changes.
 */

/** Whether the text is one JSON value. */
export function isJsonText(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The text laid out with two spaces a level; text that is not JSON is returned as it is. */
export function layOutJson(text: string): string {
  if (!isJsonText(text)) return text.trim();
  let out = '';
  let depth = 0;
  const newline = () => `\n${'  '.repeat(depth)}`;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') continue;
    if (c === '{' || c === '[') {
      // An empty object or array stays on one line.
      let j = i + 1;
      while (j < text.length && /\s/.test(text[j])) j++;
      if (text[j] === (c === '{' ? '}' : ']')) {
        out += c + text[j];
        i = j;
        continue;
      }
      depth++;
      out += c + newline();
      continue;
    }
    if (c === '}' || c === ']') {
      depth--;
      out += newline() + c;
      continue;
    }
    if (c === ',') {
      out += `,${newline()}`;
      continue;
    }
    if (c === ':') {
      out += ': ';
      continue;
    }
    out += c;
  }
  return out;
}
