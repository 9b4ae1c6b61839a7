/**
 * The static search index for people: Pagefind reads the built post pages (only the
 * `data-pagefind-body` article of each) and writes an index the search page queries in
 * the browser on any static host. It is rebuilt only by content builds, never after a
 * comment or a view count, so its cost stays off the writer's hot path.
 *
 * **Split into shards** (issue 21): one index of 10,000 posts took Pagefind ~1.95 GB and
 * every edit re-read every page. Post pages are spread over a power-of-two number of
 * shards by a hash of their path (at most ~`SHARD_PAGES` pages each, so a shard's page
 * set only changes when the site crosses a power of two); each shard is its own Pagefind
 * bundle — shard 0 in `dist/pagefind/` (a one-shard site is exactly the index it always
 * was), shard k in `dist/pagefind-k/` — indexed by a fresh Pagefind process, one shard at
 * a time, so Pagefind holds one shard's pages at once. The search page merges them
 * (Pagefind's `mergeIndex`), listed in `dist/search-shards.json`. An edit re-indexes
 * only the shards of the pages it changed.
 *
 * Pagefind reads the pages from `dist/` after the build, with its own threads. Handing
 * each page over as it is emitted (`addHTMLFile`) was tried and dropped: Pagefind's
 * service indexes such pages one at a time, 2.4× slower than its directory walk, and
 * held the build back (docs/performance.md, issue 13, third session).
 */
import { readdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { CATEGORIES } from '../types.ts';
import { writeFileAtomic } from '../atomic-write.ts';
import { loadPagefind } from './pagefind-service.ts';

export interface SearchIndexResult {
  /** Post pages Pagefind read and indexed (in the shards it rewrote). */
  pages: number;
  /** Shards rewritten, and how many the index has. */
  shards: number;
  of: number;
  ms: number;
}

/**
 * The pages Pagefind reads: post pages only (`<category>/<slug>/index.html`), the only
 * ones that carry `data-pagefind-body`. Pagefind would parse and drop every other page;
 * not reading them gives a byte-identical index, and its walk of a 4,000-post site takes
 * 3.4 s instead of 4.3 s.
 */
export const SEARCH_PAGES_GLOB = `{${CATEGORIES.join(',')}}/*/index.html`;

/** Most post pages in one shard (about: shards are filled by a hash). */
export const SHARD_PAGES = 1000;

/** The list of bundles the search page merges, in `dist/`. */
export const SEARCH_SHARDS_FILE = 'search-shards.json';

export interface SearchShards {
  /** Shards of the index. */
  count: number;
  /** The bundles the search page loads (the first) and merges (the others): one per shard that has pages. */
  bundles: string[];
}

/**
 * How many shards `pages` post pages are spread over: the least power of two that keeps
 * each at ~`perShard` or fewer. With the count of the index on disk (`current`), that
 * count is kept while shards hold between a quarter of `perShard` and a quarter more
 * than it: a site at a power-of-two boundary (4,000 posts, one added, one deleted) must
 * not re-index everything on every such edit.
 */
export function shardCount(pages: number, perShard = SHARD_PAGES, current?: number): number {
  if (current && pages / current <= perShard * 1.25 && (current === 1 || pages / current >= perShard / 4)) return current;
  let count = 1;
  while (pages / count > perShard) count *= 2;
  return count;
}

/** The shard of a post page (`<category>/<slug>/index.html`): FNV-1a of the path. */
export function shardOf(page: string, count: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < page.length; i++) hash = Math.imul(hash ^ page.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % count;
}

/** Shard k's folder in `dist/`. */
export const shardFolder = (k: number): string => (k === 0 ? 'pagefind' : `pagefind-${k}`);

/** The shards an index in `distDir` was written with, or null when there is none. */
export async function readSearchShards(distDir: string): Promise<SearchShards | null> {
  try {
    const parsed = JSON.parse(await readFile(join(distDir, SEARCH_SHARDS_FILE), 'utf8')) as SearchShards;
    return Number.isInteger(parsed.count) && parsed.count >= 1 ? parsed : null;
  } catch {
    return null;
  }
}

/** Characters that mean something in a Pagefind glob: such a page is read on its own. */
const GLOB_SPECIAL = /[{}[\]*?,!\\]/;

/**
 * Index the given shards of `distDir`'s post pages, one Pagefind process per shard, each
 * into a temporary folder swapped into place; then write the shard list and remove the
 * folders of shards the index no longer has.
 *
 * @param distDir The built site.
 * @param pages Every post page (`<category>/<slug>/index.html`).
 * @param options `shards` to rewrite (all of them when null or absent); `signal` stops
 *   before the next shard (a closing `agora dev`; the shards written stay); `shardPages`,
 *   most pages per shard (default `SHARD_PAGES`); `count`, the shard count (default from `shardCount`).
 */
export async function writeSearchIndex(distDir: string, pages: readonly string[], options: { shards?: ReadonlySet<number> | null; signal?: AbortSignal; shardPages?: number; count?: number } = {}): Promise<SearchIndexResult> {
  const { shards, signal } = options;
  const started = performance.now();
  const count = options.count ?? shardCount(pages.length, options.shardPages);
  const members = Array.from({ length: count }, () => [] as string[]);
  for (const page of pages) members[shardOf(page, count)]!.push(page);
  let indexed = 0;
  let rewritten = 0;
  await removeTemporary(distDir);
  for (let k = 0; k < count; k++) {
    if (shards && !shards.has(k)) continue;
    signal?.throwIfAborted();
    // A shard the hash left empty (a small site split small) has no bundle: Pagefind cannot merge an empty index.
    if (count > 1 && members[k]!.length === 0) {
      await rm(join(distDir, shardFolder(k)), { recursive: true, force: true });
      continue;
    }
    indexed += await indexShard(distDir, k, count === 1 ? null : members[k]!);
    rewritten++;
  }
  const bundles = Array.from({ length: count }, (_, k) => k).filter((k) => count === 1 || members[k]!.length > 0).map((k) => `/${shardFolder(k)}/`);
  const list: SearchShards = { count, bundles };
  await writeFileAtomic(join(distDir, SEARCH_SHARDS_FILE), `${JSON.stringify(list)}\n`);
  // Shards of a bigger index before (the site shrank past a power of two).
  for (const name of await readdir(distDir)) {
    const k = /^pagefind-(\d+)$/.exec(name)?.[1];
    if (k !== undefined && Number(k) >= count) await rm(join(distDir, name), { recursive: true, force: true });
  }
  return { pages: indexed, shards: rewritten, of: count, ms: Math.round(performance.now() - started) };
}

/** One shard: `pages` (every post page when null) into `dist/<shardFolder(k)>/`. Returns the pages Pagefind indexed. */
async function indexShard(distDir: string, k: number, pages: readonly string[] | null): Promise<number> {
  // Loaded on demand: the writer's comment path never needs it.
  const pagefind = await loadPagefind();
  const output = join(distDir, shardFolder(k));
  const temporary = join(distDir, `.${shardFolder(k)}.${process.pid}.tmp`);
  try {
    const { index, errors } = await pagefind.createIndex({});
    if (!index) throw new Error(`Cannot \`createIndex\` with Pagefind: ${errors.join('; ')}`);
    let added = 0;
    const globbed = pages?.filter((p) => !GLOB_SPECIAL.test(p));
    if (pages === null || (globbed && globbed.length > 0)) {
      const glob = pages === null ? SEARCH_PAGES_GLOB : globbed!.length === 1 ? globbed![0]! : `{${globbed!.join(',')}}`;
      const result = await index.addDirectory({ path: distDir, glob });
      if (result.errors.length > 0) throw new Error(`Pagefind could not index \`${distDir}\`: ${result.errors.join('; ')}`);
      added += result.page_count;
    }
    for (const page of pages?.filter((p) => GLOB_SPECIAL.test(p)) ?? []) {
      const content = await readFile(join(distDir, page), 'utf8').catch(() => null);
      if (content === null) continue;
      const result = await index.addHTMLFile({ url: `/${page.replace(/index\.html$/, '')}`, content });
      if (result.errors.length > 0) throw new Error(`Pagefind could not index \`${page}\`: ${result.errors.join('; ')}`);
      added++;
    }
    await rm(temporary, { recursive: true, force: true });
    const written = await index.writeFiles({ outputPath: temporary });
    if (written.errors.length > 0) throw new Error(`Pagefind could not write \`${output}\`: ${written.errors.join('; ')}`);
    // Swap: the old bundle stays whole until the new one is in place.
    const old = `${temporary}.old`;
    await rename(output, old).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
    await rename(temporary, output);
    await rm(old, { recursive: true, force: true });
    return added;
  } finally {
    try {
      // A fresh process for each shard: Pagefind frees nothing between indexes of one process.
      await pagefind.close();
    } finally {
      await rm(temporary, { recursive: true, force: true });
    }
  }
}

/** Temporary shard folders a killed index left in `dist/` (`.pagefind-k.<pid>.tmp[.old]`). */
async function removeTemporary(distDir: string): Promise<void> {
  const names = await readdir(distDir).catch(() => [] as string[]);
  for (const name of names) if (/^\.pagefind(-\d+)?\.\d+\.tmp(\.old)?$/.test(name)) await rm(join(distDir, name), { recursive: true, force: true });
}
