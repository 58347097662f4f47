/**
 * What `lpreq test` prints (LPREQ-FORMAT section 7): text for a person (progress per file, each
 * failure with its assertion, expected and actual), json (the object section 7 gives, and
 * nothing else in it), junit (one testsuite per file, one testcase per request), tap (TAP
 * version 14, a subtest per file) and github (workflow-command annotations at the lines that
 * failed). Every reporter writes through `write`, which the command passes through the one
 * scrubber; what comes from files and servers is made printable here (terminalText.ts), and
 * XML, TAP and workflow commands are escaped as their readers require.
 */
import type { FileResult, RequestResult, RunEvents, RunResult } from '../sender/index';
import { escapeData, escapeProperty } from './check';
import { printable, printableJson } from './terminalText';

export const REPORTERS = ['text', 'json', 'junit', 'tap', 'github'] as const;
export type ReporterName = (typeof REPORTERS)[number];

export interface Reporter {
  /** Progress, as the run goes. */
  events: RunEvents;
  /** The end of the run. */
  finish(run: RunResult, elapsedMs: number): void;
}

export interface ReporterOptions {
  write: (text: string) => void;
  colour: boolean;
  /** What a skipped request's report says stopped the run. */
  skipReason: () => string;
}

export function createReporter(name: ReporterName, options: ReporterOptions): Reporter {
  switch (name) {
    case 'json':
      return { events: {}, finish: (run) => options.write(`${printableJson(JSON.stringify(toJson(run)))}\n`) };
    case 'junit':
      return { events: {}, finish: (run) => options.write(toJunit(run, options.skipReason())) };
    case 'tap':
      return tapReporter(options);
    case 'github':
      return githubReporter(options);
    default:
      return textReporter(options);
  }
}

/** The `--reporter json` object, exactly the shape of section 7. */
function toJson(run: RunResult) {
  return {
    files: run.files.map((f) => ({
      file: f.file,
      requests: f.requests.map((r) => ({
        name: r.name,
        line: r.line,
        status: r.status,
        durationMs: r.durationMs,
        passed: r.passed,
        skipped: r.skipped,
        assertions: r.assertions.map((a) => ({ line: a.line, text: a.text, passed: a.passed, actual: a.actual })),
      })),
    })),
    passed: run.passed,
    failed: run.failed,
  };
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** One line per failed assertion (the assertion as written, the actual value, and why it failed: `24 is not < 1`), or what else failed. */
function failureLines(r: RequestResult): string[] {
  if (r.failure?.kind === 'assertion') {
    return r.assertions
      .filter((a) => !a.passed)
      .map((a) => `line ${a.line}: ${a.text}  (actual: ${a.actual ?? 'nothing'}: ${a.message})`);
  }
  if (r.failure?.kind === 'invalid' && r.diagnostics.length > 0)
    return r.diagnostics.map((d) => `line ${d.line}:${d.column}: error ${d.code}: ${d.message}`);
  return [r.failure?.message ?? 'failed'];
}

// ---- text

function textReporter(options: ReporterOptions): Reporter {
  const paint = (code: string, s: string) => (options.colour ? `\x1b[${code}m${s}\x1b[0m` : s);
  const w = (line: string) => options.write(`${line}\n`);
  return {
    events: {
      fileStarted: (file) => w(paint('1', printable(file))),
      requestFinished: (_file, r) => {
        const timing = r.status === null ? (r.sent ? 'no response' : 'not sent') : `${r.status}, ${r.durationMs} ms`;
        const label = r.skipped ? paint('33', 'SKIP') : r.passed ? paint('32', 'PASS') : paint('31', 'FAIL');
        w(`  ${label}  ${printable(r.name)}  ${paint('2', `line ${r.line}${r.skipped ? '' : `, ${timing}`}`)}`);
        if (r.skipped || r.passed) return;
        if (r.failure && r.failure.kind !== 'assertion') w(`        ${printable(r.failure.message)}`);
        for (const d of r.diagnostics)
          w(
            `        ${paint('2', `line ${d.line}:${d.column}`)} ${paint('31', 'error')} ${paint('2', d.code)}: ${printable(d.message)}`,
          );
        if (r.failure?.kind !== 'assertion') return;
        for (const a of r.assertions) {
          if (a.passed) continue;
          w(`        ${paint('2', `line ${a.line}`)}  ${printable(a.text)}`);
          if (a.expected !== undefined) w(`          expected: ${printable(a.expected)}`);
          w(
            `          actual:   ${a.actual === null ? paint('2', 'nothing') : printable(a.actual)}  ${paint('2', `(${printable(a.message)})`)}`,
          );
        }
      },
      fileFinished: (f) => {
        if (f.problem !== undefined) w(`  ${paint('31', 'ERROR')}  could not be read: ${printable(f.problem)}`);
      },
    },
    finish: (run, elapsedMs) => {
      const requests = run.passed + run.failed + run.skipped;
      const parts = [paint(run.failed > 0 ? '31' : '32', `${run.passed} passed`), `${run.failed} failed`];
      if (run.skipped > 0) parts.push(`${run.skipped} skipped (${options.skipReason()})`);
      const unread = run.unreadable > 0 ? `; ${plural(run.unreadable, 'file')} could not be read` : '';
      w(
        `\n${plural(requests, 'request')} in ${plural(run.files.length, 'file')}: ${parts.join(', ')}${unread} (${(elapsedMs / 1000).toFixed(1)} s)`,
      );
    },
  };
}

// ---- junit

/** What XML 1.0 cannot hold besides the control characters: U+FFFE, U+FFFF and a surrogate without its pair. */
const NOT_XML = /[\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * XML text: control characters made printable first (XML 1.0 cannot hold most of them),
 * U+FFFE, U+FFFF and lone surrogates written as `\uFFFE` likewise, then the five escapes.
 */
function xml(s: string, lines = false): string {
  return printable(s, { lines })
    .replace(NOT_XML, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

function toJunit(run: RunResult, skipReason: string): string {
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const suites = run.files.map((f) => junitSuite(f, skipReason));
  const totals = suites.reduce(
    (t, s) => ({
      tests: t.tests + s.tests,
      failures: t.failures + s.failures,
      errors: t.errors + s.errors,
      skipped: t.skipped + s.skipped,
      ms: t.ms + s.ms,
    }),
    { tests: 0, failures: 0, errors: 0, skipped: 0, ms: 0 },
  );
  out.push(
    `<testsuites name="lpreq test" tests="${totals.tests}" failures="${totals.failures}" errors="${totals.errors}" skipped="${totals.skipped}" time="${seconds(totals.ms)}">`,
  );
  for (const s of suites) out.push(...s.lines);
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}

/** A request that could not be sent or got no response is an error (JUnit's unexpected failure); one that ran and did not pass is a failure. */
function isError(r: RequestResult): boolean {
  return r.failure?.kind === 'exchange' || r.failure?.kind === 'not-sent';
}

function junitSuite(f: FileResult, skipReason: string) {
  const lines: string[] = [];
  let failures = 0;
  let errors = 0;
  let skipped = 0;
  let ms = 0;
  const cases: string[] = [];
  for (const r of f.requests) {
    ms += r.durationMs;
    const open = `    <testcase name="${xml(r.name)}" classname="${xml(f.file)}" time="${seconds(r.durationMs)}"`;
    if (r.skipped) {
      skipped++;
      cases.push(`${open}>`, `      <skipped message="${xml(skipReason)}"/>`, '    </testcase>');
    } else if (r.passed) cases.push(`${open}/>`);
    else {
      const error = isError(r);
      if (error) errors++;
      else failures++;
      const tag = error ? 'error' : 'failure';
      const kind = r.failure?.kind ?? 'failure';
      cases.push(
        `${open}>`,
        `      <${tag} message="${xml(r.failure?.message ?? 'failed')}" type="${kind}">${xml(failureLines(r).join('\n'), true)}</${tag}>`,
        '    </testcase>',
      );
    }
  }
  if (f.problem !== undefined) {
    errors++;
    cases.push(
      `    <testcase name="${xml(f.file)}" classname="${xml(f.file)}" time="0.000">`,
      `      <error message="${xml(`could not be read: ${f.problem}`)}" type="unreadable-file"/>`,
      '    </testcase>',
    );
  }
  const tests = f.requests.length + (f.problem !== undefined ? 1 : 0);
  lines.push(
    `  <testsuite name="${xml(f.file)}" tests="${tests}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${seconds(ms)}">`,
    ...cases,
    '  </testsuite>',
  );
  return { lines, tests, failures, errors, skipped, ms };
}

// ---- tap

/** A TAP description: one line, `#` and `\` escaped (TAP 14). */
function tapText(s: string): string {
  return printable(s).replace(/\\/g, '\\\\').replace(/#/g, '\\#');
}

/** A YAML scalar that TAP's YAML block reads back as the same string. */
function yamlString(s: string): string {
  return JSON.stringify(printable(s));
}

function tapReporter(options: ReporterOptions): Reporter {
  const w = (line: string) => options.write(`${line}\n`);
  let files = 0;
  w('TAP version 14');
  return {
    events: {
      fileFinished: (f) => {
        files++;
        const ok = f.problem === undefined && f.requests.every((r) => r.passed || r.skipped);
        if (f.requests.length > 0) {
          w(`# Subtest: ${tapText(f.file)}`);
          f.requests.forEach((r, i) => {
            const point = `${r.passed || r.skipped ? 'ok' : 'not ok'} ${i + 1} - ${tapText(r.name)}`;
            if (r.skipped) {
              w(`    ${point} # SKIP ${tapText(options.skipReason())}`);
              return;
            }
            w(`    ${point}`);
            if (r.passed) return;
            w('      ---');
            w(`      message: ${yamlString(r.failure?.message ?? 'failed')}`);
            w(`      severity: ${isError(r) ? 'error' : 'fail'}`);
            w(`      line: ${r.line}`);
            w(`      status: ${r.status === null ? 'null' : r.status}`);
            w('      failures:');
            for (const line of failureLines(r)) w(`        - ${yamlString(line)}`);
            w('      ...');
          });
          w(`    1..${f.requests.length}`);
        }
        w(`${ok ? 'ok' : 'not ok'} ${files} - ${tapText(f.file)}`);
        if (f.problem !== undefined) {
          w('  ---');
          w(`  message: ${yamlString(`could not be read: ${f.problem}`)}`);
          w('  severity: error');
          w('  ...');
        }
      },
    },
    finish: () => w(`1..${files}`),
  };
}

// ---- github

function githubReporter(options: ReporterOptions): Reporter {
  const w = (line: string) => options.write(`${line}\n`);
  const command = (
    file: string,
    at: { line: number; column?: number; endLine?: number; endColumn?: number },
    title: string,
    message: string,
  ) => {
    const props = [`file=${escapeProperty(printable(file))}`, `line=${at.line}`];
    if (at.column !== undefined) props.push(`col=${at.column}`);
    if (at.endLine !== undefined) props.push(`endLine=${at.endLine}`);
    if (at.endColumn !== undefined) props.push(`endColumn=${at.endColumn}`);
    props.push(`title=${escapeProperty(printable(title))}`);
    w(`::error ${props.join(',')}::${escapeData(printable(message))}`);
  };
  return {
    events: {
      requestFinished: (file, r) => {
        if (r.passed || r.skipped) return;
        const title = `lpreq test: ${r.name}`;
        if (r.failure?.kind === 'assertion') {
          for (const a of r.assertions) {
            if (!a.passed)
              command(file, { line: a.line }, title, `${a.text}: actual ${a.actual ?? 'nothing'} (${a.message})`);
          }
        } else if (r.failure?.kind === 'invalid' && r.diagnostics.length > 0) {
          for (const d of r.diagnostics) command(file, d, title, `not sent: ${d.code}: ${d.message}`);
        } else command(file, { line: r.line }, title, r.failure?.message ?? 'failed');
      },
      fileFinished: (f) => {
        if (f.problem !== undefined)
          command(f.file, { line: 1 }, 'lpreq test: unreadable-file', `could not be read: ${f.problem}`);
      },
    },
    finish: () => undefined,
  };
}
