/**
 * No hover repeats a sentence (issue 29): not within itself, and not one the diagnostics at the
 * cursor say (an editor shows their messages and related lines beside the hover). Checked at
 * every line's first word, every parameter's name and value, every variable and every
 * diagnostic of the fixtures and the examples.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers';
import { getChecker, getService, serviceDocument } from './helpers';

function sentences(text: string): string[] {
  return text
    .split(/\n|(?<=[.;])\s+/)
    .map((s) =>
      s
        .replace(/[`*_\\]/g, '')
        .replace(/^\s*-\s+/, '')
        .replace(/[.;:\s]+$/, '')
        .trim()
        .toLowerCase(),
    )
    .filter((s) => s.length >= 12);
}

function offsetsOf(text: string): number[] {
  const out = new Set<number>();
  let lineStart = 0;
  for (const line of text.split('\n')) {
    const first = line.search(/\S/);
    if (first !== -1) out.add(lineStart + first);
    const eq = line.indexOf('=');
    if (eq > 0) {
      out.add(lineStart + Math.max(0, eq - 2));
      out.add(lineStart + Math.min(line.length, eq + 3));
    }
    for (let i = line.indexOf('{{'); i !== -1; i = line.indexOf('{{', i + 2)) out.add(lineStart + i + 2);
    const space = line.indexOf(' ');
    if (space > 0) out.add(lineStart + space + 3);
    lineStart += line.length + 1;
  }
  return [...out];
}

const folders = [join(ROOT, 'test/fixtures/diagnostics'), join(ROOT, 'test/fixtures/rules'), join(ROOT, 'examples')];

test('no hover repeats a sentence, of its own or of the diagnostics at the cursor', () => {
  const problems: string[] = [];
  let hovers = 0;
  for (const folder of folders) {
    const envFile = join(folder, 'http-client.env.json');
    const env = existsSync(envFile)
      ? { environments: JSON.parse(readFileSync(envFile, 'utf8')) as Record<string, Record<string, string>> }
      : undefined;
    for (const file of readdirSync(folder).filter((f) => f.endsWith('.lpreq'))) {
      const text = readFileSync(join(folder, file), 'utf8');
      const doc = serviceDocument(text, env);
      const diagnostics = getChecker().checkDocument(doc.parsed, env);
      const offsets = new Set(offsetsOf(text));
      for (const d of diagnostics) {
        offsets.add(d.start);
        offsets.add((d.start + d.end) >> 1);
      }
      for (const offset of offsets) {
        const h = getService().hover(doc, offset);
        if (!h) continue;
        hovers++;
        const own = sentences(h.contents);
        const said = diagnostics
          .filter((d) => d.start <= offset && offset <= d.end)
          .flatMap((d) => sentences([d.message, ...(d.related ?? [])].join('\n')));
        const repeated = own.filter((s, i) => own.indexOf(s) !== i || said.includes(s));
        if (repeated.length > 0) problems.push(`${file} at ${offset}: '${repeated[0]}'`);
      }
    }
  }
  assert.ok(hovers > 1000, `${hovers} hovers`);
  assert.deepEqual(problems.slice(0, 20), []);
});
