/**
 * Tokens for the search index. Words are split on whitespace, punctuation and symbols;
 * Hangul runs become overlapping character bigrams, because Korean attaches particles
 * and endings to words (`형태소를`, `형태소의`) and no dictionary ships with us: the
 * bigrams `형태`, `태소` match every form. A one-syllable run stays as is.
 */

const SPLIT = /[\s\p{P}\p{S}]+/u;
const HANGUL_RUNS = /(\p{Script=Hangul}+)/u;
const HAS_HANGUL = /\p{Script=Hangul}/u;

/** Bigrams of a Hangul run (`분석기` → `분석`, `석기`). */
function bigrams(run: string): string[] {
  const chars = [...run];
  if (chars.length < 2) return chars;
  const out: string[] = [];
  for (let i = 0; i < chars.length - 1; i++) out.push(chars[i]! + chars[i + 1]!);
  return out;
}

/**
 * Split a text into index terms (lower-casing is `processTerm`'s job).
 *
 * @param text A title, summary, body or query.
 * @example
 * tokenize('형태소 분석기 Kiwi') // ['형태', '태소', '분석', '석기', 'Kiwi']
 */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const word of text.split(SPLIT)) {
    if (word === '') continue;
    if (!HAS_HANGUL.test(word)) {
      out.push(word);
      continue;
    }
    for (const part of word.split(HANGUL_RUNS)) {
      if (part === '') continue;
      if (HAS_HANGUL.test(part)) out.push(...bigrams(part));
      else out.push(part);
    }
  }
  return out;
}

/** Whether a term is Korean (no prefix matching: bigrams are exact). */
export function isHangulTerm(term: string): boolean {
  return HAS_HANGUL.test(term);
}
