// The layers of ARCHITECTURE.md, as a check. The core (server/src/core) is pure: it imports
// nothing outside its folder, no editor or protocol package, no Node built-in. Code outside
// the core, the sender, the node helpers and the mock reaches each of them only through its
// entry file (`<folder>/index.ts`), so that what a layer does not export is its own
// business. The client imports server code only through those entry files and the files at
// the top of server/src (the bundled catalog). Every form of import is read: `import`,
// `export ... from`, `import()`, `require()` and `typeof import()`. Tests are not checked:
// they may import the unit they test. The response view's webview (client/webview) is a
// browser bundle of its own: it imports nothing outside its folder, no package and no Node
// module; the extension reaches only its pure models (client/webview/model).
import { builtinModules } from 'node:module';
import { dirname, relative, resolve, sep } from 'node:path';

const SERVER = 'server/src/';
/** Folders of server/src reached from outside only through their index.ts. */
const WITH_ENTRY = new Set(['core', 'sender', 'node', 'mock', 'http', 'proxy', 'import']);
/** Folders of server/src the client imports (through their entry files). */
const CLIENT_MAY_IMPORT = new Set(['core', 'sender', 'node', 'import']);
/** Packages the core may not import: an editor, the protocol, the network (a pure text library such as vscode-languageserver-textdocument is not one). */
const NOT_IN_CORE = /^(vscode|vscode-languageserver|vscode-languageclient|vscode-jsonrpc|undici)(\/|$)/;
const BUILTINS = new Set(builtinModules);

const posix = (path) => path.split(sep).join('/');

/** The layer of a path relative to the repository: a folder of server/src, `server` (its top files), `client`, `bench`, or undefined (tests, scripts). */
function layerOf(path) {
  if (path.startsWith(SERVER)) {
    const rest = path.slice(SERVER.length);
    const slash = rest.indexOf('/');
    return slash === -1 ? 'server' : rest.slice(0, slash);
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
    docs: { description: 'the core is pure, and layers are reached through their entry files' },
    schema: [
      {
        type: 'object',
        properties: { exempt: { type: 'array', items: { type: 'string' } } },
        additionalProperties: false,
      },
    ],
    messages: {
      corePackage: 'The core imports no editor, protocol, network or Node module ({{source}}): hosts do I/O.',
      coreOutside: 'The core imports nothing outside server/src/core ({{source}}).',
      importLayer:
        'The import layer (server/src/import) does no I/O: it imports no Node module, and of the server only the core ({{source}}).',
      entry: 'Import server/src/{{layer}} through its entry file ({{entry}}), not {{source}}.',
      clientServer:
        'The client imports server code only through the entry files of the core, the sender and the node helpers ({{source}}).',
      webview:
        'The webview imports only its own folder, client/webview, and no package or Node module ({{source}}): it runs in a browser page.',
      clientWebview: 'The extension imports only the pure models of the webview, client/webview/model ({{source}}).',
    },
  },
  create(context) {
    const cwd = context.cwd;
    const file = posix(relative(cwd, context.filename));
    const from = layerOf(file);
    const exempt = context.options[0]?.exempt ?? [];
    if (from === undefined || exempt.some((prefix) => file.startsWith(prefix))) return {};

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
          context.report({ node, messageId: 'importLayer', data: { source } });
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
      if (from === 'import' && to !== 'core' && to !== 'import' && to !== undefined) {
        context.report({ node, messageId: 'importLayer', data: { source } });
        return;
      }
      if (to === 'webview') {
        if (!target.startsWith('client/webview/model/'))
          context.report({ node, messageId: 'clientWebview', data: { source } });
        return;
      }
      if (to === undefined || to === from || to === 'server' || to === 'client' || to === 'bench') return;
      if (from === 'client' && !CLIENT_MAY_IMPORT.has(to)) {
        context.report({ node, messageId: 'clientServer', data: { source } });
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
