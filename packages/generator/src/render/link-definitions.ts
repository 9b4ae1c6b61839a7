/**
 * Link reference definitions shown as text. A definition (`[x]: https://…`) holds for the
 * whole markdown document, wherever it stands: inside a block quote, a list item, after a
 * tab, with `\]` in its label. Text from a commenter pasted into a larger document (MCP
 * `get_post`) must not define links for the rest of it, so each definition CommonMark finds
 * gets a backslash before its `[` and reads as the line it was.
 */
import { parseCommonMark, visitNodes } from '../validate/markdown-links.ts';

/** Offsets of the `[` that opens each definition in `markdown`. */
function definitionStarts(markdown: string): number[] {
  const starts: number[] = [];
  visitNodes(parseCommonMark(markdown), (node) => {
    if (node.type !== 'definition') return;
    const at = markdown.indexOf('[', node.position?.start.offset ?? 0);
    if (at >= 0) starts.push(at);
  });
  return starts;
}

/**
 * `markdown` with every link reference definition escaped (`\[x]: https://…`), as
 * CommonMark reads it (code is not touched: a `[x]:` line there is no definition).
 *
 * @example
 * definitionsAsText('> - [x]: https://evil.example/') // => '> - \\[x]: https://evil.example/'
 */
export function definitionsAsText(markdown: string): string {
  // Every definition has `]:`; most text has none and is not parsed.
  let text = markdown;
  for (let round = 0; round < 8 && text.includes(']:'); round++) {
    const starts = definitionStarts(text);
    if (starts.length === 0) break;
    for (const at of starts.sort((a, b) => b - a)) text = `${text.slice(0, at)}\\${text.slice(at)}`;
  }
  return text;
}
