/** @module fsc: FSC corporate basic information client. */
export { fetchCorpOutline, fscOperations, readCorpList, type CorpList } from './client.ts';
