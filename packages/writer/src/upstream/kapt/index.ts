/** @module kapt: K-apt apartment complex client. */
export { fetchApt, kaptOperations, KAPT_OPERATIONS } from './client.ts';
export { readApt, type AptResult } from './schema.ts';
