/**
 * Crash-safe file replacement: write a temporary file beside the target, (optionally)
 * fsync it, rename it over the target, then fsync the folder so the rename itself is
 * durable. A reader (or a crash) sees either the old file or the new one, never half
 * of one.
 */
import { open, rename, mkdir, rm } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';

export interface AtomicWriteOptions {
  /** fsync file and folder (default true). Bulk builds of derived files turn it off. */
  durable?: boolean;
  /** Folders known to exist already (skips `mkdir`); updated as folders are made. */
  knownDirs?: Set<string>;
}

let counter = 0;

/** Replace `path` with `data` atomically, creating parent folders as needed. */
export async function writeFileAtomic(path: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  const durable = options.durable ?? true;
  const dir = dirname(path);
  if (!options.knownDirs?.has(dir)) {
    await mkdir(dir, { recursive: true });
    options.knownDirs?.add(dir);
  }
  // Unique per process and call; the leading dot keeps it out of static serving.
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${++counter}.tmp`);
  let handle;
  try {
    handle = await open(tmp, 'w', 0o644);
    await handle.writeFile(data);
    if (durable) await handle.sync();
    await handle.close();
    handle = undefined;
    await rename(tmp, path);
  } catch (error) {
    await handle?.close().catch(() => {});
    await rm(tmp, { force: true }).catch(() => {});
    throw error;
  }
  if (durable) await syncDir(dir);
}

/** fsync a folder so renames and creations inside it survive a power cut. */
export async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
