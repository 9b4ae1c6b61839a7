/**
 * Plain-text excerpt of an HTML notice body: scripts and tags removed, entities
 * decoded, whitespace collapsed, at most 2000 characters.
 */

/** Longest excerpt, in characters (spec 8). */
export const EXCERPT_MAX = 2000;

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', middot: '·', hellip: '…', ndash: '–', mdash: '—', lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”' };

function decodeEntities(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
    return NAMED[name.toLowerCase()] ?? whole;
  });
}

/**
 * The excerpt of an HTML fragment.
 *
 * @param html Notice body as HTML (or plain text).
 */
export function toExcerpt(html: string): string {
  const withoutBlocks = html.replace(/<!--[\s\S]*?-->/g, ' ').replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ');
  // Block tags break lines; inline tags (b, span, a) vanish without splitting words.
  const breaks = withoutBlocks.replace(/<\/?\s*(br|p|div|li|tr|td|th|h\d|table|ul|ol|section|article|blockquote)\b[^>]*>/gi, '\n');
  const plain = decodeEntities(breaks.replace(/<[^>]*>/g, ''));
  const collapsed = plain
    .split('\n')
    .map((line) => line.replace(/[\s\u00a0]+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
  return [...collapsed].slice(0, EXCERPT_MAX).join('');
}
