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
  /** `<link rel=alternate type=text/markdown>` target, relative (e.g. `post.md`). */
  markdownAlternate?: string;
  /** JSON mirror of this page, site-relative. */
  jsonAlternate?: string;
  ogType?: 'website' | 'article';
  /** Extra head elements (already safe), e.g. article metadata. */
  head?: SafeHtml;
  /** Script tags at the end of the body. */
  scripts?: SafeHtml;
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
<meta name="description" content="${o.description}">
<link rel="canonical" href="${canonical}">
${o.markdownAlternate ? html`<link rel="alternate" type="text/markdown" href="${o.markdownAlternate}">` : ''}
${o.jsonAlternate ? html`<link rel="alternate" type="application/json" href="${o.jsonAlternate}">` : ''}
<link rel="alternate" type="text/plain" href="/llms.txt" title="llms.txt">
<meta property="og:type" content="${o.ogType ?? 'website'}">
<meta property="og:site_name" content="${o.site.title}">
<meta property="og:title" content="${o.title}">
<meta property="og:description" content="${o.description}">
<meta property="og:url" content="${canonical}">
<meta name="twitter:card" content="summary">
<meta name="color-scheme" content="light dark">
<link rel="stylesheet" href="/assets/site.css">
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
<li><a href="/agencatalog/">Data catalog</a></li>
</ul>
</nav>
</header>
<main id="main">
${o.body}
</main>
<footer class="site">
<p>For agents: <a href="/llms.txt">llms.txt</a> · <a href="/llms-full.txt">llms-full.txt</a> · <a href="/api/posts">JSON</a> · <a href="/openapi.json">OpenAPI</a> · <a href="/sitemap.xml">sitemap</a></p>
</footer>
${o.scripts ?? ''}
</body>
</html>
`.value;
}
