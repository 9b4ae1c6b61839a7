/**
 * The post pipeline as it was before issue 13 (renderer `post-3`): remark-parse, the GFM
 * parts, style notes, remark-rehype, then rehype-slug, rehype-highlight (all of
 * `LANGUAGES` registered up front) and `rehypeScrollRegions` as three separate plugins,
 * rehype-stringify. The reference that test/generator/render-identity.test.ts and
 * `npm run bench:render` hold `renderMarkdown` to, byte for byte. Since issue 20 (renderer
 * `post-4`) it parses with the CJK-friendly emphasis and strikethrough rules too: this is
 * a reference for the pipeline's shape, not for the markdown dialect
 * (test/generator/cjk-friendly.test.ts compares with and without those rules).
 */
import { unified, type Processor } from 'unified';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import rehypeSlug from 'rehype-slug';
import rehypeHighlight from 'rehype-highlight';
import rehypeStringify from 'rehype-stringify';
import type { Root } from 'mdast';
import type { Element, Root as HastRoot } from 'hast';
import { remarkGfmParts } from '../packages/generator/src/render/gfm.ts';
import { remarkCjkFriendly } from '../packages/generator/src/render/cjk-friendly.ts';
import { LANGUAGES, PLAIN_TEXT } from '../packages/generator/src/render/languages.ts';
import { rehypeScrollRegions } from '../packages/generator/src/render/scroll-regions.ts';
import { mayUseGfm, remarkStyleNotes } from '../packages/generator/src/render/markdown.ts';
import type { RenderedPost, RenderNote } from '../packages/generator/src/types.ts';

type P = Processor<Root, any, any, any, string>;

/** Since `post-6` a task list's checkboxes are named `done` or `not done` (axe: label), as in comments. */
function rehypeTaskListNames() {
  const visit = (node: HastRoot | Element): void => {
    for (const child of node.children) {
      if (child.type !== 'element') continue;
      if (child.tagName === 'input') child.properties.ariaLabel = child.properties.checked ? 'done' : 'not done';
      visit(child);
    }
  };
  return (tree: HastRoot) => visit(tree);
}
const processors = new Map<boolean, P>();

function create(gfm: boolean): P {
  const base = unified().use(remarkParse);
  return (gfm ? base.use(remarkGfmParts) : base)
    .use(remarkCjkFriendly, { strikethrough: gfm })
    .use(remarkStyleNotes)
    .use(remarkRehype)
    .use(rehypeSlug)
    .use(rehypeHighlight, { languages: LANGUAGES, plainText: PLAIN_TEXT, detect: false })
    .use(rehypeScrollRegions)
    .use(rehypeTaskListNames)
    .use(rehypeStringify)
    .freeze() as unknown as P;
}

/** The frozen reference processor (with or without the GFM parts). */
export function referenceProcessor(gfm: boolean): P {
  let proc = processors.get(gfm);
  if (!proc) processors.set(gfm, (proc = create(gfm)));
  return proc;
}

/** `gfm`: force the GFM parts on or off (default: the renderer's own `mayUseGfm` choice). */
export function renderReference(markdown: string, gfm = mayUseGfm(markdown)): RenderedPost {
  const proc = referenceProcessor(gfm);
  const file = proc.processSync(markdown);
  return { html: String(file.value), notes: (file.data.notes as RenderNote[] | undefined) ?? [] };
}
