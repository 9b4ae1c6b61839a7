/**
 * Rendered markdown, cached by the hash of the body. The style notes of every body,
 * and the links `dead-link` checks, live in one small file (`.cache/render-notes.json`,
 * read by every build); the HTML
 * lives in 256 shards by the first two hex digits of the key (`.cache/render/xx.json`),
 * read only for pages that must be emitted and rewritten only when they changed. So a
 * warm build reads no HTML at all, and an edit reads and rewrites one shard.
 *
 * The cache holds little HTML in memory, whatever order renderings arrive in (workers
 * finish batches in any order). A shard is read when asked for and not kept.
 * A shard not on disk yet (every shard of a cold build) is written as its renderings
 * arrive: its file's head, then each entry (in runs of `STREAM_CHUNK` characters) to a
 * temporary file, completed and renamed into place at `save`. A new rendering for a
 * shard already on disk waits in memory until `save` merges it into the file (a few
 * per edit). `retain` drops entries of bodies no longer in the site when their shard is
 * next merged.
 */
import { closeSync, existsSync, mkdirSync, openSync, renameSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BodyLink, Post, RenderedPost, RenderNote } from '../types.ts';
import type { Message } from '../messages.ts';
import { RENDERER_VERSION } from './version.ts';
import { removeStaleTemps, tempPathFor, writeAllSync, writeFileAtomic } from '../atomic-write.ts';
import { readJsonFile } from '../json-file.ts';

interface CacheFile<T> {
  version: string;
  entries: Record<string, T>;
}

/** `render-notes.json`: the notes of every body, and the links of those that have any (`dead-link`). */
interface NotesFile extends CacheFile<RenderNote[]> {
  links?: Record<string, BodyLink[]>;
}

const shardOf = (key: string) => key.slice(0, 2);

/** How a shard file of this renderer version begins. */
const SHARD_HEAD = Buffer.from(`{"version":${JSON.stringify(RENDERER_VERSION)},"entries":{`);

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The JSON string value that follows `prefix` (an object key and its colon) in `bytes`:
 * null when the key is absent, undefined when what follows is not a whole string. A key
 * cannot match inside a string value, where every quote is escaped; UTF-8 continuation
 * bytes are never a quote or a backslash, so the scan works on bytes.
 */
function jsonStringAfter(bytes: Buffer, prefix: Buffer): string | null | undefined {
  const at = bytes.indexOf(prefix);
  if (at < 0) return null;
  const start = at + prefix.length;
  if (bytes[start] !== QUOTE) return undefined;
  for (let i = start + 1; i < bytes.length; i++) {
    if (bytes[i] === BACKSLASH) i++;
    else if (bytes[i] === QUOTE) {
      try {
        const value: unknown = JSON.parse(bytes.toString('utf8', start, i + 1));
        return typeof value === 'string' ? value : undefined;
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** Characters of entries a streamed shard gathers before writing them out. */
export const STREAM_CHUNK = 32 * 1024;

/** A shard file being written as its renderings arrive. */
interface Stream {
  tmp: string;
  fd: number;
  keys: Set<string>;
  /** Entries not written yet, as JSON text. */
  chunks: string[];
  length: number;
}

export class RenderCache {
  private notesByKey = new Map<string, RenderNote[]>();
  /** Links that may point into the site, of the bodies that have any. */
  private linksByKey = new Map<string, BodyLink[]>();
  /** Shards written as their renderings arrive (absent from disk when this build first set one). */
  private readonly streams = new Map<string, Stream>();
  /** Shards found on disk (their new entries wait in `pending` for `save`). */
  private readonly onDisk = new Set<string>();
  /** New entries of shards on disk, by shard, until `save` merges them. */
  private readonly pending = new Map<string, Map<string, string>>();
  private failure: unknown = null;
  private notesDirty = false;
  private keep: ReadonlySet<string> | null = null;

  private constructor(private readonly dir: string | null) {}

  /** Open the cache in `cacheDir` (null: memory only). Reads only the notes. */
  static async open(cacheDir: string | null): Promise<RenderCache> {
    const cache = new RenderCache(cacheDir);
    if (cacheDir) {
      // A build killed while streaming shards left their temporary files (up to the HTML of every post).
      await removeStaleTemps(join(cacheDir, 'render'));
      const file = await readJsonFile<NotesFile>(join(cacheDir, 'render-notes.json')).catch(() => null);
      if (file?.version === RENDERER_VERSION) {
        cache.notesByKey = new Map(Object.entries(file.entries));
        cache.linksByKey = new Map(Object.entries(file.links ?? {}));
      }
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

  /** Links of a body that may point into the site (`dead-link`); empty when it has none or was never rendered. */
  links(key: string): readonly BodyLink[] {
    return this.linksByKey.get(key) ?? [];
  }

  /** Renderings whose HTML the cache holds in memory until it is written (tests check a build lets go of them). */
  get pendingEntries(): number {
    let n = 0;
    for (const shard of this.pending.values()) n += shard.size;
    for (const stream of this.streams.values()) n += stream.chunks.length;
    return n;
  }

  private shardPath(id: string): string {
    return join(this.dir!, 'render', `${id}.json`);
  }

  /** A shard's entries as on disk (empty without a directory). */
  private async readShard(id: string): Promise<Map<string, string>> {
    const file = this.dir ? await readJsonFile<CacheFile<string>>(this.shardPath(id)).catch(() => null) : null;
    return new Map(file?.version === RENDERER_VERSION ? Object.entries(file.entries) : []);
  }

  /**
   * Some entries of a shard as on disk, without parsing the rest: a comment's rebuild in
   * the writer needs one post's HTML, and parsing its whole shard (~40 posts, ~150 KB at
   * 10,000 posts) took ~1 ms of the main thread per comment. Anything unexpected falls
   * back to reading the whole shard.
   */
  private async readEntries(id: string, keys: readonly string[]): Promise<Map<string, string>> {
    if (!this.dir) return new Map();
    let bytes: Buffer;
    try {
      bytes = await readFile(this.shardPath(id));
    } catch {
      return new Map();
    }
    // Both ways a shard is written (`complete`'s stream and `save`'s JSON.stringify) begin so.
    if (!bytes.subarray(0, SHARD_HEAD.length).equals(SHARD_HEAD)) return this.readShard(id);
    const out = new Map<string, string>();
    for (const key of keys) {
      const html = jsonStringAfter(bytes, Buffer.from(`${JSON.stringify(key)}:`));
      if (html === undefined) return this.readShard(id);
      if (html !== null) out.set(key, html);
    }
    return out;
  }

  /** Cached renderings of these keys (reads only their shards). */
  async getMany(keys: Iterable<string>): Promise<Map<string, RenderedPost>> {
    const byShard = new Map<string, string[]>();
    for (const key of keys) {
      if (!this.notesByKey.has(key)) continue;
      const list = byShard.get(shardOf(key));
      if (list) list.push(key);
      else byShard.set(shardOf(key), [key]);
    }
    const out = new Map<string, RenderedPost>();
    for (const [id, list] of byShard) {
      // A streamed shard is completed first: its entries are on disk only.
      if (this.streams.has(id)) this.complete(id);
      const waiting = this.pending.get(id);
      const stored = list.every((key) => waiting?.has(key)) ? null : await this.readEntries(id, list);
      for (const key of list) {
        const html = waiting?.get(key) ?? stored?.get(key);
        const links = this.linksByKey.get(key);
        if (html !== undefined) out.set(key, { html, notes: this.notesByKey.get(key)!, ...(links ? { links } : {}) });
      }
    }
    return out;
  }

  set(key: string, value: RenderedPost): void {
    this.notesByKey.set(key, value.notes);
    if (value.links?.length) this.linksByKey.set(key, value.links);
    else this.linksByKey.delete(key);
    this.notesDirty = true;
    const id = shardOf(key);
    const stream = this.streamOf(id);
    if (stream) {
      // A key is a body's hash: its rendering is always the same.
      if (stream.keys.has(key)) return;
      const entry = `${stream.keys.size > 0 ? ',' : ''}${JSON.stringify(key)}:${JSON.stringify(value.html)}`;
      stream.keys.add(key);
      stream.chunks.push(entry);
      stream.length += entry.length;
      if (stream.length >= STREAM_CHUNK) this.flush(stream);
      return;
    }
    let shard = this.pending.get(id);
    if (!shard) this.pending.set(id, (shard = new Map()));
    shard.set(key, value.html);
  }

  /** The stream of a shard not on disk, opened on its first entry; undefined for a shard on disk. */
  private streamOf(id: string): Stream | undefined {
    const open = this.streams.get(id);
    if (open || !this.dir || this.onDisk.has(id) || this.failure) return open;
    const path = this.shardPath(id);
    if (existsSync(path)) {
      this.onDisk.add(id);
      return undefined;
    }
    try {
      mkdirSync(join(this.dir, 'render'), { recursive: true });
      // Named as atomic writes name theirs, so a killed build's are swept at the next open.
      const tmp = tempPathFor(path);
      const fd = openSync(tmp, 'w', 0o644);
      const stream: Stream = { tmp, fd, keys: new Set(), chunks: [], length: 0 };
      this.streams.set(id, stream);
      writeAllSync(fd, [Buffer.from(`{"version":${JSON.stringify(RENDERER_VERSION)},"entries":{`)]);
      return stream;
    } catch (error) {
      this.failure = error;
      return undefined;
    }
  }

  private flush(stream: Stream): void {
    if (stream.chunks.length === 0) return;
    try {
      writeAllSync(stream.fd, [Buffer.from(stream.chunks.join(''))]);
    } catch (error) {
      this.failure ??= error;
    }
    stream.chunks = [];
    stream.length = 0;
  }

  /** Finish a streamed shard: its last entries, the file's tail, then the rename over the shard. */
  private complete(id: string): void {
    const stream = this.streams.get(id)!;
    this.streams.delete(id);
    this.onDisk.add(id);
    this.flush(stream);
    let open = true;
    try {
      // A shard whose writes failed (a full disk) is never renamed into place.
      if (this.failure) throw this.failure;
      writeAllSync(stream.fd, [Buffer.from('}}')]);
      open = false;
      closeSync(stream.fd);
      renameSync(stream.tmp, this.shardPath(id));
    } catch (error) {
      this.failure ??= error;
      if (open) {
        try {
          closeSync(stream.fd);
        } catch {
          // The shard is dropped anyway.
        }
      }
      rmSync(stream.tmp, { force: true });
    }
  }

  /** Keep only the bodies in `keys` (shards are pruned when next merged). */
  retain(keys: ReadonlySet<string>): void {
    this.keep = keys;
    for (const key of this.notesByKey.keys()) {
      if (!keys.has(key)) {
        this.notesByKey.delete(key);
        this.linksByKey.delete(key);
        this.notesDirty = true;
      }
    }
  }

  /** Complete the streamed shards, merge the pending entries into theirs, write the notes. */
  async save(): Promise<void> {
    if (!this.dir) return;
    for (const id of [...this.streams.keys()]) this.complete(id);
    for (const [id, entries] of this.pending) {
      this.pending.delete(id);
      const shard = await this.readShard(id);
      for (const [key, html] of entries) shard.set(key, html);
      if (this.keep) for (const key of shard.keys()) if (!this.keep.has(key)) shard.delete(key);
      const file: CacheFile<string> = { version: RENDERER_VERSION, entries: Object.fromEntries(shard) };
      await writeFileAtomic(this.shardPath(id), JSON.stringify(file), { durable: false });
    }
    this.onDisk.clear();
    if (this.failure) {
      const failure = this.failure;
      this.failure = null;
      throw failure;
    }
    if (this.notesDirty) {
      const file: NotesFile = { version: RENDERER_VERSION, entries: Object.fromEntries(this.notesByKey), links: Object.fromEntries(this.linksByKey) };
      await writeFileAtomic(join(this.dir, 'render-notes.json'), JSON.stringify(file), { durable: false });
      this.notesDirty = false;
    }
  }
}

/** The style notes of these posts' bodies (those rendered at least once) as warnings. */
export function styleWarnings(posts: readonly Pick<Post, 'file' | 'bodyLine' | 'bodyHash'>[], cache: RenderCache): Message[] {
  const out: Message[] = [];
  for (const post of posts) {
    for (const n of cache.notes(post.bodyHash) ?? []) {
      out.push({ file: post.file, line: post.bodyLine + n.line - 1, column: n.column, severity: 'warning', ruleId: n.ruleId, message: n.message, fix: n.fix });
    }
  }
  return out;
}
