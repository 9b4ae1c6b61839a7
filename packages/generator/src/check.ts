/**
 * `agora check`: every problem in every file, in one run. Valid posts are rendered
 * (through the cache) so the style rules are checked on the parsed tree; this also
 * warms the cache for the next build.
 */
import type { AgoraConfig } from './config.ts';
import { type Message, sortMessages } from './messages.ts';
import { readContent, contentMessages } from './content.ts';
import { RenderCache, styleWarnings } from './render/cache.ts';
import { RenderPool } from './render/pool.ts';

export interface CheckResult {
  messages: Message[];
  errors: number;
  warnings: number;
  files: number;
}

export async function check(config: AgoraConfig): Promise<CheckResult> {
  const { messages, files } = await checkContent(config);
  return {
    messages,
    errors: messages.filter((m) => m.severity === 'error').length,
    warnings: messages.filter((m) => m.severity === 'warning').length,
    files,
  };
}

/** Validate all content and render every post (through the cache) for its style notes. */
export async function checkContent(config: AgoraConfig): Promise<{ messages: Message[]; files: number }> {
  const content = await readContent(config);
  const { posts, messages } = contentMessages(content);
  const cache = await RenderCache.open(config.cacheDir);
  const misses = new Map<string, string>();
  for (const post of posts) if (!cache.notes(post.bodyHash)) misses.set(post.bodyHash, post.content);
  const pool = RenderPool.forItems(misses.size);
  try {
    await pool.render([...misses], (key, value) => cache.set(key, value));
  } finally {
    await pool.close();
  }
  await cache.save();
  return { messages: sortMessages([...messages, ...styleWarnings(posts, cache)]), files: content.parsed.size };
}

/** The slugs of every valid post (for tools that must know which posts exist, such as comment import). */
export async function postSlugs(config: AgoraConfig): Promise<Set<string>> {
  return new Set(contentMessages(await readContent(config)).posts.map((p) => p.slug));
}
