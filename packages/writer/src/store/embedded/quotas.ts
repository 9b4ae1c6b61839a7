/**
 * Daily quota counters of the embedded store: `data/quotas.json` (`{"day", "counts"}`).
 * Counted in memory (the writer holds the store exclusively) and written coalesced
 * (at most one write in flight, one queued). A file that is not what it should be
 * stops the start: a silently reset quota would let callers spend a day's budget twice.
 */
import type { QuotaBucket, QuotaCount, QuotaStore } from '../types.ts';
import { isPlainObject, readDataFile, writeDataFile } from './data-file.ts';

interface QuotasFile {
  day: string;
  counts: Record<string, number>;
}

const check = (value: unknown): string | null => {
  if (!isPlainObject(value) || typeof value.day !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value.day) || !isPlainObject(value.counts)) {
    return 'expected {"day": "YYYY-MM-DD", "counts": {"<bucket>": <calls>, …}}';
  }
  for (const [key, n] of Object.entries(value.counts)) if (!Number.isSafeInteger(n) || (n as number) < 0) return `the count of \`${key}\` is not a whole number ≥ 0`;
  return null;
};

export class EmbeddedQuotas implements QuotaStore {
  private state: QuotasFile | null = null;
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> | undefined;
  private dirty = false;

  constructor(
    readonly path: string,
    private readonly flushDelayMs = 200,
  ) {}

  /** Read the file (at start, so a broken one stops the writer before it serves). */
  async load(): Promise<void> {
    if (this.state) return;
    const file = await readDataFile<QuotasFile>(this.path, check, 'Restore it from a backup, or delete it to reset today\'s counters on purpose');
    this.state = file ?? { day: '', counts: {} };
  }

  private async today(day: string): Promise<Record<string, number>> {
    await this.load();
    if (this.state!.day !== day) {
      this.state = { day, counts: {} };
      this.dirty = true;
    }
    return this.state!.counts;
  }

  async take(day: string, buckets: readonly QuotaBucket[]): Promise<QuotaBucket | null> {
    const counts = await this.today(day);
    const spent = buckets.find((b) => (counts[b.key] ?? 0) >= b.limit);
    if (spent) return spent;
    for (const b of buckets) counts[b.key] = (counts[b.key] ?? 0) + 1;
    this.schedule();
    return null;
  }

  async used(day: string, key: string): Promise<number> {
    return (await this.today(day))[key] ?? 0;
  }

  async counts(): Promise<QuotaCount[]> {
    await this.load();
    const { day, counts } = this.state!;
    return Object.entries(counts).map(([key, used]) => ({ day, key, used }));
  }

  /** The file keeps one day: a count of an older day than the stored one is dropped, a newer day replaces it. */
  async raise(day: string, key: string, used: number): Promise<void> {
    await this.load();
    if (this.state!.day > day) return;
    const counts = await this.today(day);
    if ((counts[key] ?? 0) >= used) return;
    counts[key] = used;
    this.dirty = true;
    await this.flush();
  }

  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    while (this.writing) await this.writing;
    if (!this.dirty || !this.state) return;
    this.writing = (async () => {
      while (this.dirty) {
        this.dirty = false;
        try {
          await writeDataFile(this.path, this.state, true);
        } catch (error) {
          this.dirty = true;
          throw error;
        }
      }
    })().finally(() => (this.writing = undefined));
    await this.writing;
  }

  private schedule(): void {
    this.dirty = true;
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      // A failed write (full disk) stays dirty and is tried again a second later.
      this.flush().catch(() => setTimeout(() => this.schedule(), 1000).unref());
    }, this.flushDelayMs);
    this.timer.unref();
  }
}
