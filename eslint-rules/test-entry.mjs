// Tests reach the language core as a host does: through its entry, server/src/core/index.ts
// (`createLanguageService(catalog)` and the types hosts need). Only the tests of one module of
// the core, in test/core/<module>/, may import that module's own files (server/src/core/<module>
// or <module>/...): a deep import anywhere else is reported, static, dynamic or type-only.
import { dirname, relative, resolve, sep } from 'node:path';

const CORE = 'server/src/core/';
const posix = (p) => p.split(sep).join('/');

export default {
  meta: {
    type: 'problem',
    docs: { description: 'Tests outside test/core/<module>/ import the core through its entry only.' },
    messages: {
      deep: "Import the core through its entry (server/src/core), not {{source}}: a test of the core's {{module}} module itself goes in test/core/{{module}}/.",
    },
    schema: [],
  },
  create(context) {
    const cwd = context.cwd;
    const file = posix(relative(cwd, context.filename));
    function check(node, source) {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = posix(relative(cwd, resolve(dirname(context.filename), source)));
      if (!target.startsWith(CORE)) return;
      const module = target
        .slice(CORE.length)
        .split('/')[0]
        .replace(/\.(ts|js|mjs)$/, '');
      if (module === '' || module === 'index') return;
      if (file.startsWith(`test/core/${module}/`)) return;
      context.report({ node, messageId: 'deep', data: { source, module } });
    }
    const literal = (node) => (node && node.type === 'Literal' ? node.value : undefined);
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => check(node, literal(node.source)),
      TSImportType: (node) =>
        check(node, literal(node.argument?.type === 'TSLiteralType' ? node.argument.literal : node.argument)),
    };
  },
};
