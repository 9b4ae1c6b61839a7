/**
 * The static search index for people: Pagefind reads the built post pages (only the
 * `data-pagefind-body` article of each) and writes `dist/pagefind/`, which the search
 * page queries in the browser on any static host. It is rebuilt only by content
 * builds, never after a comment or a view count, so its cost stays off the writer's
 * hot path.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';

export interface SearchIndexResult {
  /** HTML files Pagefind read (only post pages carry `data-pagefind-body`, so only they are indexed). */
  pages: number;
  ms: number;
}

/** Index `distDir` into `distDir/pagefind/`. Throws with Pagefind's own errors. */
export async function writeSearchIndex(distDir: string): Promise<SearchIndexResult> {
  const started = performance.now();
  // Loaded on demand: the writer's comment path never needs it.
  const pagefind = await import('pagefind');
  try {
    const { index, errors } = await pagefind.createIndex({});
    if (!index) throw new Error(`Cannot \`createIndex\` with Pagefind: ${errors.join('; ')}`);
    const added = await index.addDirectory({ path: distDir, glob: '**/index.html' });
    if (added.errors.length > 0) throw new Error(`Pagefind could not index \`${distDir}\`: ${added.errors.join('; ')}`);
    const output = join(distDir, 'pagefind');
    await rm(output, { recursive: true, force: true });
    const written = await index.writeFiles({ outputPath: output });
    if (written.errors.length > 0) throw new Error(`Pagefind could not write \`${output}\`: ${written.errors.join('; ')}`);
    return { pages: added.page_count, ms: Math.round(performance.now() - started) };
  } finally {
    await pagefind.close();
  }
}
