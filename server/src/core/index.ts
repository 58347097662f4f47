/**
 * The language core, side-effect free: parsing, checking and the language services of one
 * text with a catalog loaded once. No vscode, no connection, no file system, no network.
 * Code outside the core imports it through this file only (eslint's layering rule): what is
 * not exported here is the core's own business.
 */
export * from './languageService';
export * from './parser';
export * from './assertion';
export * from './checker';
export * from './matcher';
export * from './values';
export * from './variables';
export * from './suggest';
export { loadCatalog, type Catalog, type Endpoint, type CatalogParameter, type Resource } from './catalog/catalog';
export type { Field, ParamType, Who, Visibility, RoleType } from './catalog/schema';
export { defaultPermission, type Permissions } from './catalog/permissions';
export { returnsFor } from './catalog/returns';
export { whoAtoms } from './catalog/lint';
export { catalogToOpenApi, type JsonObject } from './catalog/openapi';
export { findParameter, lookupParameter } from './catalog/parameters';
export { splitParamName } from './catalog/parameterText';
export { CODES, CODE_NAMES, type CodeName, type CodeEntry, type CodeTag } from './codes';
export { own, hasOwn, setOwn, dict, dictFrom } from './own';
export { LineIndex, ForwardPositions, lineStarts, lineOfOffset, type LineColumn, type LinePosition } from './positions';
export {
  SECRET_NAME,
  ScopeTracker,
  blockAt,
  blockIndexAt,
  isSecretVariable,
  type EnvironmentInfo,
  type ScopeSite,
  type ServiceContext,
} from './documentIndex';
export { METADATA, DURATION_KEYS, parseDuration } from './metadata';
export {
  parseSnapshotOptions,
  SNAPSHOT_KEY,
  type SnapshotOptions,
  type SnapshotPath,
  type SnapshotOptionName,
} from './snapshot';
export { TOKEN_TYPES, TOKEN_MODIFIERS, type TokenType } from './semanticTokens';
export { followsPages, pagingOf } from './pages';
export { parameterRules, typeLabel } from './describe';
export { decideEnvironment, describeAnswer } from './environmentRule';
export type { EnvironmentAnswer, EnvironmentRuleInput } from './environmentRule';
export {
  documentedScopes,
  readScopeList,
  requestScopes,
  undocumentedScopes,
  type RequestScope,
  type ScopeNeed,
} from './scopes';
