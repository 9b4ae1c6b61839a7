/**
 * The manifest (`.cache/manifest.json`) remembers, for the files in `dist/`, the hash
 * of each file and, for each job of the plan, the key of the inputs it was emitted
 * from and the files it wrote. A build skips a job whose input key is unchanged and
 * writes a file only when its hash changed.
 *
 * Long-lived writers save it lazily; before their first write after a save they leave
 * a marker, and a manifest found next to a marker may be stale and is ignored (the next
 * build then emits everything once, which is always correct).
 */
import { rm, stat, access } from 'node:fs/promises';
import { join } from 'node:path';
import { isDiskFull, writeFileAtomic } from '../atomic-write.ts';
import { readJsonFile } from '../json-file.ts';

/** Entries of the manifest stringified between two yields when it is saved. */
const SAVE_RUN = 4096;

interface ManifestFile {
  version: 2;
  distDir: string;
  /** Inode of dist/: if dist/ was deleted and recreated the manifest is void. */
  distIno: number;
  /**
   * Birth time of dist/ (ms; absent in older files, 0 where the file system keeps none): a
   * dist/ deleted and made again often gets the freed inode back, so the inode alone took a
   * new, empty dist/ for the old one.
   */
  distBorn?: number;
  outputs: Record<string, string>;
  jobs: Record<string, JobRecord>;
}

export interface JobRecord {
  /** Input key (`model/job-keys.ts`); empty when a comment or views rebuild emitted the job without keying it. */
  key: string;
  paths: string[];
}

/** Why a manifest holds nothing from a previous build: every job is then emitted once. */
export type ManifestLoss = 'crash marker' | 'no manifest' | 'dist replaced';

/** Hash recorded for a file written without hashing (large, known to have changed). */
export const UNHASHED = '-';

/** Which dist/ a manifest describes: its inode and birth time (0 where none is kept). */
interface DistIdentity {
  ino: number;
  born: number;
}

async function identityOf(path: string): Promise<DistIdentity | null> {
  try {
    const { ino, birthtimeMs } = await stat(path);
    return { ino, born: birthtimeMs };
  } catch {
    return null;
  }
}

/** The same folder: same inode and, where both birth times are known, born at the same time. */
function sameDist(a: DistIdentity | null, b: DistIdentity | null): boolean {
  return a !== null && b !== null && a.ino === b.ino && (a.born === 0 || b.born === 0 || a.born === b.born);
}

/**
 * The one string of each path: JSON.parse makes a job's paths copies of the output
 * names, ~10 MB of the writer's heap at 10,000 posts (61,564 paths).
 */
function sameString(outputs: ReadonlyMap<string, string>): (path: string) => string {
  const names = new Map<string, string>();
  for (const name of outputs.keys()) names.set(name, name);
  return (path) => names.get(path) ?? path;
}

/** A claimed write of one path (`Manifest.claimWrite`). */
export interface WriteClaim {
  /** Settles when the write claimed before this one is done; undefined when none is under way. */
  previous: Promise<void> | undefined;
  /** This write is done: written, skipped or failed. */
  done: () => void;
}

export class Manifest {
  private dirtyOnDisk = false;
  /** Rebuilds that marked it dirty so far: a save knows whether one ran while it saved. */
  private changes = 0;
  private saveTimer: NodeJS.Timeout | null = null;
  /** Folders known to exist in dist/ (saves a mkdir per file). */
  readonly knownDirs = new Set<string>();
  /**
   * The last write claimed for each path whose writes are not all done (`OutputSink`):
   * two rebuilds of one build state may write one file side by side, and the content
   * made last must land last.
   */
  private readonly writing = new Map<string, Promise<void>>();
  /**
   * Why this manifest started empty (null: it holds the previous build). Read by the
   * plan as the reason to emit jobs it has no record of; cleared after a full build.
   */
  lost: ManifestLoss | null = null;
  /** The dist/ this manifest describes, once known (opened from a file, or after a full build). */
  private dist: DistIdentity | null = null;

  constructor(
    readonly path: string | null,
    readonly distDir: string,
    readonly outputs = new Map<string, string>(),
    readonly jobs = new Map<string, JobRecord>(),
  ) {}

  /**
   * Claim the next write of `path`: `previous` settles when the write claimed before it
   * is done (undefined when none is under way); call `done` when this one is (written,
   * skipped or failed).
   */
  claimWrite(path: string): WriteClaim {
    const previous = this.writing.get(path);
    let done!: () => void;
    const finished = new Promise<void>((resolve) => (done = resolve));
    this.writing.set(path, finished);
    void finished.then(() => {
      if (this.writing.get(path) === finished) this.writing.delete(path);
    });
    return { previous, done };
  }

  /** Paths with a claimed write not yet done (tests). */
  get writesUnderWay(): number {
    return this.writing.size;
  }

  static async open(cacheDir: string | null, distDir: string): Promise<Manifest> {
    const path = cacheDir ? join(cacheDir, 'manifest.json') : null;
    const empty = (lost: ManifestLoss) => Object.assign(new Manifest(path, distDir), { lost });
    if (!path) return empty('no manifest');
    // A long-lived writer crashed between writes and its save: the hashes may be stale.
    // The marker stays on disk until this manifest is saved whole (durably) by a run that
    // emitted everything; before, only a process that marked it dirty itself removed it,
    // so after one crash every `agora build` emitted the whole site and swept `dist/`.
    if (await access(`${path}.dirty`).then(() => true, () => false)) {
      const lost = empty('crash marker');
      lost.dirtyOnDisk = true;
      return lost;
    }
    const [file, dist] = await Promise.all([readJsonFile<ManifestFile>(path).catch(() => null), identityOf(distDir)]);
    if (!file || file.version !== 2) return empty('no manifest');
    if (file.distDir !== distDir || !sameDist(dist, { ino: file.distIno, born: file.distBorn ?? 0 })) return empty('dist replaced');
    const outputs = new Map(Object.entries(file.outputs));
    const named = sameString(outputs);
    const manifest = new Manifest(path, distDir, outputs, new Map(Object.entries(file.jobs).map(([id, job]) => [id, { key: job.key, paths: job.paths.map(named) }])));
    manifest.dist = dist;
    return manifest;
  }

  /**
   * Before a full run of a long-lived process (`agora dev`): if dist/ was deleted or replaced
   * since this manifest last matched it (`rm -rf dist` beside the server), forget every output,
   * so the run writes the whole site again instead of calling the missing files unchanged.
   */
  async checkDist(): Promise<void> {
    if (this.dist === null) return;
    if (sameDist(await identityOf(this.distDir), this.dist)) return;
    this.outputs.clear();
    this.jobs.clear();
    this.knownDirs.clear();
    this.lost = 'dist replaced';
    this.dist = null;
  }

  /** After a full run: dist/ as it is now is the one this manifest describes. */
  async matchDist(): Promise<void> {
    this.dist = await identityOf(this.distDir);
  }

  /**
   * The file (a `ManifestFile` as JSON) in chunks of `SAVE_RUN` entries, yielding between
   * them: at 10,000 posts it is ~19 MB, and one object of every entry stringified at once
   * was ~50 MB at the end of a cold build and held a writer's event loop while it saved.
   */
  private async fileChunks(dist: DistIdentity): Promise<Uint8Array[]> {
    const chunks = [Buffer.from(`{"version":2,"distDir":${JSON.stringify(this.distDir)},"distIno":${dist.ino},"distBorn":${dist.born},"outputs":{`)];
    const members = async (entries: Iterable<[string, unknown]>) => {
      let run: string[] = [];
      let first = true;
      const flush = async () => {
        chunks.push(Buffer.from(`${first ? '' : ','}${run.join(',')}`));
        first = false;
        run = [];
        await new Promise((resolve) => setImmediate(resolve));
      };
      for (const [key, value] of entries) {
        run.push(`${JSON.stringify(key)}:${JSON.stringify(value)}`);
        if (run.length >= SAVE_RUN) await flush();
      }
      if (run.length > 0) await flush();
    };
    await members(this.outputs);
    chunks.push(Buffer.from('},"jobs":{'));
    await members(this.jobs);
    chunks.push(Buffer.from('}}'));
    return chunks;
  }

  private get markerPath(): string | null {
    return this.path ? `${this.path}.dirty` : null;
  }

  async markDirty(): Promise<void> {
    this.changes++;
    if (this.dirtyOnDisk || !this.markerPath) return;
    try {
      await writeFileAtomic(this.markerPath, String(process.pid));
    } catch (error) {
      if (!isDiskFull(error) || !this.path) throw error;
      // No room for the marker: remove the manifest instead (no bytes needed), so a
      // build after a crash trusts no stale hash and emits everything once.
      await rm(this.path, { force: true });
    }
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
    // A rebuild's changes are marked dirty on disk and saved only here (saving a big
    // manifest blocks the event loop): a writer that stops cleanly leaves no marker.
    if (!this.saveTimer && !this.dirtyOnDisk) return;
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = null;
    await this.save();
  }

  /**
   * Write the file; the crash marker goes only if no rebuild marked the manifest dirty
   * while it was saved (the file is made in runs between yields, and a rebuild can run
   * in between: a file that may lack its entries must not be trusted after a crash).
   * A save that saw a rebuild start leaves the writing to a later save: the one an edit
   * in `agora dev` schedules, or `flush` at close (the writer's rebuilds schedule none).
   */
  async save(): Promise<void> {
    if (!this.path) return;
    const at = this.changes;
    const chunks = await this.fileChunks((await identityOf(this.distDir)) ?? { ino: -1, born: 0 });
    if (this.changes !== at) return;
    await writeFileAtomic(this.path, chunks, { durable: this.dirtyOnDisk });
    if (this.dirtyOnDisk && this.markerPath && this.changes === at) {
      await rm(this.markerPath, { force: true });
      this.dirtyOnDisk = false;
    }
  }
}
