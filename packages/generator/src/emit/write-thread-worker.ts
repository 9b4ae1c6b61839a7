/**
 * The write thread (see `write-thread.ts`): replaces small dist/ files atomically with
 * synchronous calls, a batch per message, and answers once they are all in place, with
 * the error of each file that failed. Loads only the file helpers.
 */
import { parentPort } from 'node:worker_threads';
import { writeFileAtomicSync } from '../atomic-write.ts';
import { errorToWire, type WireError } from '../thread-calls.ts';

export interface WriteBatch {
  seq: number;
  files: { path: string; bytes: Uint8Array }[];
}

/** Per file, in order: null when written, else why not. */
export type WriteFailure = WireError | null;

export type WriteBatchReply = { ready: true } | { seq: number; failures: WriteFailure[] };

/** Folders made or seen by this thread (a folder removed since is made again by the write). */
const knownDirs = new Set<string>();

parentPort?.on('message', ({ seq, files }: WriteBatch) => {
  const failures = files.map(({ path, bytes }): WriteFailure => {
    try {
      writeFileAtomicSync(path, bytes, knownDirs);
      return null;
    } catch (error) {
      return errorToWire(error);
    }
  });
  parentPort?.postMessage({ seq, failures } satisfies WriteBatchReply);
});
// Loaded: the parent may let the process exit from now on (never while this thread is still loading).
parentPort?.postMessage({ ready: true } satisfies WriteBatchReply);
