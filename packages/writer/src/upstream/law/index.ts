/** @module law: law.go.kr DRF client. */
export { lawOperations } from './client.ts';
export { readLawSearch, type LawSearchResult } from './schema.ts';
