/**
 * Parsed posts kept between builds (`.cache/parsed.json`): the front matter of every
 * post is YAML, and parsing 4,000 of them is most of a warm build. An entry is keyed by
 * the file's path and the SHA-1 of its text, and the whole file by a fingerprint of the
 * generator's code, so an edited post, a moved file or a changed rule parses again.
 * The text is still read (it is hashed); what is skipped is parsing and validating it.
 * A cache that cannot be read is ignored and rewritten.
 */
import { join } from 'node:path';
import type { Post } from './types.ts';
import type { SourceFile } from './load/posts.ts';
import type { ParsedPost } from './validate/post.ts';
import { codeFingerprint } from './model/job-keys.ts';
import { readJsonFile } from './json-file.ts';
import { writeFileAtomic } from './atomic-write.ts';

/** A parsed post without the two copies of its text the source file already holds. */
interface Entry {
  post: Omit<Post, 'source' | 'content'> | null;
  /** The body is the last `bodyLength` characters of the source. */
  bodyLength: number;
  messages: ParsedPost['messages'];
}

interface CacheFile {
  fingerprint: string;
  entries: Record<string, Entry>;
}

const keyOf = (source: SourceFile) => `${source.file}\u0000${source.hash}`;

export class ParseCache {
  private readonly fresh = new Map<string, Entry>();
  private misses = 0;

  private constructor(
    private readonly path: string,
    private readonly entries: Map<string, Entry>,
  ) {}

  static async open(cacheDir: string): Promise<ParseCache> {
    const path = join(cacheDir, 'parsed.json');
    const file = await readJsonFile<CacheFile>(path).catch(() => null);
    const valid = file?.fingerprint === codeFingerprint() && typeof file.entries === 'object' && file.entries !== null;
    return new ParseCache(path, new Map(valid ? Object.entries(file.entries) : []));
  }

  /** The cached result for this exact file and text, or `parse` it (and remember it). */
  get(source: SourceFile, parse: (source: SourceFile) => ParsedPost): ParsedPost {
    const key = keyOf(source);
    const hit = this.entries.get(key);
    if (hit && hit.bodyLength <= source.text.length) {
      this.fresh.set(key, hit);
      const post = hit.post ? { ...hit.post, source: source.text, content: source.text.slice(source.text.length - hit.bodyLength) } : null;
      return { post, messages: hit.messages };
    }
    this.misses++;
    const result = parse(source);
    const { post } = result;
    // Only a body that is the tail of its source is stored by length; any other shape is not cached.
    if (post && !source.text.endsWith(post.content)) return result;
    const { source: _s, content: _c, ...rest } = post ?? ({} as Post);
    this.fresh.set(key, { post: post ? rest : null, bodyLength: post?.content.length ?? 0, messages: result.messages });
    return result;
  }

  /** Write the entries of this read (files gone or changed are dropped), when anything changed. */
  async save(): Promise<void> {
    if (this.misses === 0 && this.fresh.size === this.entries.size) return;
    const file: CacheFile = { fingerprint: codeFingerprint(), entries: Object.fromEntries(this.fresh) };
    await writeFileAtomic(this.path, `${JSON.stringify(file)}\n`);
  }
}
