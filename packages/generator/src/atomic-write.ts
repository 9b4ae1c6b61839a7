/**
 * Crash-safe file replacement: write a temporary file beside the target, (optionally)
 * fsync it, rename it over the target, then fsync the folder so the rename itself is
 * durable. A reader (or a crash) sees either the old file or the new one, never half
 * of one.
 */
import { open, rename, mkdir, readdir, rm, type FileHandle } from 'node:fs/promises';
import { closeSync, fdatasyncSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writevSync } from 'node:fs';
import { threadId } from 'node:worker_threads';
import { dirname, basename, join } from 'node:path';

export interface AtomicWriteOptions {
  /** fsync file and folder (default true). Bulk builds of derived files turn it off. */
  durable?: boolean;
  /** Folders known to exist already (skips `mkdir`); updated as folders are made. */
  knownDirs?: Set<string>;
  /**
   * Write the data back to disk every this many bytes as it is written, and all of it
   * before the rename (`fdatasync`). For big files beside a process
   * that fsyncs small ones (the writer's store): ext4 commits its journal with the
   * dirty data of every file renamed since the last commit, so one unsynced 28 MB
   * rename makes the next small fsync wait for all 28 MB. Synced in steps, a small
   * fsync waits for one step at most.
   */
  syncEvery?: number;
}

// Per thread: a worker writing beside the main thread (the store's file thread) never picks the main thread's names.
let counter = threadId * 1_000_000_000;

/** A temporary name beside `path`: unique per process and call; the leading dot keeps it out of static serving. */
export function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${++counter}.tmp`);
}

/** `tempPathFor`'s names, with the writing process's id. */
const TEMP_NAME = /^\..+\.(\d+)\.\d+\.tmp$/;

/** The process is running (a signal-0 probe; EPERM means it exists under another user). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Remove the temporary files in `dir` (and its subfolders, if `recursive`) that a
 * process killed mid-write left behind (those of running processes, this one included,
 * are still being written).
 */
export async function removeStaleTemps(dir: string, options: { recursive?: boolean } = {}): Promise<void> {
  const entries = await readdir(dir, { recursive: options.recursive ?? false, withFileTypes: true }).catch(() => []);
  for (const entry of entries) if (entry.isFile() && isStaleTemp(entry.name)) await rm(join(entry.parentPath, entry.name), { force: true });
}

/** A file name `tempPathFor` gave a process that is no longer running. */
function isStaleTemp(name: string): boolean {
  const pid = TEMP_NAME.exec(name)?.[1];
  return pid !== undefined && !isProcessAlive(Number(pid));
}

/** Content to write: text, bytes, or byte chunks written one after the other. */
export type FileData = string | Uint8Array | readonly Uint8Array[];

/** Bytes of `data` as a list of chunks. */
function toChunks(data: FileData): readonly Uint8Array[] {
  if (typeof data === 'string') return [Buffer.from(data, 'utf8')];
  return data instanceof Uint8Array ? [data] : data;
}

/** writev takes at most IOV_MAX (1024) buffers a call. */
const IOV_MAX = 1024;

/**
 * `data` as writev calls of up to IOV_MAX buffers; with a `step`, each call ends where a
 * step of bytes ends (`stepEnds`: write it back now), chunks cut where a step ends (a
 * big string is one chunk).
 */
function* writeCalls(data: FileData, step = Infinity): Generator<{ buffers: Uint8Array[]; stepEnds: boolean }> {
  let buffers: Uint8Array[] = [];
  let unsynced = 0;
  for (const chunk of toChunks(data)) {
    for (let at = 0; at < chunk.byteLength; ) {
      const end = at + step - unsynced;
      const piece = at === 0 && end >= chunk.byteLength ? chunk : chunk.subarray(at, end);
      at += piece.byteLength;
      unsynced += piece.byteLength;
      buffers.push(piece);
      const stepEnds = unsynced >= step;
      if (stepEnds || buffers.length === IOV_MAX) {
        yield { buffers, stepEnds };
        buffers = [];
        if (stepEnds) unsynced = 0;
      }
    }
  }
  if (buffers.length > 0) yield { buffers, stepEnds: false };
}

/**
 * The part of `buffers` after their first `written` bytes. A write may write fewer bytes
 * than asked (a disk filling up, a file-size limit) without an error: the next call then
 * writes the rest or fails with the reason (ENOSPC, EFBIG). Unchecked, a short write was
 * renamed over the good file as if whole (a full disk truncated the store's files).
 */
function unwritten(buffers: readonly Uint8Array[], written: number): Uint8Array[] {
  const rest: Uint8Array[] = [];
  for (const buffer of buffers) {
    if (written >= buffer.byteLength) {
      written -= buffer.byteLength;
      continue;
    }
    rest.push(written > 0 ? buffer.subarray(written) : buffer);
    written = 0;
  }
  return rest;
}

/** A write that made no progress: as the system would say when it cannot take more. */
const noProgress = () => Object.assign(new Error('ENOSPC: no space left on device, write (no byte written)'), { code: 'ENOSPC' });

/** Write every byte of `buffers` at the file's position, or throw. */
export function writeAllSync(fd: number, buffers: readonly Uint8Array[]): void {
  for (let rest = unwritten(buffers, 0); rest.length > 0; ) {
    const written = writevSync(fd, rest);
    if (written <= 0) throw noProgress();
    rest = unwritten(rest, written);
  }
}

/** `writeAllSync` through a file handle. */
export async function writeAll(handle: FileHandle, buffers: readonly Uint8Array[]): Promise<void> {
  for (let rest = unwritten(buffers, 0); rest.length > 0; ) {
    const { bytesWritten } = await handle.writev(rest);
    if (bytesWritten <= 0) throw noProgress();
    rest = unwritten(rest, bytesWritten);
  }
}

/** Replace `path` with `data` atomically, creating parent folders as needed. */
export async function writeFileAtomic(path: string, data: FileData, options: AtomicWriteOptions = {}): Promise<void> {
  const durable = options.durable ?? true;
  const dir = dirname(path);
  if (!options.knownDirs?.has(dir)) {
    await mkdir(dir, { recursive: true });
    options.knownDirs?.add(dir);
  }
  const tmp = tempPathFor(path);
  let handle;
  try {
    handle = await open(tmp, 'w', 0o644).catch(async (error: NodeJS.ErrnoException) => {
      // The folder went away since it was made (`knownDirs` remembers it): make it again.
      if (error.code !== 'ENOENT') throw error;
      await mkdir(dir, { recursive: true });
      return open(tmp, 'w', 0o644);
    });
    // Bytes written since the last write-back (with `syncEvery`, all go back before the rename).
    let pending = false;
    for (const { buffers, stepEnds } of writeCalls(data, options.syncEvery)) {
      await writeAll(handle, buffers);
      pending = !stepEnds;
      if (stepEnds) await handle.datasync();
    }
    if (durable) await handle.sync();
    else if (options.syncEvery !== undefined && pending) await handle.datasync();
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

/** Open a temporary file for writing; a folder that went away since it was made (`knownDirs`) is made again. */
function openTempSync(tmp: string, dir: string): number {
  try {
    return openSync(tmp, 'w', 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(dir, { recursive: true });
    return openSync(tmp, 'w', 0o644);
  }
}

/**
 * The same replacement done synchronously: for bulk builds of derived files, where
 * thousands of small files would otherwise pay a thread-pool round trip per system call
 * (the main thread has nothing else to do meanwhile), and for a worker thread that
 * makes a whole durable replacement one round trip (`durable`, with `syncEvery` as
 * for `writeFileAtomic`).
 */
export function writeFileAtomicSync(path: string, data: FileData, knownDirs?: Set<string>, options: { durable?: boolean; syncEvery?: number } = {}): void {
  const dir = dirname(path);
  if (!knownDirs?.has(dir)) {
    mkdirSync(dir, { recursive: true });
    knownDirs?.add(dir);
  }
  const tmp = tempPathFor(path);
  try {
    const fd = openTempSync(tmp, dir);
    try {
      for (const { buffers, stepEnds } of writeCalls(data, options.syncEvery)) {
        writeAllSync(fd, buffers);
        if (stepEnds) fdatasyncSync(fd);
      }
      if (options.durable) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
  if (options.durable) syncDirSync(dir);
}

/** `syncDir`, synchronously. */
function syncDirSync(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Errors of a disk that cannot take more (or any) bytes: full, over quota, a file too big, read-only. */
const DISK_FULL = new Set(['ENOSPC', 'EDQUOT', 'EFBIG', 'EROFS']);

export function isDiskFull(error: unknown): boolean {
  return DISK_FULL.has((error as NodeJS.ErrnoException)?.code ?? '');
}
