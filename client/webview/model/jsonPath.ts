/**
 * JSON paths as the sender writes them (`$`, `$[0].items_count`, `$["a b"]`), for the response
 * view: the webview builds the path of each row it shows, and the issues and documented types
 * it is given are keyed by these paths. Pure; written to agree with the sender's
 * formatJsonPath (a test holds them together).
 */

/** A member name, an array index, or WILDCARD (any index, written `[*]`). */
export type PathSegment = string | number;

export const WILDCARD = -1;

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** One segment appended to a path. */
export function appendSegment(path: string, segment: PathSegment): string {
  if (typeof segment === 'number') return segment === WILDCARD ? `${path}[*]` : `${path}[${segment}]`;
  return IDENTIFIER.test(segment) ? `${path}.${segment}` : `${path}[${JSON.stringify(segment)}]`;
}

export function formatPath(segments: readonly PathSegment[]): string {
  let out = '$';
  for (const s of segments) out = appendSegment(out, s);
  return out;
}

/** The segments of a path; undefined when it is not one this module writes. */
export function parsePath(path: string): PathSegment[] | undefined {
  if (!path.startsWith('$')) return undefined;
  const out: PathSegment[] = [];
  let i = 1;
  while (i < path.length) {
    const c = path[i];
    if (c === '.') {
      let j = i + 1;
      while (j < path.length && path[j] !== '.' && path[j] !== '[') j++;
      if (j === i + 1) return undefined;
      out.push(path.slice(i + 1, j));
      i = j;
    } else if (c === '[') {
      if (path[i + 1] === '"') {
        // A quoted name: up to the closing quote that no backslash escapes.
        let j = i + 2;
        while (j < path.length && path[j] !== '"') j += path[j] === '\\' ? 2 : 1;
        if (path[j + 1] !== ']') return undefined;
        try {
          out.push(JSON.parse(path.slice(i + 1, j + 1)) as string);
        } catch {
          return undefined;
        }
        i = j + 2;
      } else {
        const close = path.indexOf(']', i);
        if (close === -1) return undefined;
        const inner = path.slice(i + 1, close);
        if (inner === '*') out.push(WILDCARD);
        else if (/^\d+$/.test(inner)) out.push(Number(inner));
        else return undefined;
        i = close + 1;
      }
    } else return undefined;
  }
  return out;
}

/**
 * The pattern of a path: every array index written `[*]` (`$[12].items[3].id` ->
 * `$[*].items[*].id`). Issues are grouped by it, and documented types are asked for by it
 * (the docs type an element the same whatever its index).
 */
export function pathPattern(path: string): string {
  const segments = parsePath(path);
  if (!segments) return path;
  return formatPath(segments.map((s) => (typeof s === 'number' ? WILDCARD : s)));
}

/** A path of the pattern, with 0 for every `[*]`: what the sender's describeAt reads (it does not look at the index). */
export function patternExample(pattern: string): string | undefined {
  const segments = parsePath(pattern);
  if (!segments) return undefined;
  return formatPath(segments.map((s) => (s === WILDCARD ? 0 : s)));
}
