/**
 * View counts of the embedded store, durable per batch: a PUT is answered only once its
 * increment is on disk.
 *
 * - `data/views.journal`: one JSON line per batch, `{"e":E,"add":{slug:n,…}}`, appended
 *   through `O_DSYNC` (on disk when the write returns) before `add` resolves: a few
 *   hundred bytes, where rewriting the whole count file would be ~0.5 MB at 10,000 posts.
 * - `data/views.json`: `{"views": {slug: n}, "journal": E}`, the counts with every
 *   journal line of an epoch before E folded in. When the journal passes `FOLD_BYTES`
 *   (and at close) it is folded: `views.json` is written with the next epoch (atomic,
 *   durable), then the journal is emptied. A crash between the two leaves lines of an
 *   older epoch, which reading skips: never counted twice.
 *
 * A line cut short by a crash (or a full disk) was never acknowledged: reading drops
 * it, and the next append first cuts the file back to its last whole line. A broken
 * line before the last is damage, not a crash: it stops the writer with the file and
 * the fix, as the other data files do. Only the writer writes these files (it holds
 * the store exclusively).
 */
import { constants } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { readTextIfExists, syncDir, writeAll } from '@agora/generator/files';
import { StoreError, type ViewStore } from '../types.ts';
import { isPlainObject, readDataFile, toStoreError, writeDataFile } from './data-file.ts';

/**
 * Journal bytes that make the next batch fold it into `views.json` (~3,000 batches of a
 * few slugs; a fold writes the whole count file, ~0.5 MB at 10,000 posts). Small, so the
 * journal cannot be what fills a disk: on a 512 KB folder a 1 MB bound let it take the
 * last byte, and no fold could then find room for `views.json` (an outside test).
 */
const FOLD_BYTES = 256 * 1024;

interface ViewsFile {
  views: Record<string, number>;
  /** Journal lines of this epoch and later are not in `views` (absent in files of older writers: 0). */
  journal?: number;
}

const FIX = 'Restore it from a backup, or move it and `views.journal` away to start every count from 0';

const isCount = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;

const check = (value: unknown): string | null => {
  if (!isPlainObject(value) || !isPlainObject(value.views)) return 'expected {"views": {"<slug>": <count>, …}}';
  for (const [slug, n] of Object.entries(value.views)) if (!isCount(n)) return `the count of \`${slug}\` is not a whole number ≥ 0`;
  if (value.journal !== undefined && !isCount(value.journal)) return '`journal` is not a whole number ≥ 0';
  return null;
};

/** One journal line's increments, or null when the line is not one. */
function parseLine(line: string): { e: number; add: Record<string, number> } | null {
  try {
    const entry = JSON.parse(line) as unknown;
    if (!isPlainObject(entry) || !isCount(entry.e) || !isPlainObject(entry.add)) return null;
    for (const n of Object.values(entry.add)) if (!isCount(n)) return null;
    return entry as { e: number; add: Record<string, number> };
  } catch {
    return null;
  }
}

export class EmbeddedViews implements ViewStore {
  private counts: Map<string, number> | null = null;
  private tail: Promise<unknown> = Promise.resolve();
  /** The epoch new journal lines carry (`views.json`'s `journal`). */
  private epoch = 0;
  /** Bytes of whole, acknowledged lines in the journal: the file is cut back to this before an append when it may hold more. */
  private journalBytes = 0;
  private journalDirty = false;
  private handle: FileHandle | null = null;
  readonly journalPath: string;

  constructor(
    readonly path: string,
    /** Journal bytes after which a batch folds it (tests pass less). */
    private readonly foldBytes = FOLD_BYTES,
  ) {
    this.journalPath = path.replace(/\.json$/, '.journal');
  }

  async load(): Promise<Map<string, number>> {
    return new Map(await this.loaded());
  }

  /** The counts, read once (not copied: a batch changes a few of them). */
  private async loaded(): Promise<Map<string, number>> {
    if (!this.counts) {
      const file = await readDataFile<ViewsFile>(this.path, check, FIX);
      const counts = new Map(Object.entries(file?.views ?? {}));
      this.epoch = file?.journal ?? 0;
      const text = (await readTextIfExists(this.journalPath)) ?? '';
      const lines = text.split('\n');
      // The text after the last newline is a line a crash cut short (or nothing).
      const torn = lines.pop() ?? '';
      let bytes = 0;
      lines.forEach((line, i) => {
        const entry = parseLine(line);
        if (!entry) {
          // Only the last line can be cut short by a crash: it was never acknowledged.
          if (i === lines.length - 1 && torn === '') {
            this.journalDirty = true;
            return;
          }
          throw new StoreError('corrupt', `Cannot read \`${this.journalPath}\`: line ${i + 1} is not a journal entry ({"e": <epoch>, "add": {"<slug>": <count>}}). Restore it from a backup, or move it away: the counts in \`views.json\` stay, the views counted since they were last folded into it are lost`);
        }
        bytes += Buffer.byteLength(line) + 1;
        if (entry.e < this.epoch) return; // folded into views.json already
        for (const [slug, n] of Object.entries(entry.add)) counts.set(slug, (counts.get(slug) ?? 0) + n);
      });
      if (torn !== '') this.journalDirty = true;
      this.journalBytes = bytes;
      this.counts = counts;
    }
    return this.counts;
  }

  add(increments: ReadonlyMap<string, number>): Promise<Map<string, number>> {
    const run = this.tail.then(async () => {
      const counts = await this.loaded();
      const totals = new Map<string, number>();
      const add: Record<string, number> = {};
      for (const [slug, n] of increments) {
        if (n <= 0) continue;
        totals.set(slug, (counts.get(slug) ?? 0) + n);
        add[slug] = n;
      }
      if (totals.size === 0) return totals;
      await this.append(`${JSON.stringify({ e: this.epoch, add })}\n`);
      // Only once the line is on disk.
      for (const [slug, total] of totals) counts.set(slug, total);
      if (this.journalBytes >= this.foldBytes) await this.fold().catch(() => {}); // the journal holds them: folding waits for the next batch
      return totals;
    });
    this.tail = run.catch(() => {});
    return run;
  }

  /**
   * Fold the journal into `views.json` and close it (at the store's close). Only a
   * process that appended folds: a CLI command that read the counts beside a running
   * writer must never rewrite them.
   */
  close(): Promise<void> {
    const run = this.tail.then(async () => {
      if (this.handle && this.counts && this.journalBytes > 0) await this.fold().catch(() => {});
      await this.handle?.close().catch(() => {});
      this.handle = null;
    });
    this.tail = run.catch(() => {});
    return run;
  }

  /** Append one line durably, or leave the journal as it was and throw. */
  private async append(line: string): Promise<void> {
    try {
      const handle = await this.journal();
      if (this.journalDirty) await handle.truncate(this.journalBytes);
      // Until the whole line is written: a write cut short leaves part of one.
      this.journalDirty = true;
      // O_DSYNC: the write returns once the line is on disk (one thread-pool call, not a write and an fdatasync).
      await writeAll(handle, [Buffer.from(line)]);
      this.journalDirty = false;
      this.journalBytes += Buffer.byteLength(line);
    } catch (error) {
      throw toStoreError(error, this.journalPath);
    }
  }

  private async journal(): Promise<FileHandle> {
    if (this.handle) return this.handle;
    const existed = await stat(this.journalPath).then(() => true, () => false);
    const handle = await open(this.journalPath, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_DSYNC, 0o644);
    // A new file's name is made durable before any line in it is acknowledged.
    if (!existed) await syncDir(dirname(this.journalPath)).catch(async (error: unknown) => {
      await handle.close();
      throw error;
    });
    this.handle = handle;
    return handle;
  }

  private async fold(): Promise<void> {
    const epoch = this.epoch + 1;
    await writeDataFile(this.path, { views: Object.fromEntries(this.counts ?? []), journal: epoch });
    this.epoch = epoch;
    // Lines of the older epoch left by a crash here are skipped when read.
    const handle = await this.journal();
    await handle.truncate(0);
    this.journalBytes = 0;
    this.journalDirty = false;
  }
}
