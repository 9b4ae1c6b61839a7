/**
 * Rendered markdown, cached by content hash in `.cache/render-cache.json`, so a build
 * renders only what changed since the last one. Entries not used by a build are
 * dropped when it saves, so the cache never outgrows the site.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RenderedPost } from '../types.ts';
import { hashText } from '../load/posts.ts';
import { RENDERER_VERSION } from './markdown.ts';
import { writeFileAtomic } from '../emit/atomic-write.ts';

interface CacheFile {
  version: string;
  entries: Record<string, RenderedPost>;
}

export class RenderCache {
  private entries = new Map<string, RenderedPost>();
  private used = new Set<string>();
  private dirty = false;

  constructor(private readonly path: string | null) {}

  /** Load from `cacheDir` (missing or stale file: start empty). Pass null for no disk. */
  static async open(cacheDir: string | null): Promise<RenderCache> {
    const cache = new RenderCache(cacheDir ? join(cacheDir, 'render-cache.json') : null);
    if (!cache.path) return cache;
    try {
      const file = JSON.parse(await readFile(cache.path, 'utf8')) as CacheFile;
      if (file.version === RENDERER_VERSION) cache.entries = new Map(Object.entries(file.entries));
    } catch {
      // No cache or a corrupt one: a cold build rebuilds it.
    }
    return cache;
  }

  /** Cache key of a markdown body. */
  static keyOf(markdown: string): string {
    return hashText(markdown);
  }

  /** Number of cached renderings. */
  get size(): number {
    return this.entries.size;
  }

  get(key: string): RenderedPost | undefined {
    const hit = this.entries.get(key);
    if (hit) this.used.add(key);
    return hit;
  }

  set(key: string, value: RenderedPost): void {
    this.entries.set(key, value);
    this.used.add(key);
    this.dirty = true;
  }

  /** Persist, keeping only entries used since `open` (or since the last save). */
  async save(): Promise<void> {
    const unused = [...this.entries.keys()].filter((k) => !this.used.has(k));
    if (unused.length > 0) this.dirty = true;
    if (!this.dirty || !this.path) return;
    for (const key of unused) this.entries.delete(key);
    const file: CacheFile = { version: RENDERER_VERSION, entries: Object.fromEntries(this.entries) };
    await writeFileAtomic(this.path, JSON.stringify(file), { durable: false });
    this.dirty = false;
  }

  /** Start a new round of use tracking (long-lived processes call this per full build). */
  resetUsage(): void {
    this.used.clear();
  }
}
