/**
 * `dead-link`: a link or image in a post whose target is on this site (a `/`-rooted path,
 * a relative one, or an absolute URL on the base URL) but names nothing the site serves.
 * A warning, like the style notes: the site still builds, and a crawl would find the 404.
 *
 * The links come from the renderer's walk of each body (`render/markdown.ts`, cached
 * with the style notes), so checking parses nothing again: one URL resolution and one
 * set lookup per link. What the site serves is the caller's (`emit/site-files.ts`,
 * derived from the build's job list). A link is resolved against its post's URL and
 * percent-decoded once, as the site's servers decode a request; its query and fragment
 * are not checked. A missing target that looks like a file other than a page, document
 * or feed (`./diagram.png`) is left to `local-file`.
 */
import type { Message } from '../messages.ts';
import type { BodyLink, Post, SiteModel } from '../types.ts';
import { tagKey, tagUrl } from '../paths.ts';

export const DEAD_LINK = 'dead-link';

/** What the site answers (`emit/site-files.ts` makes it from the build's job list). */
export interface LinkTargets {
  /** Whether a percent-decoded, `/`-rooted path names something the site serves. */
  has(path: string): boolean;
  /** Tag keys with a page. */
  tags: ReadonlySet<string>;
}

/** Extensions of what a link may name beside pages: documents, mirrors, feeds. Any other is a file `local-file` checks. */
const PAGE_EXTENSIONS = new Set(['md', 'html', 'json', 'txt', 'xml', 'atom']);

/**
 * Where a link probably meant to go: the post whose slug it names (moved to another
 * category, or named by its file, `other-post.md`), or a tag's page by its key.
 */
function suggestion(site: Pick<SiteModel, 'bySlug'>, targets: LinkTargets, path: string): { to: string; why: string } | null {
  const segments = path.split('/').filter((s) => s !== '');
  for (let i = segments.length - 1; i >= 0; i--) {
    const segment = segments[i]!;
    const post = site.bySlug.get(segment) ?? (segment.endsWith('.md') ? site.bySlug.get(segment.slice(0, -3)) : undefined);
    if (!post) continue;
    const twin = i === segments.length - 2 && segments[i + 1] === 'post.md' ? 'post.md' : '';
    return { to: post.url + twin, why: `the post \`${post.slug}\` is in ${post.category}` };
  }
  if (segments[0] === 'tags' && segments[1] !== undefined && segments.length <= 2) {
    const key = tagKey(segments[1]);
    if (key !== segments[1] && targets.tags.has(key)) return { to: tagUrl(key), why: `a tag's page is at its key, \`${key}\`` };
  }
  return null;
}

const shown = (url: string) => (url.length > 80 ? `${url.slice(0, 80)}…` : url);

type Problem = Pick<Message, 'message' | 'fix'>;

/** The problem with one link of a post, or null when it is fine or not the site's. */
function checkLink(site: Pick<SiteModel, 'config' | 'bySlug'>, host: string, targets: LinkTargets, post: Post, link: BodyLink, unchecked: ReadonlySet<string>): Problem | null {
  let url: URL;
  try {
    url = new URL(link.url, `${site.config.baseUrl}${post.url}`);
  } catch {
    return null;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.host !== host) return null;
  const what = link.image ? 'image' : 'link';
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return {
      message: `Unexpected ${what} to \`${shown(link.url)}\`: its path is not valid percent-encoding, so the site's servers answer 400`,
      fix: 'write a literal `%` as `%25`, or link to the page by its URL as the page shows it',
    };
  }
  if (targets.has(path)) return null;
  const segments = path.split('/');
  const extension = /\.([a-z][a-z0-9]{0,7})$/i.exec(segments.at(-1)!)?.[1]?.toLowerCase();
  if (extension && !PAGE_EXTENSIONS.has(extension) && segments[1] !== 'api') return null;
  // A post whose file has errors is not in the site yet: its errors come first.
  if (segments.some((s) => unchecked.has(s))) return null;
  const resolved = link.url === path || link.url === url.pathname ? '' : ` (\`${shown(path)}\` on this site)`;
  const noun = link.image || (extension !== undefined && extension !== 'html') ? 'file' : 'page';
  const better = suggestion(site, targets, path);
  return {
    message: `Unexpected ${what} to \`${shown(link.url)}\`${resolved}: the site has no ${noun} there, so a reader gets a 404`,
    fix: `no ${noun} ${shown(path)}; ${better ? `did you mean ${better.to}? (${better.why})` : 'link to one the site has (/sitemap.xml lists every page), or remove the link'}`,
  };
}

/**
 * The `dead-link` warnings of the site's posts.
 *
 * @param site The site's posts (each link is resolved against its post's URL) and base URL.
 * @param targets What the site serves (`siteTargets` of `emit/site-files.ts`), made only if a post has links.
 * @param links The links of a body by its hash (`RenderCache.links`): bodies never rendered have none.
 * @param unchecked Slugs of post files with errors: a link naming one is not reported (the file's errors are).
 */
export function deadLinkWarnings(site: Pick<SiteModel, 'config' | 'posts' | 'bySlug'>, targets: () => LinkTargets, links: (bodyHash: string) => readonly BodyLink[], unchecked: ReadonlySet<string> = new Set()): Message[] {
  const out: Message[] = [];
  let known: LinkTargets | undefined;
  const host = new URL(site.config.baseUrl).host;
  for (const post of site.posts) {
    // A relative reference to a file is rule `local-file`'s (it names the file on disk): one message per link.
    const files = new Set(post.files?.map((ref) => `${ref.line}:${ref.column}`));
    for (const link of links(post.bodyHash)) {
      if (files.has(`${post.bodyLine + link.line - 1}:${link.column}`)) continue;
      known ??= targets();
      const problem = checkLink(site, host, known, post, link, unchecked);
      if (problem) out.push({ file: post.file, line: post.bodyLine + link.line - 1, column: link.column, severity: 'warning', ruleId: DEAD_LINK, ...problem });
    }
  }
  return out;
}
