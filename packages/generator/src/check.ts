/**
 * `agora check`: every problem in every file, in one run. Every post's body is rendered
 * (through the cache) so the style rules are checked on the parsed tree; this also
 * warms the cache for the next build. A post with front-matter errors gets its body's
 * warnings too, so fixing the errors brings up nothing new.
 */
import { basename, join } from 'node:path';
import type { AgoraConfig } from './config.ts';
import { type Message, sortMessages } from './messages.ts';
import { readContent, contentMessages } from './content.ts';
import { RenderCache, styleWarnings } from './render/cache.ts';
import { RenderPool } from './render/pool.ts';
import { splitFrontMatter } from './load/front-matter.ts';
import { hashText, misnamedPostFiles } from './load/posts.ts';
import { BODY_TOO_DEEP } from './validate/post.ts';
import { deadLinkWarnings } from './validate/dead-link.ts';
import { siteTargets } from './emit/site-files.ts';
import { buildSiteModel } from './model/site.ts';

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
  // The bodies whose style is checked: every valid post's, and the body of every post
  // whose front matter has errors (it is not a post yet, but its body is there).
  const bodies: { file: string; bodyLine: number; bodyHash: string; content: string }[] = [...posts];
  for (const { source, result } of content.parsed.values()) {
    if (result.post || result.messages.some((m) => m.ruleId === BODY_TOO_DEEP)) continue;
    const doc = splitFrontMatter(source.text);
    if (doc.hasFrontMatter && doc.body.trim() !== '') bodies.push({ file: source.file, bodyLine: doc.bodyLine, bodyHash: hashText(doc.body), content: doc.body });
  }
  const cache = await RenderCache.open(config.cacheDir);
  const misses = new Map<string, string>();
  for (const body of bodies) if (!cache.notes(body.bodyHash)) misses.set(body.bodyHash, body.content);
  const pool = RenderPool.forItems(misses.size);
  try {
    await pool.render([...misses], (key, value) => cache.set(key, value));
  } finally {
    await pool.close();
  }
  await cache.save();
  const misnamed = (await misnamedPostFiles(join(config.contentDir, 'posts'), config.root)).map(({ file, hidden, link }): Message => ({
    file, line: 1, column: 1, severity: 'warning', ruleId: 'not-a-post',
    ...(link
      ? { message: `Unexpected symbolic link \`${file}\`: posts are read from files and folders inside the posts folder, never through a link, so ${link === 'folder' ? 'nothing under it is' : 'it is not'} published`, fix: 'put the files themselves in the posts folder in place of the link (copy or move them)' }
      : hidden
      ? { message: `Unexpected hidden file \`${file}\`: its name (or a folder's) starts with \`.\`, which most tools hide, yet it is published like any post`, fix: 'rename it without the leading `.`, or move it out of the posts folder to keep it unpublished' }
      : { message: `Unexpected file name \`${basename(file)}\`: only \`*.md\` files are posts, so this one is not published`, fix: `rename it to \`${basename(file).replace(/\.[^.]+$/, '.md')}\`, or move it out of the posts folder` }),
  }));
  // Links are checked against the site the valid posts make; one naming a post whose file has errors is not (its errors are).
  const site = buildSiteModel({ config: config.site, posts, comments: [], views: new Map(), catalog: content.catalog });
  const unpublished = new Set([...content.parsed.values()].map(({ source }) => source.slug).filter((slug) => !site.bySlug.has(slug)));
  const deadLinks = deadLinkWarnings(site, () => siteTargets(site), (hash) => cache.links(hash), unpublished);
  return { messages: sortMessages([...messages, ...styleWarnings(bodies, cache), ...deadLinks, ...misnamed]), files: content.parsed.size };
}

/** The slugs of every valid post (for tools that must know which posts exist, such as comment import). */
export async function postSlugs(config: AgoraConfig): Promise<Set<string>> {
  return new Set(contentMessages(await readContent(config)).posts.map((p) => p.slug));
}
