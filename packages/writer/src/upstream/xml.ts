/**
 * The one XML reader of the upstream clients (fast-xml-parser): validates first, keeps
 * values as strings (`"000"`, `" 164,000"` stay text), merges CDATA into text, and
 * decodes character references (`&#39;`, `&#xAC00;`): without `htmlEntities` the
 * parser decodes only the five named XML entities and served `&#39;` as text.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';

const parser = new XMLParser({
  ignoreAttributes: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  htmlEntities: true,
});

/**
 * Parse an XML document.
 *
 * @param text The document.
 * @returns The parsed object, or `undefined` when the text is not well-formed XML.
 */
export function parseXml(text: string): unknown {
  if (XMLValidator.validate(text) !== true) return undefined;
  try {
    return parser.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
