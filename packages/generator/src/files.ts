/**
 * The generator's file helpers alone (`@agora/generator/files`): crash-safe replacement
 * and reading, with nothing else loaded, for worker threads that only write files
 * (the writer's store file thread), and the calls to such a thread.
 */
export { removeStaleTemps, syncDir, writeAll, writeFileAtomic, writeFileAtomicSync, type FileData } from './atomic-write.ts';
export { readTextIfExists } from './json-file.ts';
export { errorFromWire, errorToWire, ThreadCalls, ThreadStopped, type ThreadCallsOptions, type WireError } from './thread-calls.ts';
