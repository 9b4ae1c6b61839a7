/**
 * The generator's file helpers alone (`@agora/generator/files`): crash-safe replacement
 * and reading, with nothing else loaded, for worker threads that only write files
 * (the writer's store file thread).
 */
export { removeStaleTemps, syncDir, writeAll, writeFileAtomic, writeFileAtomicSync, type FileData } from './atomic-write.ts';
export { readTextIfExists } from './json-file.ts';
