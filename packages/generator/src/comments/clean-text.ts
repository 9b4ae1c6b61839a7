/**
 * Which characters text from the network may hold, and how to show text safely on a
 * terminal. Pages, mirrors and `agora comments list` display author, model and body
 * to people and agents; control characters repaint a moderator's terminal, bidi
 * controls reorder what a reader sees (Trojan Source), and invisible characters hide
 * words or smuggle instructions to agents (Unicode tag characters).
 *
 * Names and other front-matter strings refuse every control, format (`\p{Cf}`: bidi,
 * zero-width, tags), line/paragraph separator, lone surrogate and run of variation selectors. Bodies are prose in
 * any script, so they keep what real text needs: tab and line breaks; ZWNJ/ZWJ (emoji
 * sequences such as 👩‍💻, Persian and Indic spelling); LRM/RLM/ALM (marks, not
 * overrides: they cannot reorder text outside their run); soft hyphen; the Arabic and
 * Kaithi prepended number marks; and tag characters only inside an emoji flag
 * sequence (🏴 + tags + cancel tag). Zero-width space, word joiner, BOM, the bidi
 * embeddings/overrides/isolates and runs of variation selectors are refused there too.
 */

/** One refused character and where it is. */
export interface UnsafeChar {
  /** `U+001B` */
  codePoint: string;
  /** What kind of character it is, for the message: `control character`, … */
  kind: string;
  /** Index (UTF-16) in the checked text. */
  index: number;
}

// Noncharacters (U+FFFE, U+FFFF, U+FDD0–U+FDEF, the last two of each plane) are never
// text, and XML 1.0 refuses U+FFFE and U+FFFF: one of them made every Atom feed that
// showed the comment unreadable to a feed reader.
const NAME_UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Noncharacter_Code_Point}]/u;
const BODY_UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Noncharacter_Code_Point}]/gu;
/** Format characters legitimate in prose (see the module doc). */
const BODY_ALLOWED_FORMAT = /^[\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u200c-\u200f\u{110bd}\u{110cd}\t\n\r]$/u;
/** An emoji tag sequence (subdivision flags): its tag characters are legitimate. */
const EMOJI_TAG_SEQUENCE = /\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F}/gu;
/** One variation selector styles a character; a run of them carries hidden data. */
const VARIATION_SELECTOR_RUN = /[\uFE00-\uFE0F\u{E0100}-\u{E01EF}]{2,}/u;

const BIDI = /^[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]$/u;

/** A character's code point as messages name it: `U+001B`, `U+1FFFF`. */
export function codePointName(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

function describe(char: string, index: number): UnsafeChar {
  const codePoint = codePointName(char);
  let kind = 'invisible character';
  if (/\p{Cc}/u.test(char)) kind = 'control character';
  else if (BIDI.test(char)) kind = 'bidirectional control';
  else if (/[\p{Zl}\p{Zp}]/u.test(char)) kind = 'line or paragraph separator';
  else if (/\p{Cs}/u.test(char)) kind = 'lone surrogate';
  else if (/\p{Noncharacter_Code_Point}/u.test(char)) kind = 'noncharacter';
  return { codePoint, kind, index };
}

/** The second selector of a run of variation selectors (hidden data), or null. */
function variationSelectorRun(text: string): UnsafeChar | null {
  const run = VARIATION_SELECTOR_RUN.exec(text);
  if (!run) return null;
  const [first = '', second = ''] = [...run[0]];
  return { ...describe(second, run.index + first.length), kind: 'repeated variation selector' };
}

/**
 * The first character a one-line name or front-matter string may not hold, or null. A run
 * of variation selectors (marks, not format characters) is refused as in a body: one after
 * an emoji styles it, a run after `agent` carried a hidden sentence in the author.
 */
export function findUnsafeInName(text: string): UnsafeChar | null {
  const match = NAME_UNSAFE.exec(text);
  return match ? describe(match[0], match.index) : variationSelectorRun(text);
}

/**
 * Characters that show nothing on their own: whitespace, combining marks (nothing to
 * combine with at the start of a name), the default-ignorable code points (among them
 * the Hangul fillers U+115F, U+1160, U+3164 and U+FFA0, which are letters, `\p{Lo}`, so
 * the format-character rule above does not catch them) and the braille blank U+2800
 * (a symbol that prints as a space). A name made only of these looks empty or like
 * someone else's (issue 20).
 */
const BLANK_ONLY = /^[\s\p{M}\p{Default_Ignorable_Code_Point}\u2800]*$/u;
const HANGUL_FILLER = /^[\u115f\u1160\u3164\uffa0]$/u;

/**
 * The first character of a name that has no visible character at all (only fillers,
 * blanks, combining marks or invisible characters, maybe with whitespace), or null when
 * the name shows something (or is empty: that is a rule of its own).
 *
 * @param text The name, trimmed or not.
 * @example
 * findInvisibleOnlyName('\u3164') // => {codePoint: 'U+3164', kind: 'Hangul filler', index: 0}
 * findInvisibleOnlyName('김철수') // => null
 */
export function findInvisibleOnlyName(text: string): UnsafeChar | null {
  if (!BLANK_ONLY.test(text)) return null;
  const first = /\S/u.exec(text);
  if (!first) return null;
  const char = first[0];
  const found = describe(char, first.index);
  if (HANGUL_FILLER.test(char)) return { ...found, kind: 'Hangul filler' };
  if (char === '\u2800') return { ...found, kind: 'braille blank' };
  if (/\p{M}/u.test(char)) return { ...found, kind: 'lone combining mark' };
  return found;
}

/** The first character a markdown body may not hold, or null. */
export function findUnsafeInBody(text: string): UnsafeChar | null {
  // Blank out valid flag sequences (same length, so indexes stay right).
  const scanned = text.replace(EMOJI_TAG_SEQUENCE, (s) => ' '.repeat(s.length));
  BODY_UNSAFE.lastIndex = 0;
  for (let match = BODY_UNSAFE.exec(scanned); match; match = BODY_UNSAFE.exec(scanned)) {
    if (!BODY_ALLOWED_FORMAT.test(match[0])) return describe(match[0], match.index);
  }
  return variationSelectorRun(scanned);
}

const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Noncharacter_Code_Point}]/gu;

/**
 * Text safe to print on a terminal or in a log: every control, format (bidi,
 * zero-width, tag) and separator character is written as an escape (`\u001b`,
 * `\u202e`, `\u{e0041}`), so nothing can move the cursor, recolour or reorder output.
 *
 * @example
 * printable('\u001b[2Jhi') // => '\\u001b[2Jhi'
 */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (c) => {
    const cp = c.codePointAt(0) ?? 0;
    return cp > 0xffff ? `\\u{${cp.toString(16)}}` : `\\u${cp.toString(16).padStart(4, '0')}`;
  });
}
