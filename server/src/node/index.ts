/**
 * The Node-only helpers the hosts share (the command line, the language server, the VS Code
 * client): environment files, body files read from inside the workspace, the one reader of
 * text input, the catalog from a folder, the process a command runs in (Io). Code outside
 * node/ imports them through this file.
 */
export {
  EnvironmentFileError,
  loadEnvironmentFiles,
  environmentDefinitions,
  environmentScopes,
  type EnvironmentFiles,
  type EnvironmentOptions,
  type TlsSettings,
} from './environments';
export { sharedClientSecrets, type AuthSettings, type AuthValue, type SharedSecretFinding } from './authSettings';
export { readScopeFile, scopeAdditionEdit, type FileEdit } from './scopeFiles';
export { readTlsFiles, type TlsFiles } from './tls';
export { bodyFileReader, readBodyFile, workspaceFolder, type BodyFileRead } from './bodyFile';
export { readTextInput, readTextStream, readTextFileSync, readConfinedText, type TextRead } from './textInput';
export { readConfinedFile, readRegularFile } from './confinedFile';
export { loadCatalogFromDir } from './catalogFiles';
export { TestIgnore, walkedFrom } from './testIgnore';
export { readRememberedEnvironment } from './environmentChoice';
export { confinedFolder, partsBelow, writeConfinedFile } from './confinedWriter';
export {
  readCurlGrammar,
  httpClientEnvironments,
  mergeEnvironmentEntries,
  writeEnvironmentFile,
  type EnvironmentMerge,
} from './importFiles';
export type { Io } from './io';
