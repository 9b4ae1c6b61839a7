/**
 * Maps a document path (`services[3].status`) back to its line and column in the
 * YAML source, so catalog messages point at the offending spot.
 */
import { isMap, isScalar, isSeq, type Document, type LineCounter, type Node } from 'yaml';
import type { DocPath } from './check-schema.ts';

/** 1-based position in a file. */
export interface Place {
  line: number;
  column: number;
}

/**
 * Position of the node at `path`, or of its nearest existing ancestor.
 *
 * @param doc The parsed YAML document.
 * @param lineCounter The counter given to `parseDocument`.
 * @param path Path of the value.
 * @param onKey Point at the key of the last segment rather than its value (optional).
 */
export function placeOf(doc: Document, lineCounter: LineCounter, path: DocPath, onKey = false): Place {
  let node: unknown = doc.contents;
  let offset = (node as Node | null)?.range?.[0] ?? 0;
  for (const [index, part] of path.entries()) {
    let next: unknown;
    if (isMap(node)) {
      const pair = node.items.find((item) => (isScalar(item.key) ? item.key.value : item.key) === part);
      if (!pair) break;
      const last = index === path.length - 1;
      next = onKey && last ? pair.key : pair.value;
      if (!next && isScalar(pair.key)) next = pair.key;
    } else if (isSeq(node) && typeof part === 'number') {
      next = node.items[part];
    }
    const range = (next as Node | null | undefined)?.range;
    if (!range) break;
    node = next;
    offset = range[0];
  }
  const { line, col } = lineCounter.linePos(offset);
  return { line, column: col };
}
