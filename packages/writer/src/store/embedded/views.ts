/**
 * View counts of the embedded store: `data/views.json` (`{"views": {slug: n}}`).
 * Only the writer writes it (it holds the store exclusively), at most once per
 * coalesced flush; the file is small (one number per post).
 */
import type { ViewStore } from '../types.ts';
import { isPlainObject, readDataFile, writeDataFile } from './data-file.ts';

interface ViewsFile {
  views: Record<string, number>;
}

const check = (value: unknown): string | null => {
  if (!isPlainObject(value) || !isPlainObject(value.views)) return 'expected {"views": {"<slug>": <count>, …}}';
  for (const [slug, n] of Object.entries(value.views)) if (!Number.isSafeInteger(n) || (n as number) < 0) return `the count of \`${slug}\` is not a whole number ≥ 0`;
  return null;
};

export class EmbeddedViews implements ViewStore {
  private counts: Map<string, number> | null = null;
  private tail: Promise<unknown> = Promise.resolve();

  constructor(readonly path: string) {}

  async load(): Promise<Map<string, number>> {
    if (!this.counts) {
      const file = await readDataFile<ViewsFile>(this.path, check, 'Restore it from a backup, or move it away to start every count from 0');
      this.counts = new Map(Object.entries(file?.views ?? {}));
    }
    return new Map(this.counts);
  }

  add(increments: ReadonlyMap<string, number>): Promise<Map<string, number>> {
    const run = this.tail.then(async () => {
      await this.load();
      const next = new Map(this.counts);
      const totals = new Map<string, number>();
      for (const [slug, n] of increments) {
        const total = (next.get(slug) ?? 0) + n;
        next.set(slug, total);
        totals.set(slug, total);
      }
      await writeDataFile(this.path, { views: Object.fromEntries(next) });
      this.counts = next;
      return totals;
    });
    this.tail = run.catch(() => {});
    return run;
  }
}
