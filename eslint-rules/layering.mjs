// The layers of ARCHITECTURE.md, as a check. A layer is a folder of server/src (`core`,
// `sender`...), a file at the top of server/src (`catalogData`, `mockRun`...), the client
// (client/src), the webview (client/webview) or the benchmarks (bench). MAY_IMPORT says, for
// every pair of layers, which one may import the other: one way down, so that no cycle can
// go through two layers (madge, `npm run lint:cycles`, finds those inside one). A layer that
// is not in the table is reported, so that each new one says where it stands.
//
// Besides: the core (server/src/core) is pure, it imports no editor or protocol package and
// no Node built-in; the layers with an entry file (`<folder>/index.ts`) are reached from
// outside only through it; the webview is a browser bundle that imports nothing outside its
// folder, and others reach only its pure models (client/webview/model). Every form of import
// is read: `import`, `export ... from`, `import()`, `require()` and `typeof import()`, types
// included. Tests and scripts are not checked: they may import the unit they test.
import { builtinModules } from 'node:module';
import { dirname, relative, resolve, sep } from 'node:path';

const SERVER = 'server/src/';

/**
 * The layers each layer may import; every other pair is refused. Lowest first: the core and
 * the version; the catalog data, the node helpers and the HTTP path; the sender and the mock;
 * the proxy, the mock run and the benchmarks' library; the hosts (command line, language
 * server, VS Code client); the benchmarks. The webview stands apart.
 */
const MAY_IMPORT = {
  core: [],
  version: [],
  catalogData: ['core'],
  node: ['core'],
  http: ['core'],
  import: ['core'],
  sender: ['core', 'version', 'node'],
  mock: ['core', 'catalogData', 'http'],
  proxy: ['core', 'catalogData', 'http', 'sender'],
  mockRun: ['core', 'catalogData', 'node', 'sender', 'mock'],
  library: ['core', 'catalogData'],
  importHost: ['core', 'catalogData', 'node', 'sender', 'import'],
  cli: ['core', 'version', 'catalogData', 'node', 'http', 'sender', 'mock', 'proxy', 'mockRun', 'import', 'importHost'],
  lsp: ['core', 'version', 'catalogData', 'node', 'sender', 'mockRun'],
  client: ['core', 'version', 'catalogData', 'node', 'sender', 'mockRun', 'import', 'importHost', 'webview'],
  webview: [],
  bench: [
    'core',
    'version',
    'catalogData',
    'node',
    'http',
    'sender',
    'mock',
    'proxy',
    'mockRun',
    'library',
    'import',
    'importHost',
    'cli',
    'lsp',
    'webview',
  ],
};
/** Folders of server/src reached from outside only through their index.ts. */
const WITH_ENTRY = new Set(['core', 'sender', 'node', 'mock', 'http', 'proxy', 'import']);
/** Packages the core may not import: an editor, the protocol, the network (a pure text library such as vscode-languageserver-textdocument is not one). */
const NOT_IN_CORE = /^(vscode|vscode-languageserver|vscode-languageclient|vscode-jsonrpc|undici)(\/|$)/;
const BUILTINS = new Set(builtinModules);

const posix = (path) => path.split(sep).join('/');
const known = (layer) => Object.hasOwn(MAY_IMPORT, layer);

/** The layer of a path relative to the repository (without extension or with one), or undefined (tests, scripts, data). */
function layerOf(path) {
  if (path.startsWith(SERVER)) {
    const rest = path.slice(SERVER.length);
    const slash = rest.indexOf('/');
    // A folder (`core`, or `core/...`), or a file at the top (`catalogData.ts` is `catalogData`).
    return slash === -1 ? rest.replace(/\.[a-z]+$/, '') : rest.slice(0, slash);
  }
  if (path.startsWith('client/src/')) return 'client';
  if (path.startsWith('client/webview/')) return 'webview';
  if (path.startsWith('bench/')) return 'bench';
  return undefined;
}

/** Whether a resolved path (without extension or with .ts) is a layer's entry: the folder itself or its index. */
function isEntry(path, layer) {
  const folder = `${SERVER}${layer}`;
  return path === folder || path === `${folder}/index` || path === `${folder}/index.ts`;
}

export default {
  meta: {
    type: 'problem',
    docs: {
      description: 'layers import one way down, the core is pure, and layers are reached through their entry files',
    },
    schema: [],
    messages: {
      corePackage: 'The core imports no editor, protocol, network or Node module ({{source}}): hosts do I/O.',
      importPackage: 'The import layer (server/src/import) does no I/O: it imports no Node module ({{source}}).',
      coreOutside: 'The core imports nothing outside server/src/core ({{source}}).',
      direction:
        'Layers import one way down: {{from}} does not import {{to}} ({{source}}); {{from}} may import {{allowed}} (eslint-rules/layering.mjs).',
      unknownLayer:
        '{{layer}} is not a layer of eslint-rules/layering.mjs: add it to MAY_IMPORT with the layers it may import, and to those that may import it.',
      entry: 'Import server/src/{{layer}} through its entry file ({{entry}}), not {{source}}.',
      webview:
        'The webview imports only its own folder, client/webview, and no package or Node module ({{source}}): it runs in a browser page.',
      clientWebview: 'Outside the webview, import only its pure models, client/webview/model ({{source}}).',
    },
  },
  create(context) {
    const cwd = context.cwd;
    const file = posix(relative(cwd, context.filename));
    const from = layerOf(file);
    if (from === undefined) return {};
    if (!known(from)) {
      return {
        Program: (node) => context.report({ node, messageId: 'unknownLayer', data: { layer: from } }),
      };
    }

    function check(node, source) {
      if (typeof source !== 'string') return;
      if (from === 'webview') {
        const inside =
          source.startsWith('.') &&
          layerOf(posix(relative(cwd, resolve(dirname(context.filename), source)))) === 'webview';
        if (!inside) context.report({ node, messageId: 'webview', data: { source } });
        return;
      }
      if (!source.startsWith('.')) {
        if (from === 'import' && (source.startsWith('node:') || BUILTINS.has(source.split('/')[0]))) {
          context.report({ node, messageId: 'importPackage', data: { source } });
          return;
        }
        if (
          from === 'core' &&
          (NOT_IN_CORE.test(source) || source.startsWith('node:') || BUILTINS.has(source.split('/')[0]))
        ) {
          context.report({ node, messageId: 'corePackage', data: { source } });
        }
        return;
      }
      const target = posix(relative(cwd, resolve(dirname(context.filename), source)));
      const to = layerOf(target);
      if (from === 'core') {
        if (to !== 'core') context.report({ node, messageId: 'coreOutside', data: { source } });
        return;
      }
      if (to === undefined || to === from) return;
      if (!known(to)) {
        context.report({ node, messageId: 'unknownLayer', data: { layer: to } });
        return;
      }
      const allowed = MAY_IMPORT[from];
      if (!allowed.includes(to)) {
        const data = { from, to, source, allowed: allowed.length > 0 ? allowed.join(', ') : 'no other layer' };
        context.report({ node, messageId: 'direction', data });
        return;
      }
      if (to === 'webview') {
        if (!target.startsWith('client/webview/model/'))
          context.report({ node, messageId: 'clientWebview', data: { source } });
        return;
      }
      if (WITH_ENTRY.has(to) && !isEntry(target, to)) {
        context.report({ node, messageId: 'entry', data: { layer: to, entry: `${SERVER}${to}/index.ts`, source } });
      }
    }

    const literal = (node) => (node && node.type === 'Literal' ? node.value : undefined);
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => check(node, literal(node.source)),
      CallExpression: (node) => {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require')
          check(node, literal(node.arguments[0]));
      },
      TSImportType: (node) =>
        check(node, literal(node.argument?.type === 'TSLiteralType' ? node.argument.literal : node.argument)),
    };
  },
};
