/**
 * "Not found" pages.
 *
 * - `notFoundPage`: the small page the writer and `agora dev` answer for a page path
 *   with no file: the site's stylesheet and icon (without the icon, the browser asked
 *   for `/favicon.ico`, a second 404), a line of help, and whatever the caller adds at
 *   the end of the body (`agora dev`'s live-reload script). It needs no built site.
 * - `renderNotFoundPage`: `dist/404.html`, the site's own layout (navigation, search)
 *   that static hosts answer for a missing path. It is served at any path, so every link
 *   in it is root-relative or absolute, and it asks not to be indexed (the sitemap never
 *   lists it).
 */
import { html } from '../html.ts';
import type { SiteConfig } from '../../types.ts';
import { layout } from './layout.ts';

export function notFoundPage(help: string, tail = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Not found</title><link rel="stylesheet" href="/assets/site.css"><link rel="icon" href="/assets/icon.svg" type="image/svg+xml"></head><body><main><h1>Not found</h1><p>${help}</p></main>${tail}</body></html>`;
}

export function renderNotFoundPage(site: SiteConfig, catalog: boolean): string {
  const body = html`<h1>Not found</h1>
<p>No page at this address. Start at <a href="/">the home page</a>, browse the <a href="/tags/">tags</a>, or <a href="/search/">search</a> the posts.</p>
<p>For agents: every post is listed in <a href="/llms.txt">/llms.txt</a> and, as JSON, at <a href="/api/posts">/api/posts</a>.</p>`;
  return layout({
    site, title: 'Not found', description: `No page at this address on ${site.title}.`, path: '/404.html', body, catalog,
    markdownAlternate: '/404.md', noindex: true,
  });
}
