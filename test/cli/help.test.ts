/**
 * The command line helps a newcomer (issue 29): every command's --help lists every option it
 * parses on one line with what it does, and examples; an unknown command or option gets the
 * nearest one (exit 2).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FlagSpec } from '../../server/src/cli/args';
import { CHECK_HELP } from '../../server/src/cli/check';
import { EXPORT_HELP } from '../../server/src/cli/exportCommand';
import { IMPORT_HELP } from '../../server/src/cli/importCommand';
import { ENV_HELP, run as runEnv } from '../../server/src/cli/envCommand';
import { SCOPES_HELP } from '../../server/src/cli/scopesCommand';
import { flagLabel, type CommandHelp } from '../../server/src/cli/help';
import { MOCK_HELP, run as runMock } from '../../server/src/cli/mockCommand';
import { PROXY_HELP, run as runProxy } from '../../server/src/cli/proxyCommand';
import { SEND_HELP, run as runSend } from '../../server/src/cli/sendCommand';
import { TEST_HELP, run as runTest } from '../../server/src/cli/testCommand';
import { run as runExport } from '../../server/src/cli/exportCommand';
import { run as runImport } from '../../server/src/cli/importCommand';
import { run as runLsp } from '../../server/src/lsp/lspCommand';
import type { Io } from '../../server/src/cli/check';
import { runCli } from '../helpers';

function captured(): Io & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    stdout: (s) => (out += s),
    stderr: (s) => (err += s),
    readStdin: () => '',
    isTTY: false,
    env: {},
    cwd: process.cwd(),
    out: () => out,
    err: () => err,
  };
}

type Run = (argv: string[], io: Io) => Promise<number>;

const COMMANDS: [string, CommandHelp, Run][] = [
  ['send', SEND_HELP, runSend],
  ['test', TEST_HELP, runTest],
  ['mock', MOCK_HELP, runMock],
  ['proxy', PROXY_HELP, runProxy],
  ['export', EXPORT_HELP, runExport],
  ['import', IMPORT_HELP, runImport],
  ['env', ENV_HELP, runEnv],
];

/** Runs a command in this process: check through the command line's main, the others through their bundles' run. */
async function command(name: string, argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  if (name === 'check' || name === 'scopes') return runCli([name, ...argv]);
  const run = name === 'lsp' ? runLsp : COMMANDS.find((c) => c[0] === name)![2];
  const io = captured();
  const code = await run(argv, io);
  return { code, stdout: io.out(), stderr: io.err() };
}

for (const [name, help] of [
  ['check', CHECK_HELP] as [string, CommandHelp],
  ['scopes', SCOPES_HELP] as [string, CommandHelp],
  ...COMMANDS,
]) {
  test(`lpreq ${name} --help: every option on a line of its own with what it does, and examples`, async () => {
    const { code, stdout } = await command(name, ['--help']);
    assert.equal(code, 0);
    const lines = stdout.split('\n');
    assert.match(lines[0], new RegExp(`^usage: lpreq ${name}\\b`));
    const options = lines.slice(lines.indexOf('options:') + 1, lines.indexOf('', lines.indexOf('options:')));
    const flags = Object.entries(help.flags) as [string, FlagSpec][];
    assert.ok(flags.length > 1);
    for (const [flag, spec] of flags) {
      const label = flagLabel(flag, spec);
      const found = options.filter((l) => l.trimStart().startsWith(`${label} `));
      assert.equal(found.length, 1, `--${flag}: ${JSON.stringify(found)}`);
      assert.ok((spec.help ?? '').length > 10, `--${flag} says what it does`);
      assert.ok(found[0].includes(spec.help!), `--${flag}'s line holds its help`);
    }
    // Nothing listed that the command does not take.
    assert.equal(options.length, flags.length, options.join('\n'));
    const examples = lines.slice(lines.indexOf('examples:') + 1).filter((l) => l.trim() !== '');
    assert.ok(examples.length > 0, 'an example');
    for (const e of examples) assert.match(e, new RegExp(`^  lpreq ${name}\\b`));
  });

  test(`lpreq ${name}: an unknown option gets the nearest one, exit 2`, async () => {
    const [first] = Object.keys(help.flags).filter((f) => f.length >= 4);
    const typo = `--${first.slice(0, 1)}${first.slice(2)}`;
    const { code, stderr } = await command(name, [typo]);
    assert.equal(code, 2);
    assert.match(stderr, new RegExp(`unknown option ${typo}; did you mean --${first}\\?`));
    assert.equal(stderr.trim().split('\n').length, 1, stderr);
  });
}

test('lpreq lsp --help names --stdio and --help and gives an example; a near miss of --stdio is named', async () => {
  const help = await command('lsp', ['--help']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^ {2}--stdio +\S/m);
  assert.match(help.stdout, /^ {2}--help +\S/m);
  assert.match(help.stdout, /examples:\n {2}lpreq lsp --stdio/);
  const typo = await command('lsp', ['--stdo']);
  assert.equal(typo.code, 2);
  assert.match(typo.stderr, /unknown argument '--stdo'; did you mean --stdio\?/);
});

test('lpreq --help lists every command with one line, and examples', async () => {
  const { code, stdout } = await runCli(['--help']);
  assert.equal(code, 0);
  for (const name of ['check', 'scopes', 'send', 'test', 'env', 'mock', 'proxy', 'export', 'import', 'lsp'])
    assert.match(stdout, new RegExp(`^ {2}${name} +\\S`, 'm'), name);
  assert.match(stdout, /examples:\n {2}lpreq check\n/);
  const again = await runCli(['help', 'check']);
  assert.equal(again.code, 0);
  assert.match(again.stdout, /^usage: lpreq check/);
});

test('an unknown command or option of lpreq gets the nearest one, exit 2', async () => {
  const cases: [string[], RegExp][] = [
    [['chek'], /unknown command 'chek'; did you mean check\?/],
    [['snd', 'a.lpreq'], /unknown command 'snd'; did you mean send\?/],
    [['--versoin'], /unknown option '--versoin'; did you mean --version\?/],
    [['zzzzzz'], /unknown command 'zzzzzz' \(lpreq --help lists the commands\)/],
    [['check', '--formt', 'json'], /unknown option --formt; did you mean --format\?/],
  ];
  for (const [argv, message] of cases) {
    const { code, stderr } = await runCli(argv);
    assert.equal(code, 2, argv.join(' '));
    assert.match(stderr, message);
  }
});
