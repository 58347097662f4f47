/**
 * The one way text a server sent becomes Markdown (the side bar tree's tooltips, Show
 * Documentation's preview, any MarkdownString built from a response): as an inline code span.
 * Inside one, no Markdown is read (no image, link, autolink or heading), no HTML, no entity,
 * and no theme icon (`$(...)`): a JSON key `![x](https://attacker.example/p.png)` is shown as
 * those characters and loads nothing. Line breaks become spaces (a code span is one line).
 */
export function markdownCode(text: string): string {
  const flat = text.replace(/\r\n|[\r\n\u2028\u2029]/g, ' ');
  // A fence longer than any run of backticks in the text, so that none of them ends it.
  let longest = 0;
  for (const run of flat.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(longest + 1);
  // A space on each side keeps a backtick at either end off the fence (it is stripped when shown).
  const pad = flat.startsWith('`') || flat.endsWith('`') || flat.startsWith(' ') || flat.endsWith(' ') ? ' ' : '';
  return flat.length === 0 ? '` `' : `${fence}${pad}${flat}${pad}${fence}`;
}
