/**
 * Tokens for the search index. Words are split on whitespace, punctuation and symbols;
 * Hangul runs become overlapping character bigrams, because Korean attaches particles
 * and endings to words (`형태소를`, `형태소의`) and no dictionary ships with us: the
 * bigrams `형태`, `태소` match every form. A one-syllable run stays as is.
 */

const SPLIT = /[\s\p{P}\p{S}]+/u;
const HANGUL_RUNS = /(\p{Script=Hangul}+)/u;
const HAS_HANGUL = /\p{Script=Hangul}/u;

/** One run of a word: Hangul or not. */
export interface WordPart {
  text: string;
  hangul: boolean;
}

/** Bigrams of a Hangul run (`분석기` → `분석`, `석기`). */
export function bigrams(run: string): string[] {
  const chars = [...run];
  if (chars.length < 2) return chars;
  const out: string[] = [];
  for (let i = 0; i < chars.length - 1; i++) out.push(chars[i]! + chars[i + 1]!);
  return out;
}

/**
 * The words of a text, split on whitespace, punctuation and symbols.
 *
 * @param text A title, summary, body or query.
 */
export function splitWords(text: string): string[] {
  return text.split(SPLIT).filter((word) => word !== '');
}

/**
 * A word's Hangul and other runs, in order (`Okt를` → `Okt`, `를`).
 *
 * @param word One word of `splitWords`.
 */
export function wordParts(word: string): WordPart[] {
  if (!HAS_HANGUL.test(word)) return [{ text: word, hangul: false }];
  return word.split(HANGUL_RUNS).filter((part) => part !== '').map((part) => ({ text: part, hangul: HAS_HANGUL.test(part) }));
}

/**
 * Split a text into index terms (not lower-cased).
 *
 * @param text A title, summary, body or query.
 * @example
 * tokenize('형태소 분석기 Kiwi') // ['형태', '태소', '분석', '석기', 'Kiwi']
 */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const word of splitWords(text)) {
    for (const part of wordParts(word)) {
      if (part.hangul) out.push(...bigrams(part.text));
      else out.push(part.text);
    }
  }
  return out;
}

/** Whether a term is Korean (no prefix or fuzzy matching: bigrams are exact). */
export function isHangulTerm(term: string): boolean {
  return HAS_HANGUL.test(term);
}
