/**
 * The post renderer: one frozen unified processor per thread (two: with and without
 * the GFM parts), reused for every post: remark-parse, the GFM parts, CJK-friendly
 * emphasis and strikethrough (`cjk-friendly.ts`), style notes,
 * remark-rehype, one pass for heading ids + highlighting + scroll regions
 * (`post-elements.ts`, what rehype-slug, rehype-highlight and `rehypeScrollRegions`
 * did in three walks), rehype-stringify.
 * Raw HTML in markdown is dropped. While the tree is at hand it also collects the
 * style notes of spec 2.3 (code blocks without a language, conclusion not first) and
 * the links the `dead-link` rule checks against the site (`validate/dead-link.ts`), so
 * no file is ever parsed twice.
 */
import { unified, type Processor } from 'unified';
import remarkParse from 'remark-parse';
import { remarkGfmParts } from './gfm.ts';
import { remarkCjkFriendly } from './cjk-friendly.ts';
import remarkRehype from 'remark-rehype';
import rehypeStringify from 'rehype-stringify';
import { rehypePostElements } from './post-elements.ts';
import { linkCollector } from '../validate/markdown-links.ts';
import type { Root } from 'mdast';
import type { BodyLink, RenderedPost, RenderNote } from '../types.ts';

export { RENDERER_VERSION } from './version.ts';

/**
 * Whether a link destination may name a page of the site, for `dead-link`: relative,
 * `/`-rooted or http(s); not empty, not `#fragment` or `?query` alone (this page), and no
 * other scheme (`mailto:`; the renderer drops the rest).
 */
export function mayBeSiteLink(url: string): boolean {
  if (url === '' || url.startsWith('#') || url.startsWith('?')) return false;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  return scheme === undefined || scheme === 'http' || scheme === 'https';
}

/** remark plugin: store style notes in `file.data.notes`, and the links `dead-link` checks in `file.data.links`. */
export function remarkStyleNotes() {
  return (tree: Root, file: { data: Record<string, unknown> }) => {
    const notes: RenderNote[] = [];
    // Collected in this walk; a reference is checked at its definition, once, if anything uses it.
    const links = linkCollector();
    const first = tree.children.find((node) => node.type !== 'definition');
    if (first && first.type !== 'paragraph') {
      notes.push({
        line: first.position?.start.line ?? 1,
        column: first.position?.start.column ?? 1,
        ruleId: 'conclusion-first',
        message: `Unexpected ${first.type} at the start of the body, expected a paragraph stating the conclusion`,
        fix: 'open the post with one paragraph that states the conclusion',
      });
    }
    // The page's title is its one h1: a body's headings start at `##` and go down one level at a time.
    let level = 1;
    const visit = (node: Root | Root['children'][number]) => {
      if (node.type === 'heading') {
        const at = { line: node.position?.start.line ?? 1, column: node.position?.start.column ?? 1 };
        if (node.depth === 1) notes.push({ ...at, ruleId: 'heading-levels', message: 'Unexpected level-1 heading (`#`) in the body: the post\'s title is the page\'s one level-1 heading', fix: 'start the body\'s sections at `##`' });
        else if (node.depth > level + 1) notes.push({ ...at, ruleId: 'heading-levels', message: `Unexpected level-${node.depth} heading after level ${level}: screen readers list the outline, and a level is skipped`, fix: `make it \`${'#'.repeat(level + 1)}\`` });
        level = node.depth;
      }
      if (node.type === 'link' && !hasText(node)) {
        notes.push({
          line: node.position?.start.line ?? 1,
          column: node.position?.start.column ?? 1,
          ruleId: 'link-text',
          message: `Unexpected link without text to \`${node.url.slice(0, 80)}\`: a screen reader has nothing to read for it, and a reader nothing to click`,
          fix: 'write the link\'s words inside the brackets: [what it is](url)',
        });
      }
      links.see(node);
      if (node.type === 'code' && !node.lang) {
        notes.push({
          line: node.position?.start.line ?? 1,
          column: node.position?.start.column ?? 1,
          ruleId: 'code-lang',
          message: 'Unexpected code block without a language tag',
          fix: 'add a language after the opening fence, e.g. ```bash (use ```text for plain output)',
        });
      }
      if ('children' in node) for (const child of node.children) visit(child as Root['children'][number]);
    };
    visit(tree);
    file.data.notes = notes;
    // A link wins over an image when one definition serves both.
    file.data.links = links
      .uses()
      .filter((use) => mayBeSiteLink(use.url))
      .map(({ line, column, url, image, link }): BodyLink => ({ line, column, url, ...(image && !link ? { image: true as const } : {}) }));
  };
}

/** Whether a link shows anything to read: text, inline code, or an image with alt text. */
function hasText(node: Root['children'][number]): boolean {
  if (node.type === 'text' || node.type === 'inlineCode') return node.value.trim() !== '';
  if (node.type === 'image') return (node.alt ?? '').trim() !== '';
  return 'children' in node && (node.children as Root['children']).some(hasText);
}

type PostProcessor = Processor<Root, any, any, any, string>;
const processors: { gfm?: PostProcessor; plain?: PostProcessor } = {};

/**
 * Tables, strikethrough and task lists cannot occur without `|`, `~~` or `[`; most
 * posts have none of them and parse ~17 % faster without the extensions (same output).
 */
export function mayUseGfm(markdown: string): boolean {
  return markdown.includes('|') || markdown.includes('~~') || /\[[ xX]\]/.test(markdown);
}

function getProcessor(gfm: boolean): PostProcessor {
  const key = gfm ? 'gfm' : 'plain';
  return (processors[key] ??= createPostProcessor({ gfm }));
}

export interface PostProcessorOptions {
  /** Register the GFM parts (tables, strikethrough, task lists). */
  gfm: boolean;
  /** CJK-friendly emphasis and strikethrough (default true; false is plain CommonMark + GFM, for tests). */
  cjkFriendly?: boolean;
}

/**
 * A new frozen post processor. The renderer keeps one per thread (`renderMarkdown`);
 * tests build the variant without the CJK-friendly rules to compare against.
 *
 * @param options Which syntax extensions to register.
 */
export function createPostProcessor({ gfm, cjkFriendly = true }: PostProcessorOptions): PostProcessor {
  const base = unified().use(remarkParse);
  const syntax = gfm ? base.use(remarkGfmParts) : base;
  return (cjkFriendly ? syntax.use(remarkCjkFriendly, { strikethrough: gfm }) : syntax)
    .use(remarkStyleNotes)
    .use(remarkRehype)
    .use(rehypePostElements)
    .use(rehypeStringify)
    .freeze() as unknown as PostProcessor;
}

/** Render a post's markdown body to HTML plus style notes. */
export function renderMarkdown(markdown: string): RenderedPost {
  const file = getProcessor(mayUseGfm(markdown)).processSync(markdown);
  const links = (file.data.links as BodyLink[] | undefined) ?? [];
  return { html: String(file.value), notes: (file.data.notes as RenderNote[] | undefined) ?? [], ...(links.length > 0 ? { links } : {}) };
}

/** For bench/render-stages.ts: the frozen full-pipeline processor a body would use, with its cache key. */
export function stageProcessors(): { pick: (markdown: string) => [key: string, processor: PostProcessor] } {
  return { pick: (markdown) => { const gfm = mayUseGfm(markdown); return [gfm ? 'gfm' : 'plain', getProcessor(gfm)]; } };
}
