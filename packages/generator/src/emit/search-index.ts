/**
 * The static search index for people: Pagefind reads the built post pages (only the
 * `data-pagefind-body` article of each) and writes `dist/pagefind/`, which the search
 * page queries in the browser on any static host. It is rebuilt only by content
 * builds, never after a comment or a view count, so its cost stays off the writer's
 * hot path.
 *
 * Pagefind runs as its own process and costs about as much CPU as rendering the
 * posts. When a build emits every page, the pages are streamed to it as they are
 * emitted (`SearchFeed`), so it indexes while this process renders; otherwise it
 * reads the pages from `dist/` afterwards (`writeSearchIndex`). Both see the same
 * files (every `index.html`, named by its path), so both give the same index.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';

export interface SearchIndexResult {
  /** HTML files Pagefind read (only post pages carry `data-pagefind-body`, so only they are indexed). */
  pages: number;
  /** `streamed`: handed over while they were emitted; `dist`: read from `dist/` after the build. */
  source: 'streamed' | 'dist';
  ms: number;
}

type Pagefind = typeof import('pagefind');
type PagefindIndex = NonNullable<Awaited<ReturnType<Pagefind['createIndex']>>['index']>;

/** The pages Pagefind reads: what its directory walk would find. */
export function isSearchPage(path: string): boolean {
  return path === 'index.html' || path.endsWith('/index.html');
}

// Loaded on demand: the writer's comment path never needs it.
async function openIndex(): Promise<{ pagefind: Pagefind; index: PagefindIndex }> {
  const pagefind = await import('pagefind');
  const { index, errors } = await pagefind.createIndex({});
  if (!index) {
    await pagefind.close();
    throw new Error(`Cannot \`createIndex\` with Pagefind: ${errors.join('; ')}`);
  }
  return { pagefind, index };
}

async function writeIndex(index: PagefindIndex, distDir: string): Promise<void> {
  const output = join(distDir, 'pagefind');
  await rm(output, { recursive: true, force: true });
  const written = await index.writeFiles({ outputPath: output });
  if (written.errors.length > 0) throw new Error(`Pagefind could not write \`${output}\`: ${written.errors.join('; ')}`);
}

/** Index `distDir` into `distDir/pagefind/`, reading the pages from disk. Throws with Pagefind's own errors. */
export async function writeSearchIndex(distDir: string): Promise<SearchIndexResult> {
  const started = performance.now();
  const { pagefind, index } = await openIndex();
  try {
    const added = await index.addDirectory({ path: distDir, glob: '**/index.html' });
    if (added.errors.length > 0) throw new Error(`Pagefind could not index \`${distDir}\`: ${added.errors.join('; ')}`);
    await writeIndex(index, distDir);
    return { pages: added.page_count, source: 'dist', ms: Math.round(performance.now() - started) };
  } finally {
    await pagefind.close();
  }
}

/** Pages handed to Pagefind and not yet answered, at most: each waits in this process's memory. */
const IN_FLIGHT = 32;

/**
 * Pages handed to Pagefind while the build emits them. `add` waits only while
 * `IN_FLIGHT` pages are unanswered (a slow Pagefind must not make this process hold
 * every page) and never throws: the first failure is kept and thrown by `write`, and
 * pages after it are dropped (the index is abandoned, the site is whole without it).
 */
export class SearchFeed {
  private readonly started = performance.now();
  private readonly opened = openIndex();
  private readonly pending = new Set<Promise<unknown>>();
  private failure: unknown = null;
  private pages = 0;

  constructor() {
    this.opened.catch((error: unknown) => (this.failure ??= error));
  }

  /** One page, by its `dist/`-relative path (Pagefind makes its URL from the path). */
  async add(path: string, html: string): Promise<void> {
    while (this.pending.size >= IN_FLIGHT) await Promise.race(this.pending);
    if (this.failure) return;
    this.pages++;
    const added = this.opened
      .then(({ index }) => index.addHTMLFile({ sourcePath: path, content: html }))
      .then((result) => {
        if (result.errors.length > 0) throw new Error(`Pagefind could not index \`${path}\`: ${result.errors.join('; ')}`);
      })
      .catch((error: unknown) => (this.failure ??= error))
      .finally(() => this.pending.delete(added));
    this.pending.add(added);
  }

  /** Wait for every page, then write `distDir/pagefind/`. Throws the first failure. */
  async write(distDir: string): Promise<SearchIndexResult> {
    try {
      await Promise.all([...this.pending]);
      if (this.failure) throw this.failure;
      await writeIndex((await this.opened).index, distDir);
      return { pages: this.pages, source: 'streamed', ms: Math.round(performance.now() - this.started) };
    } finally {
      await this.close();
    }
  }

  /** Stop Pagefind without writing (a build that failed). */
  async close(): Promise<void> {
    const opened = await this.opened.catch(() => null);
    await opened?.pagefind.close();
  }
}
