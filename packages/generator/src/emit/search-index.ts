/**
 * The static search index for people: Pagefind reads the built post pages (only the
 * `data-pagefind-body` article of each) and writes `dist/pagefind/`, which the search
 * page queries in the browser on any static host. It is rebuilt only by content
 * builds, never after a comment or a view count, so its cost stays off the writer's
 * hot path.
 *
 * Pagefind reads the pages from `dist/` after the build, with its own threads. Handing
 * each page over as it is emitted (`addHTMLFile`) was tried and dropped: Pagefind's
 * service indexes such pages one at a time, 2.4× slower than its directory walk, and
 * held the build back (docs/performance.md, issue 13, third session).
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { CATEGORIES } from '../types.ts';

export interface SearchIndexResult {
  /** Post pages Pagefind read and indexed. */
  pages: number;
  ms: number;
}

/**
 * The pages Pagefind reads: post pages only (`<category>/<slug>/index.html`), the only
 * ones that carry `data-pagefind-body`. Pagefind would parse and drop every other page;
 * not reading them gives a byte-identical index, and its walk of a 4,000-post site takes
 * 3.4 s instead of 4.3 s.
 */
export const SEARCH_PAGES_GLOB = `{${CATEGORIES.join(',')}}/*/index.html`;

/** Index `distDir`'s post pages into `distDir/pagefind/`. Throws with Pagefind's own errors. */
export async function writeSearchIndex(distDir: string): Promise<SearchIndexResult> {
  const started = performance.now();
  // Loaded on demand: the writer's comment path never needs it.
  const pagefind = await import('pagefind');
  try {
    const { index, errors } = await pagefind.createIndex({});
    if (!index) throw new Error(`Cannot \`createIndex\` with Pagefind: ${errors.join('; ')}`);
    const added = await index.addDirectory({ path: distDir, glob: SEARCH_PAGES_GLOB });
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
