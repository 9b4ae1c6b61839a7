/**
 * Rendered markdown, cached by the hash of the body. The style notes of every body
 * live in one small file (`.cache/render-notes.json`, read by every build); the HTML
 * lives in 256 shards by the first two hex digits of the key (`.cache/render/xx.json`),
 * read only for pages that must be emitted and rewritten only when they changed. So a
 * warm build reads no HTML at all, and an edit reads and rewrites one shard.
 * `retain` drops entries of bodies no longer in the site.
 */
import { join } from 'node:path';
import type { Post, RenderedPost, RenderNote } from '../types.ts';
import type { Message } from '../messages.ts';
import { RENDERER_VERSION } from './version.ts';
import { writeFileAtomic } from '../atomic-write.ts';
import { readJsonFile } from '../json-file.ts';

interface CacheFile<T> {
  version: string;
  entries: Record<string, T>;
}

const shardOf = (key: string) => key.slice(0, 2);

export class RenderCache {
  private notesByKey = new Map<string, RenderNote[]>();
  private readonly shards = new Map<string, Promise<Map<string, string>>>();
  private readonly dirtyShards = new Set<string>();
  private notesDirty = false;
  private keep: ReadonlySet<string> | null = null;

  private constructor(private readonly dir: string | null) {}

  /** Open the cache in `cacheDir` (null: memory only). Reads only the notes. */
  static async open(cacheDir: string | null): Promise<RenderCache> {
    const cache = new RenderCache(cacheDir);
    if (cacheDir) {
      const file = await readJsonFile<CacheFile<RenderNote[]>>(join(cacheDir, 'render-notes.json')).catch(() => null);
      if (file?.version === RENDERER_VERSION) cache.notesByKey = new Map(Object.entries(file.entries));
    }
    return cache;
  }

  /** Number of bodies known (rendered at least once). */
  get size(): number {
    return this.notesByKey.size;
  }

  /** Style notes of a body, if it was ever rendered. */
  notes(key: string): RenderNote[] | undefined {
    return this.notesByKey.get(key);
  }

  private shard(id: string): Promise<Map<string, string>> {
    let shard = this.shards.get(id);
    if (!shard) {
      shard = (async () => {
        const file = this.dir ? await readJsonFile<CacheFile<string>>(join(this.dir, 'render', `${id}.json`)).catch(() => null) : null;
        return new Map(file?.version === RENDERER_VERSION ? Object.entries(file.entries) : []);
      })();
      this.shards.set(id, shard);
    }
    return shard;
  }

  /** Cached renderings of these keys (reads only their shards). */
  async getMany(keys: Iterable<string>): Promise<Map<string, RenderedPost>> {
    const out = new Map<string, RenderedPost>();
    for (const key of keys) {
      const notes = this.notesByKey.get(key);
      if (!notes) continue;
      const html = (await this.shard(shardOf(key))).get(key);
      if (html !== undefined) out.set(key, { html, notes });
    }
    return out;
  }

  async set(key: string, value: RenderedPost): Promise<void> {
    (await this.shard(shardOf(key))).set(key, value.html);
    this.notesByKey.set(key, value.notes);
    this.dirtyShards.add(shardOf(key));
    this.notesDirty = true;
  }

  /** Keep only the bodies in `keys` (shards are pruned when next written). */
  retain(keys: ReadonlySet<string>): void {
    this.keep = keys;
    for (const key of this.notesByKey.keys()) {
      if (!keys.has(key)) {
        this.notesByKey.delete(key);
        this.notesDirty = true;
      }
    }
  }

  async save(): Promise<void> {
    if (!this.dir) return;
    for (const id of this.dirtyShards) {
      const shard = await this.shard(id);
      if (this.keep) for (const key of shard.keys()) if (!this.keep.has(key)) shard.delete(key);
      const file: CacheFile<string> = { version: RENDERER_VERSION, entries: Object.fromEntries(shard) };
      await writeFileAtomic(join(this.dir, 'render', `${id}.json`), JSON.stringify(file), { durable: false });
    }
    this.dirtyShards.clear();
    if (this.notesDirty) {
      const file: CacheFile<RenderNote[]> = { version: RENDERER_VERSION, entries: Object.fromEntries(this.notesByKey) };
      await writeFileAtomic(join(this.dir, 'render-notes.json'), JSON.stringify(file), { durable: false });
      this.notesDirty = false;
    }
  }
}

/** The style notes of these posts' bodies (those rendered at least once) as warnings. */
export function styleWarnings(posts: readonly Post[], cache: RenderCache): Message[] {
  const out: Message[] = [];
  for (const post of posts) {
    for (const n of cache.notes(post.bodyHash) ?? []) {
      out.push({ file: post.file, line: post.bodyLine + n.line - 1, column: n.column, severity: 'warning', ruleId: n.ruleId, message: n.message, fix: n.fix });
    }
  }
  return out;
}
