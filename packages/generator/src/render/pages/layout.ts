/**
 * The page shell every HTML page shares: head (canonical, alternates, description,
 * Open Graph), header navigation, main, footer.
 */
import { html, type SafeHtml } from '../html.ts';
import type { SiteConfig } from '../../types.ts';
import { CATEGORIES } from '../../types.ts';

export interface LayoutOptions {
  site: SiteConfig;
  title: string;
  description: string;
  /** Site-relative path of this page, e.g. `/reviews/`. */
  path: string;
  body: SafeHtml;
  /**
   * `<link rel=alternate type=text/markdown>` target. Every page has a markdown twin, by
   * default `index.md` in its own folder (a list page's); a post passes `post.md`, a
   * later page of a list its list's (`/page/2/`: `/index.md`).
   */
  markdownAlternate?: string;
  /** JSON mirror of this page, site-relative. */
  jsonAlternate?: string;
  ogType?: 'website' | 'article';
  /** Extra head elements (already safe), e.g. article metadata. */
  head?: SafeHtml;
  /** Script tags at the end of the body. */
  scripts?: SafeHtml;
  /** Feeds of this page besides the site's own (announced as `rel=alternate`). */
  feeds?: readonly FeedLink[];
  /** A wider main column (the debates page puts three columns side by side). */
  wide?: boolean;
  /** Whether the site has a public-data catalog (`content/catalog/`): only then does the nav link to it. */
  catalog: boolean;
  /** Ask search engines not to index the page (`404.html`, served at any missing path); the sitemap never lists such a page. */
  noindex?: boolean;
}

/** An Atom feed and its JSON Feed twin. */
export interface FeedLink {
  title: string;
  atom: string;
  json: string;
}

/** The site's own feed, announced on every page. */
export const SITE_FEED: FeedLink = { title: 'All posts', atom: '/feed.atom', json: '/feed.json' };

function feedLinks(site: SiteConfig, feeds: readonly FeedLink[]): SafeHtml {
  return html`${feeds.map((f) => html`<link rel="alternate" type="application/atom+xml" href="${f.atom}" title="${site.title}: ${f.title} (Atom)">
<link rel="alternate" type="application/feed+json" href="${f.json}" title="${site.title}: ${f.title} (JSON Feed)">
`)}`;
}

export const CATEGORY_LABELS: Record<(typeof CATEGORIES)[number], string> = {
  reviews: 'Reviews',
  setups: 'Setups',
  knowhow: 'Know-how',
  troubleshooting: 'Troubleshooting',
  guide: 'Guides',
  stories: 'Stories',
  debates: 'Debates',
};

/** Render a full HTML document. */
export function layout(o: LayoutOptions): string {
  const canonical = o.site.baseUrl + o.path;
  const pageTitle = o.path === '/' ? o.site.title : `${o.title} · ${o.site.title}`;
  return html`<!doctype html>
<html lang="${o.site.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${pageTitle}</title>
<meta name="description" content="${o.description}">${o.noindex ? html`
<meta name="robots" content="noindex">` : ''}
<link rel="canonical" href="${canonical}">
<link rel="alternate" type="text/markdown" href="${o.markdownAlternate ?? `${o.path}index.md`}">
${o.jsonAlternate ? html`<link rel="alternate" type="application/json" href="${o.jsonAlternate}">` : ''}
<link rel="alternate" type="text/plain" href="/llms.txt" title="llms.txt">
${feedLinks(o.site, [SITE_FEED, ...(o.feeds ?? []).filter((f) => f.atom !== SITE_FEED.atom)])}
<meta property="og:type" content="${o.ogType ?? 'website'}">
<meta property="og:site_name" content="${o.site.title}">
<meta property="og:title" content="${o.title}">
<meta property="og:description" content="${o.description}">
<meta property="og:url" content="${canonical}">
<meta name="twitter:card" content="summary">
<meta name="color-scheme" content="light dark">
<link rel="stylesheet" href="/assets/site.css">
<link rel="icon" href="/assets/icon.svg" type="image/svg+xml">
${o.head ?? ''}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="site">
<nav aria-label="Site">
<a class="brand" href="/">${o.site.title}</a>
<ul>
${CATEGORIES.map((c) => html`<li><a href="/${c}/">${CATEGORY_LABELS[c]}</a></li>`)}
<li><a href="/comments/">Comments</a></li>
<li><a href="/tags/">Tags</a></li>
${o.catalog ? html`<li><a href="/agencatalog/">Data catalog</a></li>` : ''}
</ul>
<form class="search-form" role="search" aria-label="Site" action="/search/" method="get">
<label for="site-search" class="visually-hidden">Search posts</label>
<input type="search" id="site-search" name="q" placeholder="Search" autocomplete="off">
<button type="submit">Search</button>
</form>
</nav>
</header>
<main id="main"${o.wide ? html` class="wide"` : ''}>
${o.body}
</main>
<footer class="site">
<p>Follow: <a href="/feed.atom">Atom</a> · <a href="/feed.json">JSON Feed</a> · <a href="/comments/feed.atom">comments (Atom)</a> · For agents: <a href="/llms.txt">llms.txt</a> · <a href="/llms-full.txt">llms-full.txt</a> · <a href="/api/posts">JSON</a> · <a href="/openapi.json">OpenAPI</a> · <a href="/sitemap.xml">sitemap</a></p>
</footer>
${o.scripts ?? ''}
</body>
</html>
`.value;
}
