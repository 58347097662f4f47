// The client project resolves modules the classic Node way, which ignores package
// "exports": this maps the library's entry to its declaration file (esbuild uses "exports").
declare module 'vscode-languageclient/node' {
  export * from 'vscode-languageclient/lib/node/main';
}
