/**
 * The shell parser curlconverter reads a command with: tree-sitter's bash grammar, compiled
 * to WebAssembly and run by web-tree-sitter. curlconverter's own `shell/Parser.js` loads the
 * native `tree-sitter` module, which a bundle cannot carry; the build puts this module in its
 * place (scripts/build.mjs), and the command line and the extension ready it with the two
 * WebAssembly files they ship (`readCurlGrammar` in server/src/node). Readying is the only
 * asynchronous step; parsing is synchronous, as curlconverter expects.
 */
import TreeSitter from 'web-tree-sitter';

/** The WebAssembly of web-tree-sitter's runtime and of the bash grammar. */
export interface CurlGrammar {
  runtime: Uint8Array;
  bash: Uint8Array;
}

let parser: TreeSitter | undefined;
let readying: Promise<void> | undefined;

/** Readies the parser once per process; later calls wait for the first. */
export function readyCurlParser(grammar: CurlGrammar): Promise<void> {
  readying ??= (async () => {
    await TreeSitter.init({ wasmBinary: grammar.runtime });
    const bash = await TreeSitter.Language.load(grammar.bash);
    const p = new TreeSitter();
    p.setLanguage(bash);
    parser = p;
  })();
  return readying;
}

export function curlParserReady(): boolean {
  return parser !== undefined;
}

/** What curlconverter's tokenizer calls: `parser.parse(text)`. */
export default {
  parse(text: string): TreeSitter.Tree {
    if (!parser) throw new Error('the shell parser is not ready (readyCurlParser was not awaited)');
    return parser.parse(text);
  },
};
