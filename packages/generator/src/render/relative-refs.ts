/**
 * The relative links and images of a rendered body (`#detail`, `../other/`, `/guide/x/`),
 * resolved against the page they were written for, for a body shown somewhere else: in a
 * feed (a reader resolves them against the feed's URL) or a comment on `/comments/` and
 * `/debates/` (the browser resolves them against that page).
 */

/**
 * An `<a href>` or `<img src>` that names no scheme. The HTML is the renderers' (attributes
 * double-quoted, `<` in text escaped as `&#x3C;`), so a match is a tag, never text.
 */
const RELATIVE_REF = /(<(?:a|img)\s[^>]*?\b(?:href|src)=")(?![a-zA-Z][a-zA-Z0-9+.-]*:)([^"]*)"/g;

/** Stands in for the origin of a root-relative page. */
const NO_ORIGIN = 'http://agora.invalid';

/**
 * `html` with every relative `href` and `src` resolved against `page`: an absolute URL for
 * an absolute `page` (feeds), a root-relative path for a root-relative one (`/guide/x/`).
 * A body without a relative one is returned as it is.
 */
export function resolveRelativeRefs(html: string, page: string): string {
  if (!html.includes('href="') && !html.includes('src="')) return html;
  const rooted = page.startsWith('/');
  const base = rooted ? `${NO_ORIGIN}${page}` : page;
  return html.replace(RELATIVE_REF, (all, start: string, ref: string) => {
    // `//host/x` leads to the same place from any page of the site (and keeps the page's scheme).
    if (rooted && ref.startsWith('//')) return all;
    try {
      const url = new URL(ref.replaceAll('&#x26;', '&').replaceAll('&amp;', '&'), base);
      const resolved = rooted && url.origin === NO_ORIGIN ? `${url.pathname}${url.search}${url.hash}` : url.href;
      return `${start}${resolved.replaceAll('&', '&#x26;').replaceAll('"', '%22')}"`;
    } catch {
      return all;
    }
  });
}
