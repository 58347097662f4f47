/** Markdown of the docs' words, for hovers and completion details. */

/**
 * Escapes text for Markdown (the docs' words can contain `*`, `_`, `[`, `|`). The docs' own
 * code spans (`sis_course_id:<id>`) stay code spans; a lone backtick is escaped.
 */
export function md(text: string): string {
  return text
    .split(/(`[^`\n]+`)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/([\\`*_[\]<>|#])/g, '\\$1')))
    .join('');
}

export function code(text: string): string {
  const fence = text.includes('`') ? '``' : '`';
  return `${fence}${text}${fence}`;
}
