/**
 * Read and validate all content: every post file and the catalog (or, in `agora dev`,
 * only the files an edit changed: `readChanges`). Every message from every file is returned, so
 * `agora check` reports them all in one run.
 */
import { readFileSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { AgoraConfig } from './config.ts';
import type { Post } from './types.ts';
import type { Catalog } from './catalog/types.ts';
import { ContentError, sortMessages, type Message } from './messages.ts';
import { listPostFiles, sourceFromBytes, type SourceFile } from './load/posts.ts';
import { loadCatalog } from './catalog/load-catalog.ts';
import { parsePost, type ParsedPost } from './validate/post.ts';
import { checkSite, SiteChecks } from './validate/site.ts';
import type { ParseCache } from './parse-cache.ts';
import { localFileMessages, type PostPlace } from './validate/local-files.ts';

export interface Content {
  /** Every post file (absolute path) with its source and parse. */
  parsed: Map<string, { source: SourceFile; result: ParsedPost }>;
  catalog: Catalog | null;
  catalogMessages: Message[];
  /**
   * The site checks with their indexes, kept from edit to edit by a long-lived process
   * (`agora dev`, `checkChanges`); made on the first edit.
   */
  checks?: SiteChecks;
  /** The project root and content/ (rule `local-file` judges the files posts refer to against them); absent: not judged. */
  dirs?: { root: string; contentDir: string };
}

export interface ReadContentOptions {
  /** The post files, when the caller listed them already. */
  paths?: string[];
  /** Results of earlier builds, by file and text (`parse-cache.ts`); the caller saves it. */
  cache?: ParseCache;
}

/** Read and validate every post file and the catalog. */
export async function readContent(config: AgoraConfig, options: ReadContentOptions = {}): Promise<Content> {
  const postsDir = join(config.contentDir, 'posts');
  const paths = options.paths ?? (await listPostFiles(postsDir));
  const parsed = new Map<string, { source: SourceFile; result: ParsedPost }>();
  const catalog = loadCatalog(config.contentDir, config.site.baseUrl);
  // Synchronous reads: thousands of small files cost far less without a thread-pool
  // round trip each, and nothing else needs this thread meanwhile.
  for (const path of paths) {
    const source = sourceFromBytes(path, config.root, readFileSync(path));
    parsed.set(path, { source, result: options.cache ? options.cache.get(source, parsePost) : parsePost(source) });
  }
  const catalogResult = await catalog;
  return { parsed, catalog: catalogResult.catalog, catalogMessages: catalogResult.messages, dirs: { root: config.root, contentDir: config.contentDir } };
}

/** What `readChanges` found: the post files read again or gone, and whether the catalog was read again. */
export interface ContentChanges {
  /** Absolute paths of post files that changed, appeared or went away. */
  paths: string[];
  catalog: boolean;
}

/**
 * Read the files of an edit into `content`, in place (`agora dev`: the watcher says which
 * files changed, and listing or re-reading 10,000 files was most of an edit). The content
 * then is what is on disk, valid or not: a file with errors stays in it until it is fixed,
 * so the next edit of another file reports it again. The post folder is listed again only
 * when a change is not a plain `.md` file (a folder added, moved or removed).
 */
export async function readChanges(config: AgoraConfig, content: Content, changed: Iterable<string>): Promise<ContentChanges> {
  const postsDir = join(config.contentDir, 'posts');
  const catalogDir = join(config.contentDir, 'catalog');
  const touched = new Set<string>();
  let relist = false;
  let catalog = false;
  for (const path of changed) {
    if (path === catalogDir || path.startsWith(catalogDir + sep)) catalog = true;
    if (path !== postsDir && !path.startsWith(postsDir + sep)) continue;
    if (!path.endsWith('.md')) relist = true;
    else {
      const stat = statSync(path, { throwIfNoEntry: false });
      if (stat && !stat.isFile()) relist = true;
      else touched.add(path);
    }
  }
  if (relist) {
    const listed = new Set(await listPostFiles(postsDir));
    for (const path of listed) if (!content.parsed.has(path)) touched.add(path);
    for (const path of content.parsed.keys()) if (!listed.has(path)) touched.add(path);
  }
  // Every file is read before the content changes: a read that fails leaves it whole.
  const texts = new Map<string, Buffer | undefined>();
  for (const path of touched) {
    try {
      texts.set(path, readFileSync(path));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'EISDIR') throw error;
      texts.set(path, undefined);
    }
  }
  for (const [path, text] of texts) {
    if (text === undefined) content.parsed.delete(path);
    else {
      const source = sourceFromBytes(path, config.root, text);
      content.parsed.set(path, { source, result: parsePost(source) });
    }
    content.checks?.set(path, content.parsed.get(path));
  }
  if (catalog) {
    const result = await loadCatalog(config.contentDir, config.site.baseUrl);
    content.catalog = result.catalog;
    content.catalogMessages = result.messages;
  }
  return { paths: [...touched], catalog };
}

/**
 * Every message of `content` from its kept site checks (made now if it has none): after
 * `readChanges`, this costs the changed files and the groups they are in, not the site.
 * Gives what `contentMessages` gives, in another order (sort with `sortMessages`).
 */
export function checkChanges(content: Content): Message[] {
  content.checks ??= SiteChecks.of(content.parsed);
  return [...content.catalogMessages, ...content.checks.messages(), ...fileMessages(content)];
}

/** Rule `local-file` over every post of `content` that refers to files (a few stats each). */
function fileMessages(content: Content): Message[] {
  if (!content.dirs) return [];
  const places: PostPlace[] = [];
  for (const [abs, { result }] of content.parsed) if (result.post?.files) places.push({ post: result.post, abs });
  return localFileMessages(places, content.dirs.contentDir, content.dirs.root);
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
  messages.push(...checkSite(sources, posts));
  messages.push(...fileMessages(content));
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
