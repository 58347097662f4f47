/**
 * An HTML page (a login page, a proxy's error page, a 500 from a web server) as what a
 * reader sees of it: its title and its text, one block a line, without markup, scripts or
 * styles. A linear scan with indexOf, no regular expression over the page: a page of any
 * shape takes one pass. Pure.
 */

/** Characters of a page read; the text of a larger page is that of its beginning. */
const MAX_HTML_CHARS = 2 * 1024 * 1024;

/** Elements whose content is not text a reader sees. */
const HIDDEN = new Set(['script', 'style', 'noscript', 'template', 'svg', 'head']);
/** Elements that start a line of their own. */
const BLOCKS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'br',
  'dd',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'table',
  'td',
  'th',
  'tr',
  'ul',
]);

const ENTITIES = new Map([
  ['amp', '&'],
  ['lt', '<'],
  ['gt', '>'],
  ['quot', '"'],
  ['apos', "'"],
  ['nbsp', ' '],
  ['copy', '©'],
  ['reg', '®'],
  ['hellip', '…'],
  ['mdash', '—'],
  ['ndash', '–'],
  ['laquo', '«'],
  ['raquo', '»'],
]);

export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,8});/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES.get(name.toLowerCase()) ?? whole;
  });
}

/** Whether a body reads as an HTML page (its content type, or how it begins). */
export function looksLikeHtml(contentType: string | undefined, text: string): boolean {
  if (contentType && /\bhtml\b/i.test(contentType)) return true;
  const start = text.slice(0, 512).trimStart().toLowerCase();
  return start.startsWith('<!doctype html') || start.startsWith('<html');
}

export interface HtmlPage {
  title: string | undefined;
  /** The visible text, one block a line, without blank lines. */
  text: string;
}

function tagName(html: string, from: number): string {
  let i = from;
  while (i < html.length && i - from < 20) {
    const c = html.charCodeAt(i);
    const letter = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57 && i > from) || c === 45;
    if (!letter) break;
    i++;
  }
  return html.slice(from, i).toLowerCase();
}

export function readHtml(page: string): HtmlPage {
  const html = page.length > MAX_HTML_CHARS ? page.slice(0, MAX_HTML_CHARS) : page;
  const lower = html.toLowerCase();
  const parts: string[] = [];
  let title: string | undefined;
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt === -1) {
      parts.push(html.slice(i));
      break;
    }
    parts.push(html.slice(i, lt));
    if (html.startsWith('<!--', lt)) {
      const end = html.indexOf('-->', lt + 4);
      i = end === -1 ? html.length : end + 3;
      continue;
    }
    const gt = html.indexOf('>', lt + 1);
    if (gt === -1) break;
    const closing = html.charCodeAt(lt + 1) === 47;
    const name = tagName(html, lt + (closing ? 2 : 1));
    i = gt + 1;
    if (!closing && (name === 'title' || HIDDEN.has(name))) {
      const close = lower.indexOf(`</${name}`, i);
      const contentEnd = close === -1 ? html.length : close;
      if (name === 'title' && title === undefined)
        title = decodeEntities(html.slice(i, contentEnd)).replace(/\s+/g, ' ').trim() || undefined;
      // The head holds the title: it is read there, and the rest of the head is not text.
      if (name === 'head' && title === undefined) title = readHtml(html.slice(i, contentEnd)).title;
      if (close === -1) break;
      const after = html.indexOf('>', close);
      i = after === -1 ? html.length : after + 1;
      continue;
    }
    if (BLOCKS.has(name)) parts.push('\n');
  }
  const lines = decodeEntities(parts.join(''))
    .split('\n')
    .map((l) => l.replace(/[ \t\r\f\v\u00a0]+/g, ' ').trim());
  return { title, text: lines.filter((l) => l.length > 0).join('\n') };
}
