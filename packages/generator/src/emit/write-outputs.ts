/**
 * Write outputs into `dist/`, only those whose content changed since the last build.
 * The manifest (`.cache/manifest.json`) remembers the hash of every file written; a
 * file is replaced atomically (tmp + rename), and files no longer produced by a full
 * build are removed.
 */
import { readFile, rm, stat, access } from 'node:fs/promises';
import { join } from 'node:path';
import type { Output } from './output.ts';
import { writeFileAtomic } from './atomic-write.ts';
import { hashText } from '../load/posts.ts';

interface ManifestFile {
  version: 1;
  distDir: string;
  /** Birth marker of dist/: if dist/ was deleted and recreated the manifest is void. */
  distIno: number;
  outputs: Record<string, string>;
}

/** Hash recorded for a file written without hashing (large, known to have changed). */
export const UNHASHED = '-';

export class Manifest {
  private dirtyOnDisk = false;
  private saveTimer: NodeJS.Timeout | null = null;

  constructor(
    readonly path: string | null,
    readonly distDir: string,
    readonly outputs: Map<string, string>,
  ) {}

  /**
   * Long-lived writers save the manifest lazily. Before their first write after a save
   * they leave a marker; a manifest found next to a marker may be stale and is ignored
   * (the next build then rewrites every file once, which is always correct).
   */
  private get markerPath(): string | null {
    return this.path ? `${this.path}.dirty` : null;
  }

  async markDirty(): Promise<void> {
    if (this.dirtyOnDisk || !this.markerPath) return;
    await writeFileAtomic(this.markerPath, String(process.pid));
    this.dirtyOnDisk = true;
  }

  /** Save within `ms`, coalescing every change in between. */
  scheduleSave(ms: number): void {
    this.saveTimer ??= setTimeout(() => {
      this.saveTimer = null;
      void this.save().catch(() => {});
    }, ms);
    this.saveTimer.unref();
  }

  /** Save now if a save is pending. */
  async flush(): Promise<void> {
    if (!this.saveTimer) return;
    clearTimeout(this.saveTimer);
    this.saveTimer = null;
    await this.save();
  }

  static async open(cacheDir: string | null, distDir: string): Promise<Manifest> {
    const path = cacheDir ? join(cacheDir, 'manifest.json') : null;
    const empty = new Manifest(path, distDir, new Map());
    if (!path) return empty;
    if (await access(`${path}.dirty`).then(() => true, () => false)) return empty;
    try {
      const [file, ino] = await Promise.all([readFile(path, 'utf8').then((t) => JSON.parse(t) as ManifestFile), distInode(distDir)]);
      if (file.version !== 1 || file.distDir !== distDir || ino === null || file.distIno !== ino) return empty;
      return new Manifest(path, distDir, new Map(Object.entries(file.outputs)));
    } catch {
      return empty;
    }
  }

  async save(): Promise<void> {
    if (!this.path) return;
    const file: ManifestFile = {
      version: 1,
      distDir: this.distDir,
      distIno: (await distInode(this.distDir)) ?? -1,
      outputs: Object.fromEntries(this.outputs),
    };
    await writeFileAtomic(this.path, JSON.stringify(file), { durable: this.dirtyOnDisk });
    if (this.dirtyOnDisk && this.markerPath) {
      await rm(this.markerPath, { force: true });
      this.dirtyOnDisk = false;
    }
  }
}

async function distInode(distDir: string): Promise<number | null> {
  try {
    return (await stat(distDir)).ino;
  } catch {
    return null;
  }
}

export interface WriteResult {
  written: string[];
  unchanged: number;
  removed: string[];
}

export interface WriteOptions {
  /** fsync every file (incremental rebuilds); bulk builds skip it. */
  durable?: boolean;
  /** Remove files the manifest knows but `outputs` no longer contains (full builds only). */
  prune?: boolean;
  concurrency?: number;
  /**
   * Bodies longer than this are written without hashing (recorded as `UNHASHED`):
   * for incremental rebuilds, where big lists are known to have changed and hashing
   * 25 MB would cost more than writing it.
   */
  hashLimit?: number;
}

/** Write the changed outputs and update the manifest in memory. */
export async function writeOutputs(manifest: Manifest, outputs: readonly Output[], options: WriteOptions = {}): Promise<WriteResult> {
  const seen = new Set<string>();
  const pending: { output: Output; hash: string }[] = [];
  let unchanged = 0;
  for (const output of outputs) {
    if (seen.has(output.path)) throw new Error(`Cannot write \`${output.path}\` twice in one build: two outputs collide`);
    seen.add(output.path);
    const hash = options.hashLimit !== undefined && output.body.length > options.hashLimit ? UNHASHED : hashText(output.body);
    if (hash !== UNHASHED && manifest.outputs.get(output.path) === hash) unchanged++;
    else pending.push({ output, hash });
  }
  let next = 0;
  const written: string[] = [];
  const worker = async () => {
    while (next < pending.length) {
      const { output, hash } = pending[next++]!;
      await writeFileAtomic(join(manifest.distDir, output.path), output.body, { durable: options.durable ?? false });
      manifest.outputs.set(output.path, hash);
      written.push(output.path);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 32, pending.length) }, worker));
  const removed: string[] = [];
  if (options.prune) {
    for (const path of [...manifest.outputs.keys()]) {
      if (seen.has(path)) continue;
      await rm(join(manifest.distDir, path), { force: true });
      manifest.outputs.delete(path);
      removed.push(path);
    }
  }
  return { written, unchanged, removed };
}
