/**
 * The output sink: jobs come in one at a time, each is skipped when its input key is
 * what the manifest remembers, otherwise emitted; each file is written (atomically)
 * only when its bytes changed, with a bounded number of writes in flight, so the
 * whole site is never held in memory at once. A full build then removes the files
 * that no job produced any more.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { chunksLength, type Output } from './output.ts';
import { writeFileAtomic, writeFileAtomicSync } from '../atomic-write.ts';
import { createHash } from 'node:crypto';
import { Manifest, UNHASHED } from './manifest.ts';

export { Manifest, UNHASHED };

export interface WriteResult {
  written: string[];
  unchanged: number;
  removed: string[];
}

export interface SinkResult extends WriteResult {
  skippedJobs: number;
  emittedJobs: number;
  /** Files the site consists of (written, unchanged or kept by skipped jobs). */
  outputs: number;
}

export interface SinkOptions {
  /** fsync every file (default false: dist/ is derived and rebuilt at will). */
  durable?: boolean;
  /**
   * Bodies longer than this are written without hashing (recorded as `UNHASHED`):
   * for incremental rebuilds, where big lists are known to have changed and hashing
   * 25 MB would cost more than writing it.
   */
  hashLimit?: number;
  /** Writes in flight at most (default 64). */
  concurrency?: number;
  /**
   * Write synchronously (bulk builds: thousands of small files, nothing else to do on
   * this thread). A server must not: it would block its event loop.
   */
  sync?: boolean;
  /**
   * Write bodies smaller than this many bytes synchronously, in runs of 16 between
   * yields to the event loop (a views flush in the writer rewrites thousands of small
   * records: a thread-pool round trip per system call costs more than the write).
   */
  syncBelow?: number;
}

/** SHA-256 of a file's bytes (hardware-accelerated on current x86 and ARM). */
function hashBytes(chunks: readonly Uint8Array[]): string {
  const hash = createHash('sha256');
  for (const c of chunks) hash.update(c);
  return hash.digest('base64url');
}

export class OutputSink {
  readonly result: SinkResult = { written: [], unchanged: 0, removed: [], skippedJobs: 0, emittedJobs: 0, outputs: 0 };
  private readonly seen = new Set<string>();
  private readonly inflight = new Set<Promise<void>>();
  private failure: unknown = null;
  private sinceYield = 0;

  constructor(
    private readonly manifest: Manifest,
    private readonly options: SinkOptions = {},
  ) {}

  /**
   * Emit one job unless `key` matches the manifest. A null key means "always emit, and
   * forget the job's key" (incremental rebuilds, whose inputs are not fingerprinted).
   */
  async add(jobId: string, key: string | null, emit: () => Output | Output[]): Promise<void> {
    const previous = this.manifest.jobs.get(jobId);
    if (key !== null && previous?.key === key && previous.paths.every((p) => this.manifest.outputs.has(p))) {
      for (const path of previous.paths) this.seen.add(path);
      this.result.skippedJobs++;
      return;
    }
    this.result.emittedJobs++;
    const result = emit();
    const outputs = Array.isArray(result) ? result : [result];
    for (const output of outputs) await this.put(output);
    if (key === null) this.manifest.jobs.delete(jobId);
    else this.manifest.jobs.set(jobId, { key, paths: outputs.map((o) => o.path) });
  }

  private async put(output: Output): Promise<void> {
    if (this.seen.has(output.path)) throw new Error(`Cannot write \`${output.path}\` twice in one build: two outputs collide`);
    this.seen.add(output.path);
    const limit = this.options.hashLimit;
    // Encode once: the same bytes are hashed and written.
    const bytes = typeof output.body === 'string' ? [Buffer.from(output.body, 'utf8')] : output.body;
    const hash = limit !== undefined && chunksLength(bytes) > limit ? UNHASHED : hashBytes(bytes);
    if (hash !== UNHASHED && this.manifest.outputs.get(output.path) === hash) {
      this.result.unchanged++;
      return;
    }
    const small = this.options.syncBelow !== undefined && chunksLength(bytes) < this.options.syncBelow;
    if ((this.options.sync || small) && !this.options.durable) {
      // A synchronous write is far cheaper per file; yield now and then so worker
      // messages (rendered pages) are handled.
      writeFileAtomicSync(join(this.manifest.distDir, output.path), bytes, this.manifest.knownDirs);
      this.manifest.outputs.set(output.path, hash);
      this.result.written.push(output.path);
      if (++this.sinceYield >= 16) {
        this.sinceYield = 0;
        await new Promise((resolve) => setImmediate(resolve));
      }
      return;
    }
    while (this.inflight.size >= (this.options.concurrency ?? 64)) await Promise.race(this.inflight);
    if (this.failure) throw this.failure;
    const write = writeFileAtomic(join(this.manifest.distDir, output.path), bytes, { durable: this.options.durable ?? false, knownDirs: this.manifest.knownDirs })
      .then(() => {
        this.manifest.outputs.set(output.path, hash);
        this.result.written.push(output.path);
      })
      .catch((error: unknown) => {
        // Forget the hash: whatever is on disk now, the next build rewrites it.
        this.manifest.outputs.delete(output.path);
        this.failure ??= error;
      })
      .finally(() => this.inflight.delete(write));
    this.inflight.add(write);
  }

  /** Wait for every write; with `prune`, remove files no job produced. */
  async finish(prune: boolean): Promise<SinkResult> {
    await Promise.all(this.inflight);
    if (this.failure) throw this.failure;
    if (prune) {
      for (const path of [...this.manifest.outputs.keys()]) {
        if (this.seen.has(path)) continue;
        await rm(join(this.manifest.distDir, path), { force: true });
        this.manifest.outputs.delete(path);
        this.result.removed.push(path);
      }
      for (const [id, job] of this.manifest.jobs) if (!job.paths.every((p) => this.seen.has(p))) this.manifest.jobs.delete(id);
    }
    this.result.outputs = this.seen.size;
    return this.result;
  }
}
