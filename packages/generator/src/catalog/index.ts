/** @module catalog: types, JSON Schema and loader of the public-data catalog. */
export type { Catalog, CatalogProxy, CatalogService, SimpleApi, AgentGets, Operation, OperationParam, RateLimit, OperationRateLimit, ServiceStatus, AuthScheme } from './types.ts';
export { catalogJsonSchema, type JsonSchema, type JsonType } from './catalog-schema.ts';
export { checkSchema, formatPath, isCalendarDate, type SchemaIssue, type DocPath } from './check-schema.ts';
export { loadCatalog, CATALOG_FILE, type LoadCatalogResult } from './load-catalog.ts';
export { withKeyStatus, type MissingKeys } from './key-status.ts';
