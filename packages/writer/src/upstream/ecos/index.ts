/** @module ecos: Bank of Korea ECOS client. */
export { ecosOperations, ecosDate } from './client.ts';
export { readEcosRows } from './schema.ts';
