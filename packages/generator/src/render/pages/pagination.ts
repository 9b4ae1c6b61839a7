/**
 * Long post lists are split into pages of `pageSize`: page 1 at the list's own path,
 * page n at `{path}page/{n}/`, with `rel=prev/next` links in the head and a visible
 * navigation. Only HTML lists are split; the JSON mirrors stay whole.
 */
import { html, type SafeHtml } from '../html.ts';

export interface Page<T> {
  /** 1-based. */
  number: number;
  count: number;
  items: readonly T[];
}

/** Split a list into pages; an empty list still has one (empty) page. */
export function paginate<T>(items: readonly T[], pageSize: number): Page<T>[] {
  const count = Math.max(1, Math.ceil(items.length / pageSize));
  return Array.from({ length: count }, (_, i) => ({ number: i + 1, count, items: items.slice(i * pageSize, (i + 1) * pageSize) }));
}

/** Site-relative path of page `n` of a list at `base` (which ends with `/`). */
export function pagePath(base: string, n: number): string {
  return n === 1 ? base : `${base}page/${n}/`;
}

/** `<link rel=prev/next>` for the head. */
export function pageLinks(base: string, page: Page<unknown>): SafeHtml {
  return html`${page.number > 1 ? html`<link rel="prev" href="${pagePath(base, page.number - 1)}">` : ''}
${page.number < page.count ? html`<link rel="next" href="${pagePath(base, page.number + 1)}">` : ''}`;
}

/** The visible navigation: previous, page numbers, next. Nothing for a single page. */
export function pageNav(base: string, page: Page<unknown>): SafeHtml {
  if (page.count === 1) return html``;
  const numbers = Array.from({ length: page.count }, (_, i) => i + 1).filter((n) => n === 1 || n === page.count || Math.abs(n - page.number) <= 2);
  return html`<nav class="pagination" aria-label="Pages">
<ul>
${page.number > 1 ? html`<li><a rel="prev" href="${pagePath(base, page.number - 1)}">← Newer</a></li>` : ''}
${numbers.map((n, i) => html`${i > 0 && n - numbers[i - 1]! > 1 ? html`<li aria-hidden="true">…</li>` : ''}<li>${
  n === page.number ? html`<a aria-current="page" href="${pagePath(base, n)}">${n}</a>` : html`<a href="${pagePath(base, n)}">${n}</a>`
}</li>`)}
${page.number < page.count ? html`<li><a rel="next" href="${pagePath(base, page.number + 1)}">Older →</a></li>` : ''}
</ul>
</nav>`;
}

/** dist-relative file of page `n` of a list whose page 1 is `{dir}/index.html` (`dir` '' for the root). */
export function pageFile(dir: string, n: number): string {
  const prefix = dir === '' ? '' : `${dir}/`;
  return n === 1 ? `${prefix}index.html` : `${prefix}page/${n}/index.html`;
}
