/**
 * The links and images of a markdown tree, each where its URL is written: an inline link
 * or image at itself, a reference (`[text][id]`, `![alt][id]`) at its definition, once,
 * and only when something uses it. The first definition of a label holds (CommonMark
 * 4.7), as the renderer reads it. Rule `dead-link` reads them from the renderer's walk
 * (`render/markdown.ts`), rule `local-file` from a parse of its own (`local-files.ts`).
 */
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import type { Definition, Root } from 'mdast';

/** A node of a markdown tree. */
export type MarkdownNode = Root | Root['children'][number];

/** A link or image, or a definition used by references: whether links, images or both use it. */
export interface LinkUse {
  url: string;
  line: number;
  column: number;
  image: boolean;
  link: boolean;
}

let parser: ReturnType<typeof unified> | undefined;

/** `markdown` as CommonMark reads it (no GFM), with positions. */
export function parseCommonMark(markdown: string): Root {
  parser ??= unified().use(remarkParse).freeze() as unknown as ReturnType<typeof unified>;
  return parser.parse(markdown) as Root;
}

/** Call `see` on `node` and every node below it, in document order. */
export function visitNodes(node: MarkdownNode, see: (node: MarkdownNode) => void): void {
  see(node);
  if ('children' in node) for (const child of node.children) visitNodes(child as MarkdownNode, see);
}

const at = (node: { position?: Root['position'] }) => ({ line: node.position?.start.line ?? 1, column: node.position?.start.column ?? 1 });

/**
 * Collects the link uses of a tree from a walk the caller already makes: `see` each node,
 * then `uses()` (inline ones in document order, then the used definitions, in order of
 * first use).
 */
export function linkCollector(): { see(node: MarkdownNode): void; uses(): LinkUse[] } {
  const inline: LinkUse[] = [];
  const definitions = new Map<string, Definition>();
  const used = new Map<string, { image: boolean; link: boolean }>();
  return {
    see(node) {
      if (node.type === 'link' || node.type === 'image') inline.push({ url: node.url, ...at(node), image: node.type === 'image', link: node.type === 'link' });
      else if (node.type === 'definition') {
        if (!definitions.has(node.identifier)) definitions.set(node.identifier, node);
      } else if (node.type === 'linkReference' || node.type === 'imageReference') {
        const use = used.get(node.identifier) ?? { image: false, link: false };
        if (node.type === 'imageReference') use.image = true;
        else use.link = true;
        used.set(node.identifier, use);
      }
    },
    uses() {
      const out = [...inline];
      for (const [identifier, use] of used) {
        const definition = definitions.get(identifier);
        if (definition) out.push({ url: definition.url, ...at(definition), ...use });
      }
      return out;
    },
  };
}

/** The link uses of a whole tree (see `linkCollector`). */
export function linkUses(tree: Root): LinkUse[] {
  const collector = linkCollector();
  visitNodes(tree, collector.see);
  return collector.uses();
}
