/**
 * The output sink: it only writes what it is given. Jobs the plan (`build/plan.ts`)
 * decided to emit come in one at a time; each file is written (atomically) unless its
 * bytes are exactly what the manifest records — a write-level check on bytes, not a
 * plan decision — with a bounded number of writes in flight, so the whole site is
 * never held in memory at once. It records each job's key and files in the manifest,
 * reports the files a re-emitted job no longer produces, and removes the files the
 * settled plan lists.
 */
import { rm, rmdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { chunksLength, type Output } from './output.ts';
import { writeFileAtomic, writeFileAtomicSync } from '../atomic-write.ts';
import { createHash } from 'node:crypto';
import { Manifest, UNHASHED, type WriteClaim } from './manifest.ts';
import type { WriteThread } from './write-thread.ts';
import { errorFromWire } from '../thread-calls.ts';

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
   * Write bodies smaller than this many bytes synchronously, in runs of at most
   * `SYNC_RUN_MS` between yields to the event loop (a views flush in the writer rewrites
   * thousands of small records: a thread-pool round trip per system call costs more
   * than the write).
   */
  syncBelow?: number;
  /**
   * Hand the files `syncBelow` selects to this thread in batches instead (a long-lived
   * process: its main thread answers requests meanwhile).
   */
  writeThread?: WriteThread;
}

/** A small file waiting for the write thread. */
interface Queued {
  path: string;
  bytes: Uint8Array;
  hash: string;
  claim: WriteClaim;
}

/** A batch for the write thread is sent once it holds this many files or bytes (or at the next turn of the event loop). */
const BATCH_FILES = 64;
const BATCH_BYTES = 1 << 20;

/**
 * Longest run of synchronous writes between yields, in ms. Counted in time, not files:
 * on a disk where a rename takes 3 ms, 16 files held the writer's event loop ~50 ms.
 * 1, not 4: a view PUT is answered after its batch's write to the store, a turn of the
 * event loop, and a views flush's thousands of record renames held each turn 4 ms: view
 * PUTs at 10,000 posts on disk went from 0.74–0.75× bare Express to 0.82–0.95× with 2 ms
 * and 0.94–1.21× with 1 ms (`bench/views-pairs.ts`), the comment rate within its noise
 * (docs/performance.md, nineteenth session).
 */
const SYNC_RUN_MS = 1;

/** Bytes of a big rebuild output written back to disk at a time (see `syncEvery`). */
const BIG_OUTPUT_SYNC_STEP = 1 << 20;

/** SHA-256 of a file's bytes (hardware-accelerated on current x86 and ARM). */
function hashBytes(chunks: readonly Uint8Array[]): string {
  const hash = createHash('sha256');
  for (const c of chunks) hash.update(c);
  return hash.digest('base64url');
}

export class OutputSink {
  readonly result: SinkResult = { written: [], unchanged: 0, removed: [], skippedJobs: 0, emittedJobs: 0, outputs: 0 };
  /** Files of this build: written, unchanged, or kept as they are (skipped jobs). */
  private readonly seen = new Set<string>();
  /** Files the previous emit of a job wrote and this one did not. */
  readonly dropped: string[] = [];
  private readonly inflight = new Set<Promise<void>>();
  private failure: unknown = null;
  /** When the current run of synchronous writes began (0: none under way). */
  private runStarted = 0;
  /** Small files for the write thread, not sent yet. */
  private queued: Queued[] = [];
  private queuedBytes = 0;
  private sendScheduled = false;

  constructor(
    private readonly manifest: Manifest,
    private readonly options: SinkOptions = {},
  ) {}

  /** Files that stay as they are (the plan's skipped jobs): no output may collide with them. */
  keep(paths: readonly string[]): void {
    for (const path of paths) this.seen.add(path);
    this.result.skippedJobs++;
  }

  /**
   * Emit one job and record it: `key` is its input key, or null for rebuilds whose
   * inputs are not keyed (recorded as the empty key, so the next full build emits it).
   */
  async emit(jobId: string, key: string | null, emit: () => Output | Output[]): Promise<void> {
    this.result.emittedJobs++;
    const result = emit();
    const outputs = Array.isArray(result) ? result : [result];
    // Claimed now, as the content is made: another rebuild's later content for one of
    // these paths waits for this write, and this one for an earlier rebuild's.
    const claims = outputs.map((o) => this.manifest.claimWrite(o.path));
    let next = 0;
    try {
      // Each put releases its claim once its write is done (or skipped).
      for (; next < outputs.length; next++) await this.put(outputs[next]!, claims[next]!);
    } finally {
      // A collision or a failure before them: release the rest, so no later write waits for them.
      for (const claim of claims.slice(next)) claim.done();
    }
    const paths = outputs.map((o) => o.path);
    const previous = this.manifest.jobs.get(jobId);
    if (previous) for (const p of previous.paths) if (!paths.includes(p)) this.dropped.push(p);
    this.manifest.jobs.set(jobId, { key: key ?? '', paths });
  }

  /** Whether a file's bytes are what the manifest records (then it is not written again). */
  private bytesUnchanged(path: string, hash: string): boolean {
    return hash !== UNHASHED && this.manifest.outputs.get(path) === hash;
  }

  private async put(output: Output, claim: WriteClaim): Promise<void> {
    if (this.seen.has(output.path)) throw new Error(`Cannot write \`${output.path}\` twice in one build: two outputs collide`);
    this.seen.add(output.path);
    // Content made earlier for this path by another rebuild is written first (the
    // manifest's hash below is then that write's).
    if (claim.previous) await claim.previous;
    const limit = this.options.hashLimit;
    // Encode once: the same bytes are hashed and written.
    const bytes = typeof output.body === 'string' ? [Buffer.from(output.body, 'utf8')] : output.body;
    const hash = limit !== undefined && chunksLength(bytes) > limit ? UNHASHED : hashBytes(bytes);
    if (this.bytesUnchanged(output.path, hash)) {
      this.result.unchanged++;
      claim.done();
      return;
    }
    const small = this.options.syncBelow !== undefined && chunksLength(bytes) < this.options.syncBelow;
    if (small && this.options.writeThread && !this.options.durable) return this.queue(output.path, bytes, hash, claim);
    if ((this.options.sync || small) && !this.options.durable) {
      // A synchronous write is far cheaper per file; yield now and then so worker
      // messages (rendered pages) and requests are handled.
      this.runStarted ||= performance.now();
      writeFileAtomicSync(join(this.manifest.distDir, output.path), bytes, this.manifest.knownDirs);
      this.written(output.path, hash);
      claim.done();
      await this.endOfRun();
      return;
    }
    await this.roomInFlight();
    // A big output of a rebuild (`/api/posts` is 28 MB at 10,000 posts) goes to disk in
    // steps of 1 MB before its rename (`syncEvery`), so the store's next fsync of a new
    // comment waits for one step, not for the whole file.
    const syncEvery = hash === UNHASHED ? BIG_OUTPUT_SYNC_STEP : undefined;
    const write = writeFileAtomic(join(this.manifest.distDir, output.path), bytes, { durable: this.options.durable ?? false, knownDirs: this.manifest.knownDirs, syncEvery })
      .then(
        () => this.written(output.path, hash),
        (error: unknown) => this.notWritten(output.path, error),
      )
      .finally(() => {
        this.inflight.delete(write);
        claim.done();
      });
    this.inflight.add(write);
  }

  /** A file is on disk: record its hash and count it. */
  private written(path: string, hash: string): void {
    this.manifest.outputs.set(path, hash);
    this.result.written.push(path);
  }

  /** A file could not be written: forget its hash (whatever is on disk now, the next build rewrites it) and fail the build. */
  private notWritten(path: string, error: unknown): void {
    this.manifest.outputs.delete(path);
    this.failure ??= error;
  }

  /** Wait until fewer writes than the concurrency are in flight; then fail at once if one failed. */
  private async roomInFlight(): Promise<void> {
    while (this.inflight.size >= (this.options.concurrency ?? 64)) await Promise.race(this.inflight);
    if (this.failure) throw this.failure;
  }

  /**
   * After a file of a run written (or queued) on this thread: once the run has lasted
   * `SYNC_RUN_MS`, do `before` and give the event loop a turn (worker messages, requests).
   */
  private async endOfRun(before?: () => void): Promise<void> {
    if (performance.now() - this.runStarted < SYNC_RUN_MS) return;
    this.runStarted = 0;
    before?.();
    await new Promise((resolve) => setImmediate(resolve));
  }

  /**
   * Queue a small file for the write thread. Its claim is released once the thread has
   * written it, so a later rebuild's write of the same path still lands after it.
   */
  private async queue(path: string, chunks: readonly Uint8Array[], hash: string, claim: WriteClaim): Promise<void> {
    // As many batches in flight as writes through the pool: a flush's hundreds of files
    // never all wait in the thread's queue (nor in memory) at once. (Queued files are sent
    // by their own setImmediate, whatever this waits for; the claim of a file not queued
    // is released by `emit`.)
    await this.roomInFlight();
    // One buffer of its own per file, handed over to the thread (a chunk may be a view of a bigger buffer that stays here).
    const bytes = new Uint8Array(chunksLength(chunks));
    let at = 0;
    for (const c of chunks) {
      bytes.set(c, at);
      at += c.length;
    }
    this.queued.push({ path, bytes, hash, claim });
    this.queuedBytes += bytes.length;
    if (this.queued.length >= BATCH_FILES || this.queuedBytes >= BATCH_BYTES) this.send();
    else if (!this.sendScheduled) {
      this.sendScheduled = true;
      setImmediate(() => {
        this.sendScheduled = false;
        this.send();
      });
    }
    // A run of many jobs (a views flush: thousands of records) still gives requests a turn now and then.
    this.runStarted ||= performance.now();
    await this.endOfRun(() => this.send());
  }

  /** Send the queued files to the write thread as one batch. */
  private send(): void {
    const batch = this.queued;
    if (batch.length === 0) return;
    this.queued = [];
    this.queuedBytes = 0;
    const distDir = this.manifest.distDir;
    const write = this.options
      .writeThread!.write(batch.map((f) => ({ path: join(distDir, f.path), bytes: f.bytes })))
      .then(
        (failures) => batch.forEach((f, i) => (failures[i] ? this.notWritten(f.path, errorFromWire(failures[i])) : this.written(f.path, f.hash))),
        (error: unknown) => batch.forEach((f) => this.notWritten(f.path, error)),
      )
      .finally(() => {
        this.inflight.delete(write);
        for (const f of batch) f.claim.done();
      });
    this.inflight.add(write);
  }

  /** The files of this build: emitted or kept. */
  get produced(): ReadonlySet<string> {
    return this.seen;
  }

  /** Wait for every write. */
  async finish(): Promise<void> {
    this.send();
    await Promise.all(this.inflight);
    if (this.failure) throw this.failure;
    this.result.outputs = this.seen.size;
  }

  /** Remove these files, then the folders they leave empty, and forget the records of jobs that are gone. */
  async remove(paths: readonly { path: string }[], goneJobs: readonly string[] = []): Promise<void> {
    const folders = new Set<string>();
    for (const { path } of paths) {
      await rm(join(this.manifest.distDir, path), { force: true });
      this.manifest.outputs.delete(path);
      this.result.removed.push(path);
      for (let dir = dirname(path); dir !== '.' && dir !== '/'; dir = dirname(dir)) folders.add(dir);
    }
    // Deepest first; a folder that still holds anything stays (rmdir refuses it). A write
    // into one removed meanwhile makes it again (`atomic-write.ts`).
    for (const dir of [...folders].sort((a, b) => b.split('/').length - a.split('/').length)) {
      const abs = join(this.manifest.distDir, dir);
      if (await rmdir(abs).then(() => true, () => false)) this.manifest.knownDirs.delete(abs);
    }
    for (const id of goneJobs) this.manifest.jobs.delete(id);
  }
}
