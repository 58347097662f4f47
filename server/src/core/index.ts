/**
 * The language core, side-effect free: parsing and checking of one text with a catalog
 * loaded once. No vscode, no connection, no file system, no network.
 */
export * from './parser';
export * from './checker';
export * from './matcher';
export * from './values';
export * from './variables';
export * from './suggest';
export { loadCatalog, splitParamName, type Catalog, type Endpoint, type CatalogParameter, type Resource } from './catalog/catalog';
