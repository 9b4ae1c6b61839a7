/**
 * Token counts by SHA-1 of the text, kept between processes in `.cache/token-counts.json`.
 * `llms.txt` and `llms-full.txt` count every post each time they are made (~0.3 s of
 * the main thread per MB of text): at 10,000 posts a process that made them with an
 * empty memory paid ~2 s in one block, which held a restarted writer's event loop
 * during its catch-up and every build in a new process that re-made them.
 * A count depends only on the text and the encoding, so the file needs no code
 * fingerprint; a file of another encoding is ignored.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { readJsonFile } from '../json-file.ts';
import { writeFileAtomic } from '../atomic-write.ts';
import { countTextTokens, TOKEN_ENCODING } from './token-count.ts';

interface CacheFile {
  encoding: string;
  /** Least recently asked first. */
  counts: Record<string, number>;
}

/** Most counts the file keeps (least recently asked out first): 10,000 posts ask for ~20,000. */
export const TOKEN_CACHE_ENTRIES = 100_000;

export class TokenCache {
  /** Whether a count was made (not read) since the last save. */
  private counted = false;

  private constructor(
    private readonly path: string | null,
    /** By SHA-1 of the text, in the order last asked for (oldest first). */
    private readonly counts: Map<string, number>,
    private readonly limit: number,
  ) {}

  /** A cache that lives in this process only. */
  static memory(): TokenCache {
    return new TokenCache(null, new Map(), Infinity);
  }

  /** Read `cacheDir/token-counts.json`; a missing or unreadable file is an empty cache. */
  static async open(cacheDir: string, limit = TOKEN_CACHE_ENTRIES): Promise<TokenCache> {
    const path = join(cacheDir, 'token-counts.json');
    const file = await readJsonFile<CacheFile>(path).catch(() => null);
    const valid = file?.encoding === TOKEN_ENCODING && typeof file.counts === 'object' && file.counts !== null;
    return new TokenCache(path, new Map(valid ? Object.entries(file.counts).filter(([, n]) => Number.isSafeInteger(n) && n >= 0) : []), limit);
  }

  /** Tokens of `text`: remembered when this text was counted before (in this process or one before), else counted now. */
  count(text: string): number {
    const key = createHash('sha1').update(text).digest('base64');
    let n = this.counts.get(key);
    if (n === undefined) {
      n = countTextTokens(text);
      this.counted = true;
    } else {
      this.counts.delete(key);
    }
    this.counts.set(key, n);
    return n;
  }

  /** Write the most recently asked counts (at most the limit), when one was made since the last save. */
  async save(): Promise<void> {
    if (!this.path || !this.counted) return;
    this.counted = false;
    let drop = this.counts.size - this.limit;
    for (const key of this.counts.keys()) {
      if (drop-- <= 0) break;
      this.counts.delete(key);
    }
    await writeFileAtomic(this.path, `${JSON.stringify({ encoding: TOKEN_ENCODING, counts: Object.fromEntries(this.counts) } satisfies CacheFile)}\n`);
  }
}
