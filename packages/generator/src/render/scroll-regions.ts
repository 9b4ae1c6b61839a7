/**
 * Code blocks and tables scroll sideways on narrow screens; a region that scrolls must
 * be reachable by keyboard (WCAG 2.1.1, axe `scrollable-region-focusable`). This rehype
 * plugin makes each `pre` focusable with a name (`Code: bash`) and wraps each `table`
 * in a focusable, named `div` that does the scrolling (a table's own role must stay).
 * `role="group"`, not `region`: a region would ask for a `section` per code block.
 */
import type { Element, ElementContent, Root, RootContent } from 'hast';

/** `Code: <lang>` (or `Code`) for a `pre`. */
export function scrollRegionLabel(pre: Element): string {
  const code = pre.children.find((c): c is Element => c.type === 'element' && c.tagName === 'code');
  const classes = code?.properties.className;
  const lang = Array.isArray(classes) ? classes.map(String).find((c) => c.startsWith('language-'))?.slice(9) : undefined;
  return lang && lang !== 'text' ? `Code: ${lang}` : 'Code';
}

function visit(children: (RootContent | ElementContent)[]): void {
  for (let i = 0; i < children.length; i++) {
    const node = children[i]!;
    if (node.type !== 'element') continue;
    if (node.tagName === 'pre') {
      Object.assign(node.properties, { tabIndex: 0, role: 'group', ariaLabel: scrollRegionLabel(node) });
    } else if (node.tagName === 'table') {
      children[i] = {
        type: 'element', tagName: 'div',
        properties: { className: ['table-scroll'], tabIndex: 0, role: 'group', ariaLabel: 'Table' },
        children: [node],
      };
    } else visit(node.children);
  }
}

/** The plugin (after sanitizing: the attributes are ours, not the author's). */
export function rehypeScrollRegions() {
  return (tree: Root) => visit(tree.children);
}
