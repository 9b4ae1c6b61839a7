/**
 * A post's comments as one list of bytes (its cards on the page, its records in
 * `/api/comments/{slug}`), kept for the posts shown last, so that a new comment costs
 * the bytes of that comment and not of every comment before it. Joined as a string
 * and encoded again on each rebuild, a post with 25 of the heaviest comments cost
 * every ordinary comment on it ~3 ms more on an idle machine and its p99 under CPU
 * load (docs/performance.md, twelfth session).
 */
import type { Comment } from '../types.ts';
import { appendedAfter } from '../sorted.ts';

/**
 * A text's UTF-8 bytes in a buffer of their own, for bytes kept past the emit:
 * `Buffer.from` slices small ones out of Node's shared 8 KB pool, and each kept slice
 * would pin a whole pool block (~2.7x its size).
 */
export function ownBytes(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text);
  return bytes;
}

/** Chunks a kept list may grow to before they are joined into one (writev takes at most 1,024). */
const MAX_CHUNKS = 64;

interface Kept {
  comments: readonly Comment[];
  chunks: Uint8Array[];
  bytes: number;
}

export class KeptListBytes {
  /** Lists by post slug, least recently asked for first. */
  private readonly kept = new Map<string, Kept>();
  private keptBytes = 0;

  /**
   * @param encode One comment's text (a card, a JSON record).
   * @param separator Written between two comments' texts (`,` in a JSON array).
   * @param limit Bytes kept in all; the lists asked for longest ago go first.
   */
  constructor(
    private readonly encode: (comment: Comment) => string,
    private readonly separator: string,
    private readonly limit: number,
  ) {}

  /**
   * The bytes of `comments` (a post's list; never changed in place, replaced). When it
   * is the list kept for `slug` with comments appended (the same objects first), only
   * the new comments are encoded; any other list is encoded whole.
   */
  chunks(slug: string, comments: readonly Comment[]): readonly Uint8Array[] {
    const kept = this.kept.get(slug);
    if (kept) {
      this.kept.delete(slug);
      this.keptBytes -= kept.bytes;
    }
    const appended = kept ? appendedAfter(kept.comments, comments) : null;
    const entry: Kept = appended && kept ? { comments, chunks: kept.chunks, bytes: kept.bytes } : { comments, chunks: [], bytes: 0 };
    const items = appended ?? comments;
    if (items.length > 0) {
      const lead = entry.bytes > 0 ? this.separator : '';
      const bytes = ownBytes(lead + items.map(this.encode).join(this.separator));
      // A new array: chunk lists handed out earlier stay as they were.
      entry.chunks = [...entry.chunks, bytes];
      entry.bytes += bytes.length;
      if (entry.chunks.length > MAX_CHUNKS) entry.chunks = [Buffer.concat(entry.chunks, entry.bytes)];
    }
    this.kept.set(slug, entry);
    this.keptBytes += entry.bytes;
    for (const [old, e] of this.kept) {
      if (this.keptBytes <= this.limit || old === slug) break;
      this.kept.delete(old);
      this.keptBytes -= e.bytes;
    }
    return entry.chunks;
  }

  /** Let go of every kept list (the next list of each post is encoded whole). */
  clear(): void {
    this.kept.clear();
    this.keptBytes = 0;
  }

  /** Bytes kept now. */
  get bytes(): number {
    return this.keptBytes;
  }
}
