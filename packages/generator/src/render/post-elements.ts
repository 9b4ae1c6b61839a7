/**
 * One rehype pass over a post's tree doing what three plugins did in three walks:
 * heading ids (rehype-slug: github-slugger over the heading's text), build-time
 * highlighting (rehype-highlight with `detect: false` and a plain-text list, calling
 * lowlight directly with grammars registered on first use) and the keyboard-reachable
 * scroll regions of `scroll-regions.ts`. Output is byte-identical to
 * `rehypeSlug` → `rehypeHighlight` → `rehypeScrollRegions` (test/generator/render-identity.test.ts),
 * except that a link or image whose URL has a scheme hast-util-sanitize would not allow
 * (`javascript:`, `data:`, `vbscript:` …) loses the URL, as in comments: the post's
 * HTML also goes into feeds and `/api/post`, read without the site's CSP; and that a task list's
 * checkboxes are named `done` or `not done`, as in comments.
 */
import GithubSlugger from 'github-slugger';
import { toString } from 'hast-util-to-string';
import { toText } from 'hast-util-to-text';
import type { Element, ElementContent, Root, RootContent } from 'hast';
import { createLazyHighlighter, grammarOf, PLAIN_TEXT } from './grammars.ts';
import { scrollRegionLabel } from './scroll-regions.ts';

/** rehype-highlight's reading of a `code` element's classes: false for no-highlight. */
function language(node: Element): string | false | undefined {
  const list = node.properties.className;
  if (!Array.isArray(list)) return undefined;
  let name: string | undefined;
  for (const item of list) {
    const value = String(item);
    if (value === 'no-highlight' || value === 'nohighlight') return false;
    if (!name && value.slice(0, 5) === 'lang-') name = value.slice(5);
    if (!name && value.slice(0, 9) === 'language-') name = value.slice(9);
  }
  return name;
}

let highlighter: ReturnType<typeof createLazyHighlighter> | undefined;

/** The schemes each URL property may have (hast-util-sanitize's defaults); relative URLs always pass. */
const SAFE_SCHEMES = { href: ['http', 'https', 'mailto', 'xmpp', 'irc', 'ircs'], src: ['http', 'https'] } as const;

/** Whether `url` is relative or has one of `schemes` (a colon before any `/`, `?` or `#` makes a scheme, as hast-util-sanitize reads it). */
function safeUrl(url: string, schemes: readonly string[]): boolean {
  const colon = url.indexOf(':');
  if (colon < 0) return true;
  for (const mark of ['/', '?', '#']) {
    const at = url.indexOf(mark);
    if (at > -1 && at < colon) return true;
  }
  return schemes.includes(url.slice(0, colon).toLowerCase());
}

/** Drop a link's or image's URL whose scheme is not safe. */
function dropUnsafeUrl(node: Element): void {
  for (const name of ['href', 'src'] as const) {
    const value = node.properties[name];
    if (typeof value === 'string' && !safeUrl(value, SAFE_SCHEMES[name])) delete node.properties[name];
  }
}

/** The plugin: one slugger per processor, one highlighter per thread (grammars compile once). */
export function rehypePostElements() {
  const slugs = new GithubSlugger();
  const highlight = (highlighter ??= createLazyHighlighter());

  const highlightCode = (code: Element): void => {
    const lang = language(code);
    if (lang === false || !lang || PLAIN_TEXT.includes(lang)) return;
    if (!Array.isArray(code.properties.className)) code.properties.className = [];
    const classes = code.properties.className as (string | number)[];
    if (!classes.includes('hljs')) classes.unshift('hljs');
    const grammar = grammarOf(lang);
    // rehype-highlight leaves an unknown language unhighlighted (with a file message nobody reads).
    if (!grammar) return;
    const only = code.children.length === 1 ? code.children[0] : undefined;
    const text = only?.type === 'text' ? only.value : toText(code, { whitespace: 'pre' });
    const result = highlight(grammar, text);
    if (result.children.length > 0) code.children = result.children as ElementContent[];
  };

  /** `regions`: whether rehypeScrollRegions's walk reaches these children (it stops at pre and table). */
  const walk = (children: (RootContent | ElementContent)[], regions: boolean): void => {
    for (let i = 0; i < children.length; i++) {
      const node = children[i]!;
      if (node.type !== 'element') continue;
      const tag = node.tagName;
      if (tag.length === 2 && tag.charCodeAt(0) === 104 && tag.charCodeAt(1) > 48 && tag.charCodeAt(1) < 55) {
        if (!node.properties.id) node.properties.id = slugs.slug(toString(node));
      }
      if (tag === 'a' || tag === 'img') dropUnsafeUrl(node);
      // A task list's checkbox (disabled), named as in comments: a control without a name is nothing to a screen reader (axe: label).
      else if (tag === 'input') node.properties.ariaLabel = node.properties.checked ? 'done' : 'not done';
      if (tag === 'pre') {
        for (const child of node.children) if (child.type === 'element' && child.tagName === 'code') highlightCode(child);
        if (regions) Object.assign(node.properties, { tabIndex: 0, role: 'group', ariaLabel: scrollRegionLabel(node) });
        // Markdown puts only `code` with text in a `pre`: nothing else to do inside.
      } else if (tag === 'table') {
        walk(node.children, false);
        if (regions) {
          children[i] = {
            type: 'element', tagName: 'div',
            properties: { className: ['table-scroll'], tabIndex: 0, role: 'group', ariaLabel: 'Table' },
            children: [node],
          };
        }
      } else walk(node.children, regions);
    }
  };

  return (tree: Root) => {
    slugs.reset();
    walk(tree.children, true);
  };
}
