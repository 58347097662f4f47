// Lists the exports of server/src and client that no other file uses, and fails when there
// is one: a value only its own file reads should not be exported, and an export nothing
// reads is dead code. A type only its own file names is left alone: it is most often part of
// an exported signature. Every file of the project counts as a user (the sources, the tests,
// the benchmarks, the scripts); a re-export (`export { x } from`) does not; the bundles'
// entry files (ENTRIES) are read by what loads them, so their exports count as used.
// A step of `npm run lint` (npm run lint:exports), over the whole project: a few seconds.
// Run: node --import tsx scripts/unused-exports.ts [folder...]  (default: server/src client)
import ts from 'typescript';
import { join, relative, sep } from 'node:path';

const ROOT = join(import.meta.dirname, '..');

/** Files whose exports the bundles, VS Code or the bin scripts call (scripts/build.mjs entries). */
const ENTRIES = new Set([
  'server/src/library.ts',
  'server/src/cli/entry.ts',
  'server/src/cli/sendCommand.ts',
  'server/src/cli/mockCommand.ts',
  'server/src/cli/testCommand.ts',
  'server/src/cli/exportCommand.ts',
  'server/src/cli/importCommand.ts',
  // The build puts it in place of curlconverter's tree-sitter parser module (scripts/build.mjs).
  'server/src/import/treeSitter.ts',
  'server/src/cli/envCommand.ts',
  'server/src/cli/demo.ts',
  'server/src/lsp/lspCommand.ts',
  'server/src/lsp/serverMain.ts',
  'client/src/extension.ts',
]);

interface UnusedExport {
  file: string;
  name: string;
  /** Read in its own file (then it need not be exported), or nowhere. */
  usedInOwnFile: boolean;
}

function program(): ts.Program {
  const files: string[] = [];
  for (const project of ['server', 'client', 'test']) {
    const configPath = join(ROOT, project, 'tsconfig.json');
    const config = ts.readConfigFile(configPath, (p) => ts.sys.readFile(p));
    const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, join(ROOT, project));
    files.push(...parsed.fileNames.filter((f) => f.endsWith('.ts')));
  }
  return ts.createProgram([...new Set(files)], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    resolveJsonModule: true,
  });
}

function unusedExports(folders = ['server/src', 'client']): UnusedExport[] {
  const prog = program();
  const checker = prog.getTypeChecker();
  const rel = (f: string) => relative(ROOT, f).split(sep).join('/');
  const sources = prog
    .getSourceFiles()
    .filter((sf) => !sf.isDeclarationFile && !rel(sf.fileName).startsWith('node_modules/'));
  /** The files that refer to each symbol (an alias followed to what it names). */
  const usedIn = new Map<ts.Symbol, Set<string>>();
  const resolve = (s: ts.Symbol): ts.Symbol => (s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s);
  for (const sf of sources) {
    const file = rel(sf.fileName);
    const visit = (node: ts.Node): void => {
      if (ts.isIdentifier(node)) {
        const symbol = checker.getSymbolAtLocation(node);
        if (symbol) {
          for (const s of [symbol, resolve(symbol)]) {
            let files = usedIn.get(s);
            if (!files) usedIn.set(s, (files = new Set()));
            files.add(file);
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  const out: UnusedExport[] = [];
  for (const sf of sources) {
    const file = rel(sf.fileName);
    if (!folders.some((f) => file.startsWith(`${f}/`)) || ENTRIES.has(file)) continue;
    const moduleSymbol = checker.getSymbolAtLocation(sf);
    if (!moduleSymbol) continue;
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const target = resolve(exported);
      // A re-export (`export * from`, `export { x } from`) is judged where it is declared.
      const declared = target.declarations?.[0]?.getSourceFile();
      if (!declared || rel(declared.fileName) !== file) continue;
      const files = usedIn.get(target) ?? new Set<string>();
      const elsewhere = [...files].some((f) => f !== file && !isReexportOnly(prog, f, target, checker));
      if (elsewhere) continue;
      const usedInOwnFile = files.has(file) && countInFile(prog, file, target, checker) > 1;
      const isType = (target.flags & ts.SymbolFlags.Value) === 0;
      if (isType && usedInOwnFile) continue;
      out.push({ file, name: exported.name, usedInOwnFile });
    }
  }
  return out.sort((a, b) => a.file.localeCompare(b.file) || a.name.localeCompare(b.name));
}

/** Whether a file names the symbol only in `export ... from` declarations (a re-export is not a use). */
function isReexportOnly(prog: ts.Program, file: string, target: ts.Symbol, checker: ts.TypeChecker): boolean {
  const sf = prog.getSourceFile(join(ROOT, file));
  if (!sf) return false;
  let other = false;
  const visit = (node: ts.Node): void => {
    if (other) return;
    if (ts.isExportDeclaration(node)) return;
    if (ts.isIdentifier(node)) {
      const s = checker.getSymbolAtLocation(node);
      if (s && (s === target || (s.flags & ts.SymbolFlags.Alias && checker.getAliasedSymbol(s) === target)))
        other = true;
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return !other;
}

/** How many identifiers of a file name the symbol (its declaration is one). */
function countInFile(prog: ts.Program, file: string, target: ts.Symbol, checker: ts.TypeChecker): number {
  const sf = prog.getSourceFile(join(ROOT, file));
  let n = 0;
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && checker.getSymbolAtLocation(node) === target) n++;
    ts.forEachChild(node, visit);
  };
  if (sf) visit(sf);
  return n;
}

if (process.argv[1] === import.meta.filename) {
  const found = unusedExports(process.argv.length > 2 ? process.argv.slice(2) : undefined);
  for (const u of found)
    console.log(`${u.file}: ${u.name}${u.usedInOwnFile ? ' (used only in its own file)' : ' (used nowhere)'}`);
  if (found.length > 0) {
    console.log(`${found.length} unused export(s): drop the export, or the code nothing uses`);
    process.exitCode = 1;
  }
}
