/**
 * Read and validate all content: every post file (or only the changed ones, reusing
 * the rest) and the catalog. Every message from every file is returned, so
 * `agora check` reports them all in one run.
 */
import { readFileSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { AgoraConfig } from './config.ts';
import type { Post } from './types.ts';
import type { Catalog } from './catalog/types.ts';
import { ContentError, sortMessages, type Message } from './messages.ts';
import { listPostFiles, toSourceFile, type SourceFile } from './load/posts.ts';
import { loadCatalog } from './catalog/load-catalog.ts';
import { parsePost, type ParsedPost } from './validate/post.ts';
import { checkSite, SiteKeys } from './validate/site.ts';
import type { ParseCache } from './parse-cache.ts';

export interface Content {
  parsed: Map<string, { source: SourceFile; result: ParsedPost }>;
  catalog: Catalog | null;
  catalogMessages: Message[];
  /** Names the site checks derived, kept from read to read (`agora dev`). */
  keys: SiteKeys;
}

export interface ReadContentOptions {
  /** The last read: files not in `changed` are taken from it. */
  previous?: Content;
  changed?: ReadonlySet<string>;
  /** The post files, when the caller listed them already. */
  paths?: string[];
  /** Results of earlier builds, by file and text (`parse-cache.ts`); the caller saves it. */
  cache?: ParseCache;
}

/** Read and validate every post file (or only `changed`, reusing the rest). */
export async function readContent(config: AgoraConfig, options: ReadContentOptions = {}): Promise<Content> {
  const { previous, changed } = options;
  const postsDir = join(config.contentDir, 'posts');
  const paths = options.paths ?? (previous && changed ? pathsAfter(previous, changed, postsDir) : null) ?? (await listPostFiles(postsDir));
  const parsed = new Map<string, { source: SourceFile; result: ParsedPost }>();
  const catalogChanged = !previous || [...(changed ?? [])].some((p) => p.startsWith(join(config.contentDir, 'catalog')));
  const catalog = catalogChanged ? loadCatalog(config.contentDir, config.site.baseUrl) : Promise.resolve({ catalog: previous.catalog, messages: previous.catalogMessages });
  // Synchronous reads: thousands of small files cost far less without a thread-pool
  // round trip each, and nothing else needs this thread meanwhile.
  for (const path of paths) {
    const old = previous?.parsed.get(path);
    if (old && !changed?.has(path)) parsed.set(path, old);
    else {
      const source = toSourceFile(path, config.root, readFileSync(path, 'utf8'));
      parsed.set(path, { source, result: options.cache ? options.cache.get(source, parsePost) : parsePost(source) });
    }
  }
  const catalogResult = await catalog;
  return { parsed, catalog: catalogResult.catalog, catalogMessages: catalogResult.messages, keys: previous?.keys ?? new SiteKeys() };
}

/**
 * The post files after `changed`, from the previous read: `agora dev` knows which files
 * changed, and listing 10,000 files again was a third of an edit's first half. Null
 * (list the folder again) when a change is not a plain `.md` file (a folder moved).
 */
function pathsAfter(previous: Content, changed: ReadonlySet<string>, postsDir: string): string[] | null {
  let paths: Set<string> | null = null;
  for (const path of changed) {
    if (!path.startsWith(postsDir + sep)) continue;
    if (!path.endsWith('.md')) return null;
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat && !stat.isFile()) return null;
    if (Boolean(stat) === previous.parsed.has(path)) continue;
    paths ??= new Set(previous.parsed.keys());
    if (stat) paths.add(path);
    else paths.delete(path);
  }
  // Unchanged set: the previous order (sorted when it was listed).
  return paths ? [...paths].sort() : [...previous.parsed.keys()];
}

export function contentMessages(content: Content): { posts: Post[]; messages: Message[] } {
  const sources: SourceFile[] = [];
  const posts: Post[] = [];
  const messages: Message[] = [...content.catalogMessages];
  for (const { source, result } of content.parsed.values()) {
    sources.push(source);
    messages.push(...result.messages);
    if (result.post) posts.push(result.post);
  }
  messages.push(...checkSite(sources, posts, content.keys));
  return { posts, messages };
}

/**
 * Read content for a build: the posts and every message, or `ContentError` with all of
 * them when any is an error (a build stops there; `agora check` reports instead).
 */
export async function readValidContent(config: AgoraConfig, options: ReadContentOptions = {}): Promise<{ content: Content; posts: Post[]; messages: Message[] }> {
  const content = await readContent(config, options);
  const { posts, messages } = contentMessages(content);
  if (messages.some((m) => m.severity === 'error')) throw new ContentError(sortMessages(messages));
  return { content, posts, messages };
}
