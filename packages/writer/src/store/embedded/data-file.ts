/**
 * Reading and writing the embedded store's JSON files. A file that is not JSON, or is
 * JSON of the wrong shape (`[]`, `{}`, `null`, `{"comments": {}}`), is never taken
 * as empty: it stops the caller with the file, the problem and the fix, and it is
 * never overwritten; so is a file that is not UTF-8 (read leniently, its bytes had become
 * U+FFFD, been published, and been written back over the original). Writes are durable (temp file, fsync, rename, fsync folder), and
 * a full disk becomes `StoreError('disk_full')`.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { writeFileAtomic, writeFileAtomicSync } from '@agora/generator/files';
import { firstInvalidUtf8 } from '@agora/generator/utf8';
import { StoreError } from '../types.ts';

/** Bytes of a data file written back to disk at a time (see `syncEvery`). */
const STORE_SYNC_STEP = 256 * 1024;

/** A shape check: returns the problem, or null when `value` is fine. */
export type ShapeCheck = (value: unknown) => string | null;

/** No room for the bytes: the disk, the user's quota, or the process's file-size limit (`ulimit -f`, EFBIG). */
const DISK_FULL = new Set(['ENOSPC', 'EDQUOT', 'EFBIG']);

/** The folder refuses writes: a read-only mount, permissions. The writer goes on once it is writable again. */
const NOT_WRITABLE = new Set(['EROFS', 'EACCES', 'EPERM']);

/** The process (EMFILE) or the system (ENFILE) has no file descriptor left: it passes as connections close. */
const NO_DESCRIPTOR = new Set(['EMFILE', 'ENFILE']);

/** Map a file-system error to a `StoreError` where it has a meaning for callers. */
export function toStoreError(error: unknown, path: string): unknown {
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code && NO_DESCRIPTOR.has(code)) {
    // A 503 with Retry-After, not a 500: nothing was stored, and a retry soon may well work.
    return new StoreError('unavailable', `Cannot open \`${path}\` (${code}: too many open files); nothing was stored — retry shortly, and raise the limit on open files (\`ulimit -n\`) if it lasts`, { cause: error });
  }
  if (code && DISK_FULL.has(code)) {
    return new StoreError('disk_full', `Cannot write \`${path}\`: no room for it (${code}: ${code === 'EFBIG' ? 'the file-size limit' : 'the disk is full'}); nothing was changed. Make room, then run the command again (a running writer goes on by itself)`, { cause: error });
  }
  if (code && NOT_WRITABLE.has(code)) {
    return new StoreError('unavailable', `Cannot write \`${path}\` (${code}: ${code === 'EROFS' ? 'a read-only file system' : 'no permission'}); nothing was changed. Make the data folder writable, then run the command again (a running writer goes on by itself)`, { cause: error });
  }
  return error;
}

function corrupt(path: string, problem: string, fix: string): StoreError {
  return new StoreError('corrupt', `Cannot read \`${path}\`: ${problem}. ${fix}`);
}

/**
 * Read a data file; `null` when it does not exist.
 *
 * @param fix What the operator should do when the file is broken (restore a backup, …).
 */
export async function readDataFile<T>(path: string, check: ShapeCheck, fix: string): Promise<T | null> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  return parseDataFile<T>(path, utf8Text(path, bytes, fix), check, fix);
}

/** `readDataFile`, synchronously (the store's file threads). */
export function readDataFileSync<T>(path: string, check: ShapeCheck, fix: string): T | null {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  return parseDataFile<T>(path, utf8Text(path, bytes, fix), check, fix);
}

/** Refuses what is not UTF-8; a byte order mark is kept, as before, for JSON.parse to refuse. */
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A data file's bytes as text, or the `corrupt` error naming the first byte that is not UTF-8. */
function utf8Text(path: string, bytes: Uint8Array, fix: string): string {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    const at = firstInvalidUtf8(bytes);
    throw corrupt(path, `not valid UTF-8 (byte 0x${(bytes[at] ?? 0).toString(16).toUpperCase().padStart(2, '0')} at byte ${at})`, fix);
  }
}

/** A data file's text as its value, or the `corrupt` error naming the file, the problem and the fix. */
export function parseDataFile<T>(path: string, text: string, check: ShapeCheck, fix: string): T {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw corrupt(path, `not valid JSON (${(error as Error).message})`, fix);
  }
  const problem = check(value);
  if (problem) throw corrupt(path, problem, fix);
  return value as T;
}

/** Write a data file durably (`pretty` for the small files an operator may read). */
export async function writeDataFile(path: string, value: unknown, pretty = false): Promise<void> {
  try {
    await writeFileAtomic(path, dataFileText(value, pretty), { durable: true, syncEvery: STORE_SYNC_STEP });
  } catch (error) {
    throw toStoreError(error, path);
  }
}

/** `writeDataFile`, synchronously (the store's file threads). */
export function writeDataFileSync(path: string, value: unknown): void {
  try {
    writeFileAtomicSync(path, dataFileText(value), undefined, { durable: true, syncEvery: STORE_SYNC_STEP });
  } catch (error) {
    throw toStoreError(error, path);
  }
}

/**
 * A data file's bytes. Written back in steps of 256 KB: a post file with hundreds of
 * comments and their HTML is MBs, and another post's fsync then waits for one step,
 * not for the whole file.
 */
const dataFileText = (value: unknown, pretty = false) => `${JSON.stringify(value, null, pretty ? 2 : undefined)}\n`;

/** `{ <key>: <object of T> }` checks, shared by the small files. */
export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
