/**
 * The language core benchmark (issue 2): parse only, parse + check in-process, and the whole
 * `lpreq check --format json` process, against references measured in the same run on the
 * same requests: a plain line scan, ajv over the requests as JSON, vscode-json-languageservice.
 * Every figure is the median of several runs; ratios are printed against the references.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { getLanguageService, TextDocument as JsonTextDocument } from 'vscode-json-languageservice';
import { createRequire } from 'node:module';
import { generateRequests, jsonSchemaFor, toJson, toLpreq } from './generate';

export const ROOT = join(import.meta.dirname, '..');

// The figures time the shipped code: the library bundle that `npm run build`
// makes (dist/library.js), not the TypeScript sources as tsx transpiles them on the fly.
const library = createRequire(import.meta.filename)(
  join(ROOT, 'dist', 'library.js'),
) as typeof import('../server/src/library');
const { bundledCatalog, defaultChecker, parse: parseDocument } = library;
const DATA = join(ROOT, 'bench', '.data');

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export async function timeMedian(runs: number, fn: () => unknown | Promise<unknown>): Promise<number> {
  const times: number[] = [];
  await fn(); // warm-up
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return median(times);
}

/**
 * Medians of several functions timed in turns (a, b, c, a, b, c, ...), after one warm-up
 * round: on a machine whose speed drifts, each figure sees the same conditions, and the
 * ratios between them stay fair. With --expose-gc (npm run bench), a collection before
 * each timed call keeps one function's garbage out of the next one's time.
 */
export function interleavedMedians<K extends string>(runs: number, fns: Record<K, () => unknown>): Record<K, number> {
  const names = Object.keys(fns) as K[];
  const times = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<K, number[]>;
  for (const n of names) fns[n]();
  for (let r = 0; r < runs; r++) {
    for (const n of names) {
      (globalThis as { gc?: () => void }).gc?.();
      const t = performance.now();
      fns[n]();
      times[n].push(performance.now() - t);
    }
  }
  return Object.fromEntries(names.map((n) => [n, median(times[n])])) as Record<K, number>;
}

/**
 * The in-process figures of the library and of ajv, each timed in a process of its own
 * (three rounds, in turns): V8 shares what it learns about allocation sites between callers,
 * so the parser's objects, kept by parse + check, would be allocated as long-lived in
 * `diagnose` too if both ran in one process, and ajv's figure would carry this process's
 * heap. Each child loads its code and data, warms up, then times its mode with a
 * collection before each call; loading is not timed.
 */
function childMedians(
  lpreqFile: string,
  assertedFile: string,
  jsonFile: string,
  schemaFile: string,
  runs: number,
): Record<'parse' | 'tree' | 'diagnose' | 'asserted' | 'ajv', number> {
  const script = join(DATA, 'in-process-child.cjs');
  writeFileSync(
    script,
    `const fs = require('fs');
const [mode, lpreqFile, assertedFile, jsonFile, schemaFile, runs] = process.argv.slice(2);
let fn;
if (mode === 'ajv') {
  const Ajv = require(${JSON.stringify(require.resolve('ajv'))});
  const ajv = new Ajv({ allErrors: true, strict: false });
  ajv.addFormat('date', /^\\d{4}-\\d{2}-\\d{2}$/);
  const validate = ajv.compile(JSON.parse(fs.readFileSync(schemaFile, 'utf8')));
  const json = fs.readFileSync(jsonFile, 'utf8');
  fn = () => validate(JSON.parse(json));
} else {
  const L = require(${JSON.stringify(join(ROOT, 'dist', 'library.js'))});
  const text = fs.readFileSync(mode === 'asserted' ? assertedFile : lpreqFile, 'utf8');
  const env = { environments: {} };
  const checker = L.defaultChecker();
  fn = { parse: () => L.parse(text), tree: () => checker.checkDocument(L.parse(text), env), diagnose: () => L.diagnose(text, env), asserted: () => L.diagnose(text, env) }[mode];
}
fn(); fn();
const times = [];
for (let i = 0; i < Number(runs); i++) { global.gc(); const t = performance.now(); fn(); times.push(performance.now() - t); }
process.stdout.write(JSON.stringify(times));
`,
  );
  // `asserted` is diagnose over the same requests with three assertions each (issue 19), in turns with the rest.
  const modes = ['parse', 'tree', 'diagnose', 'asserted', 'ajv'] as const;
  const times = {
    parse: [] as number[],
    tree: [] as number[],
    diagnose: [] as number[],
    asserted: [] as number[],
    ajv: [] as number[],
  };
  for (let round = 0; round < 3; round++) {
    for (const mode of modes) {
      const r = spawnSync(
        process.execPath,
        ['--expose-gc', script, mode, lpreqFile, assertedFile, jsonFile, schemaFile, String(runs)],
        { encoding: 'utf8' },
      );
      if (r.status !== 0) throw new Error(`in-process ${mode} failed: ${r.stderr}`);
      times[mode].push(...(JSON.parse(r.stdout) as number[]));
    }
  }
  return {
    parse: median(times.parse),
    tree: median(times.tree),
    diagnose: median(times.diagnose),
    asserted: median(times.asserted),
    ajv: median(times.ajv),
  };
}

function runProcess(args: string[]): void {
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0 && r.status !== 1) throw new Error(`process failed: ${args.join(' ')}: ${r.stderr}`);
}

export interface CoreFigures {
  requests: number;
  bytes: number;
  lines: number;
  diagnostics: number;
  parseMs: number;
  parseCheckMs: number;
  /** `diagnose`: parse and check without keeping the tree, as `lpreq check` does. */
  diagnoseMs: number;
  /** `diagnose` of the same requests with three assertions each (issue 19). */
  diagnoseAssertionsMs: number;
  lineScanMs: number;
  ajvMs: number;
  jsonServiceMs: number;
  processMs: number;
  /** The `lpreq check` process over the requests with three assertions each. */
  processAssertionsMs: number;
  ajvProcessMs: number;
  emptyNodeMs: number;
}

export async function runCoreBench(sizes = [1000, 10000], runs = 7): Promise<CoreFigures[]> {
  mkdirSync(DATA, { recursive: true });
  // The catalog is loaded once, outside the timed parts.
  const catalog = bundledCatalog();
  const checker = defaultChecker();
  const schema = jsonSchemaFor(catalog);
  const jsonService = getLanguageService({});
  jsonService.configure({ validate: true, schemas: [{ uri: 'lpreq://bench-schema', fileMatch: ['*.json'], schema }] });
  const figures: CoreFigures[] = [];
  for (const n of sizes) {
    const requests = generateRequests(catalog, n);
    const lpreqFile = join(DATA, `requests-${n}.lpreq`);
    const assertedFile = join(DATA, `requests-${n}-assertions.lpreq`);
    const jsonFile = join(DATA, `requests-${n}.json`);
    const text = toLpreq(requests);
    const json = toJson(requests);
    writeFileSync(lpreqFile, text);
    writeFileSync(assertedFile, toLpreq(requests, { catalog, assertions: 3 }));
    writeFileSync(jsonFile, json);
    const ajvScript = join(DATA, 'ajv-process.cjs');
    writeFileSync(
      ajvScript,
      `const Ajv=require(${JSON.stringify(require.resolve('ajv'))});const fs=require('fs');` +
        `const a=new Ajv({allErrors:true,strict:false});a.addFormat('date',/^\\d{4}-\\d{2}-\\d{2}$/);` +
        `const v=a.compile(JSON.parse(fs.readFileSync(process.argv[3],'utf8')));` +
        `v(JSON.parse(fs.readFileSync(process.argv[2],'utf8')));process.stdout.write(JSON.stringify(v.errors||[]));`,
    );
    writeFileSync(join(DATA, 'schema.json'), JSON.stringify(schema));
    const diagnostics = checker.checkDocument(parseDocument(text), { environments: {} }).length;
    const requestLine = /^(GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS)\s+(\S+)/;
    const references = interleavedMedians(runs * 2, {
      lineScan: () => {
        let count = 0;
        for (const line of readFileSync(lpreqFile, 'utf8').split('\n')) if (requestLine.test(line)) count++;
        return count;
      },
    });
    const { lineScan: lineScanMs } = references;
    const {
      parse: parseMs,
      tree: parseCheckMs,
      diagnose: diagnoseMs,
      asserted: diagnoseAssertionsMs,
      ajv: ajvMs,
    } = childMedians(lpreqFile, assertedFile, jsonFile, join(DATA, 'schema.json'), runs);
    const jsonDoc = JsonTextDocument.create('file:///bench.json', 'json', 1, json);
    const jsonServiceMs = await timeMedian(Math.max(3, Math.floor(runs / 2)), () =>
      jsonService.doValidation(jsonDoc, jsonService.parseJSONDocument(jsonDoc)),
    );
    const processes = interleavedMedians(runs, {
      lpreq: () => runProcess([join(ROOT, 'bin', 'lpreq.js'), 'check', '--format', 'json', lpreqFile]),
      lpreqAssertions: () => runProcess([join(ROOT, 'bin', 'lpreq.js'), 'check', '--format', 'json', assertedFile]),
      ajv: () => runProcess([ajvScript, jsonFile, join(DATA, 'schema.json')]),
      node: () => runProcess(['-e', '']),
    });
    const { lpreq: processMs, lpreqAssertions: processAssertionsMs, ajv: ajvProcessMs, node: emptyNodeMs } = processes;
    figures.push({
      requests: n,
      bytes: Buffer.byteLength(text),
      lines: text.split('\n').length,
      diagnostics,
      parseMs,
      parseCheckMs,
      diagnoseMs,
      diagnoseAssertionsMs,
      lineScanMs,
      ajvMs,
      jsonServiceMs,
      processMs,
      processAssertionsMs,
      ajvProcessMs,
      emptyNodeMs,
    });
  }
  return figures;
}

export function formatCore(figures: CoreFigures[]): string {
  const f = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
  const rows = figures.map(
    (r) =>
      `| ${r.requests.toLocaleString('en')} | ${(r.bytes / 1048576).toFixed(2)} MB | ${f(r.lineScanMs)} | ${f(r.parseMs)} | ${f(r.parseCheckMs)} | ${f(r.diagnoseMs)} | ${f(r.diagnoseAssertionsMs)} | ${f(r.ajvMs)} | ${f(r.jsonServiceMs)} | ${f(r.processMs)} | ${f(r.processAssertionsMs)} | ${f(r.ajvProcessMs)} | ${f(r.emptyNodeMs)} |`,
  );
  const last = figures[figures.length - 1];
  return [
    '| requests | size | line scan | parse | parse + check (tree kept) | diagnose (no tree) | diagnose, 3 assertions a request | ajv (JSON) | JSON language service | `lpreq check` process | `lpreq check` process, 3 assertions a request | ajv process | `node -e ""` |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    `Medians in milliseconds. For ${last.requests.toLocaleString('en')} requests: parse + check with the tree kept (the editor) is ${(last.ajvMs / last.parseCheckMs).toFixed(2)}x the speed of ajv, ` +
      `diagnose without the tree (\`lpreq check\`) ${(last.ajvMs / last.diagnoseMs).toFixed(2)}x; ` +
      `parse + check is ${(last.jsonServiceMs / last.parseCheckMs).toFixed(1)}x the speed of the JSON language service and takes ${(last.parseCheckMs / last.lineScanMs).toFixed(1)}x the line-scan floor; ` +
      `the whole process takes ${(last.processMs / 1000).toFixed(2)} s (${(last.processMs / last.ajvProcessMs).toFixed(2)}x the ajv process, ${(last.processMs - last.emptyNodeMs).toFixed(0)} ms beyond an empty node). ` +
      `Three assertions a request (their lines parsed and checked against the documented responses) make diagnose ${((last.diagnoseAssertionsMs / last.diagnoseMs - 1) * 100).toFixed(1)}% slower and the \`lpreq check\` process ${((last.processAssertionsMs / last.processMs - 1) * 100).toFixed(1)}% slower (target: under 10%).`,
  ].join('\n');
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  runCoreBench().then(
    (figures) => console.log(formatCore(figures)),
    (e: unknown) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
