/** @module dart: OpenDART client. */
export { createDartOperations } from './client.ts';
export { readDartList, readCorpCodes, type CorpCode } from './schema.ts';
export { firstZipEntry, isZip } from './unzip.ts';
