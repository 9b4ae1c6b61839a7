/**
 * The comment renderer. Comments come from the network, so the HTML is sanitized
 * (rehype-sanitize, GitHub's schema) before anything trusted is added: highlighting
 * classes after sanitizing, and `rel="nofollow ugc noopener"` on every link (a link left
 * without an address becomes its text). Raw HTML in a comment never reaches the tree
 * at all (remark-rehype drops it).
 */
import { unified, type Processor } from 'unified';
import remarkParse from 'remark-parse';
import { remarkGfmParts } from './gfm.ts';
import { remarkCjkFriendly } from './cjk-friendly.ts';
import remarkRehype from 'remark-rehype';
import rehypeSanitize, { defaultSchema } from 'rehype-sanitize';
import rehypeHighlight from 'rehype-highlight';
import rehypeStringify from 'rehype-stringify';
import { rehypeScrollRegions } from './scroll-regions.ts';
import type { Root, Element, ElementContent, RootContent } from 'hast';
import type { Root as MdastRoot } from 'mdast';
import { LANGUAGES, PLAIN_TEXT } from './languages.ts';


/**
 * Images are not allowed in comments (tracking pixels); only links, text and code, and
 * the disabled checkboxes of task lists (GitHub's schema allows `input` only as those).
 */
const schema = {
  ...defaultSchema,
  tagNames: (defaultSchema.tagNames ?? []).filter((t) => !['img', 'picture', 'source'].includes(t)),
  protocols: { ...defaultSchema.protocols, href: ['http', 'https', 'mailto'] },
};

/**
 * `rel="nofollow ugc noopener"` on every link. A link whose address the sanitizer took
 * away (`javascript:`, `data:`) is no link: it becomes its text, since `<a rel>` without
 * `href` is invalid HTML (html-validate: attribute-misuse).
 */
function rehypeUgcLinks() {
  const visit = (node: Root | Element) => {
    node.children = node.children.flatMap((child): (RootContent | ElementContent)[] => {
      if (child.type !== 'element') return [child];
      visit(child);
      if (child.tagName !== 'a') return [child];
      if (child.properties.href === undefined) return child.children;
      child.properties.rel = ['nofollow', 'ugc', 'noopener'];
      return [child];
    }) as typeof node.children;
  };
  return (tree: Root) => visit(tree);
}

/**
 * A comment's headings sit three levels down (`#` is an `<h4>`, the deepest an `<h6>`):
 * a card is under the page's `<h2>` Comments or a debate side's `<h3>`, and a comment's
 * `# Title` must not start a new top-level section of the page's outline.
 */
const HEADING_SHIFT = 3;

/**
 * Headings three levels down, and a task list's checkboxes (disabled, as GitHub's schema
 * lets them through) named "done" or "not done": a control without a name is nothing to
 * a screen reader (axe: label).
 */
function rehypeCommentOutline() {
  const visit = (node: Root | Element) => {
    for (const child of node.children) {
      if (child.type !== 'element') continue;
      const level = /^h([1-6])$/.exec(child.tagName)?.[1];
      if (level) child.tagName = `h${Math.min(6, Number(level) + HEADING_SHIFT)}`;
      if (child.tagName === 'input') child.properties.ariaLabel = child.properties.checked ? 'done' : 'not done';
      visit(child);
    }
  };
  return (tree: Root) => visit(tree);
}

/**
 * Built on first use and frozen: configuration only (the plugins and the schema), no
 * data from any comment or build, so one per thread is shared safely (it runs in the
 * comment worker). Not a cache of data: build state lives in `build/state.ts`.
 */
let processor: Processor<MdastRoot, any, any, any, string> | undefined;

function getProcessor() {
  processor ??= createCommentProcessor();
  return processor;
}

/** The most characters of code a comment has highlighted; the rest of its code is shown plain. */
export const HIGHLIGHT_BUDGET_CHARS = 2048;

/**
 * Highlighting within a budget: some grammars take time that grows with the square of
 * the code (990 lines of `a b c d e f g h` in a ```` ```c ```` block took 3 s, `1e`×8,000
 * as `ini` 2.6 s, and `${`×7,900 as `bash` ran a render worker out of memory), while
 * the work limits count fenced code as lines only. Code blocks are highlighted in order
 * until their text reaches `HIGHLIGHT_BUDGET_CHARS`; from the block that would pass it,
 * each keeps its language class but is shown as plain text. Deterministic: the same body
 * renders the same on any machine, and the comment is never refused for its code.
 */
function rehypeHighlightBudget() {
  return (tree: Root) => {
    let left = HIGHLIGHT_BUDGET_CHARS;
    const visit = (node: Root | ElementContent) => {
      if (node.type === 'element' && node.tagName === 'code' && Array.isArray(node.properties.className)) {
        const classes = node.properties.className as string[];
        if (classes.some((c) => c.startsWith('language-'))) {
          const length = node.children.reduce((n, child) => n + (child.type === 'text' ? child.value.length : 0), 0);
          // rehype-highlight leaves a block marked `no-highlight` as it is.
          if (length > left) node.properties.className = [...classes, 'no-highlight'];
          left = Math.max(0, left - length);
        }
        return;
      }
      if ('children' in node) for (const child of node.children) visit(child as ElementContent);
    };
    visit(tree);
  };
}

/**
 * A new frozen comment processor. The renderer keeps one per thread; tests build the
 * variant without the CJK-friendly rules to compare against.
 *
 * @param options `cjkFriendly`: CJK-friendly emphasis and strikethrough (default true).
 */
export function createCommentProcessor({ cjkFriendly = true }: { cjkFriendly?: boolean } = {}): Processor<MdastRoot, any, any, any, string> {
  const base = unified().use(remarkParse).use(remarkGfmParts);
  return (cjkFriendly ? base.use(remarkCjkFriendly, { strikethrough: true }) : base)
    .use(remarkRehype)
    .use(rehypeSanitize, schema)
    .use(rehypeHighlightBudget)
    .use(rehypeHighlight, { languages: LANGUAGES, plainText: PLAIN_TEXT, detect: false })
    .use(rehypeUgcLinks)
    .use(rehypeCommentOutline)
    .use(rehypeScrollRegions)
    .use(rehypeStringify)
    .freeze() as unknown as Processor<MdastRoot, any, any, any, string>;
}

/** Render untrusted comment markdown to inert HTML. */
export function renderCommentMarkdown(markdown: string): string {
  return String(getProcessor().processSync(markdown).value);
}
