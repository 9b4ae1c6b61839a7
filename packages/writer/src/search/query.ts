/**
 * From a query string to clauses: one clause per distinct query word, holding the index
 * terms that stand for it and how much each counts. Exact > prefix > fuzzy:
 *
 * - a word's own term counts 1;
 * - a Latin word of 4+ letters also matches longer terms by prefix, at 0.375 scaled by
 *   how much longer (`websock` → websocket), MiniSearch's prefix weighting;
 * - a Latin word of 4+ letters, without digits, that no document holds even as the start
 *   of a longer term (most likely a typo) matches terms one edit away (an adjacent swap
 *   counts as one: `ngnix` → nginx), two from 8 letters (`pgbouncr` → pgbouncer), at
 *   0.25 scaled by distance; at most the 8 nearest, most frequent terms;
 * - a Korean word matches its syllable bigrams, each counting 1/n of the word, and the
 *   English terms of its entries in the synonym table (synonyms.ts) at 1;
 * - English function words (`how`, `the`, `with` …) are dropped unless the query has
 *   nothing else.
 *
 * Fuzzy matching only for words the index does not hold keeps its cost (a walk of the
 * radix tree within one or two edits) off ordinary queries.
 */
import { englishTerms } from './synonyms.ts';
import type { Postings, TermIndex, TermMatch } from './term-index.ts';
import { bigrams, splitWords, wordParts } from './tokenize.ts';

/** How much a prefix or a fuzzy match counts against an exact one (1). */
export const MATCH_WEIGHTS = { prefix: 0.375, fuzzy: 0.25 } as const;

/** Shortest Latin word matched by prefix or fuzzily. */
const MIN_FORGIVING_LENGTH = 4;
/** From this length a fuzzy match may be two edits away. */
const TWO_EDITS_FROM = 8;
const MAX_FUZZY_TERMS = 8;

/** English words that say nothing about a post (dropped from queries that have other words). */
const STOPWORDS = new Set(
  ('a an the and or but of to in on at for with by from into about as is are was were be been being do does did ' +
    'how what which why when where who whom i me my we our you your it its this that these those there here ' +
    'can could should would will shall may might must not no so if then than too very just any some all ' +
    'has have had').split(' '),
);

/** One index term standing for a query word. */
export interface Alternative {
  term: string;
  postings: Postings;
  weight: number;
}

/** A query word and the terms that stand for it. A document matching any of them matches the clause. */
export interface Clause {
  word: string;
  alternatives: Alternative[];
}

type Add = (term: string, postings: Postings, weight: number) => void;

/** Terms one adjacent swap away (`ngnix` → `nginx`), which plain Levenshtein counts as two edits. */
function swaps(index: TermIndex, term: string): TermMatch[] {
  const out: TermMatch[] = [];
  for (let i = 0; i < term.length - 1; i++) {
    if (term[i] === term[i + 1]) continue;
    const swapped = term.slice(0, i) + term[i + 1] + term[i] + term.slice(i + 2);
    const postings = index.get(swapped);
    if (postings) out.push({ term: swapped, postings, distance: 1 });
  }
  return out;
}

/** The nearest, most frequent terms within the edit budget of a word the index lacks. */
function fuzzyMatches(index: TermIndex, term: string): TermMatch[] {
  const near = term.length >= TWO_EDITS_FROM ? index.near(term, 2) : [...index.near(term, 1), ...swaps(index, term)];
  return near
    .filter((m) => !/\d/.test(m.term))
    .sort((a, b) => a.distance - b.distance || b.postings.docs.length - a.postings.docs.length)
    .slice(0, MAX_FUZZY_TERMS);
}

/**
 * The terms of a Latin word: itself, longer terms by prefix, and when it has neither,
 * terms within an edit or two.
 */
function latinTerms(index: TermIndex, term: string, add: Add, { fuzzy }: { fuzzy: boolean }): void {
  const exact = index.get(term);
  if (exact) add(term, exact, 1);
  if (term.length < MIN_FORGIVING_LENGTH) return;
  const longer = index.withPrefix(term);
  for (const m of longer) add(m.term, m.postings, (MATCH_WEIGHTS.prefix * m.term.length) / (m.term.length + 0.3 * m.distance));
  if (exact || longer.length > 0 || !fuzzy || /\d/.test(term)) return;
  for (const m of fuzzyMatches(index, term)) add(m.term, m.postings, (MATCH_WEIGHTS.fuzzy * m.term.length) / (m.term.length + m.distance));
}

/** The clause of one word (lower-cased), or null when no index term stands for it. */
function clause(index: TermIndex, word: string): Clause | null {
  const alternatives = new Map<string, Alternative>();
  const add: Add = (term, postings, weight) => {
    const known = alternatives.get(term);
    if (!known || known.weight < weight) alternatives.set(term, { term, postings, weight });
  };
  for (const part of wordParts(word)) {
    if (!part.hangul) {
      latinTerms(index, part.text, add, { fuzzy: true });
      continue;
    }
    const grams = bigrams(part.text);
    for (const gram of grams) {
      const postings = index.get(gram);
      if (postings) add(gram, postings, 1 / grams.length);
    }
    for (const english of englishTerms(part.text)) latinTerms(index, english, add, { fuzzy: false });
  }
  return alternatives.size > 0 ? { word, alternatives: [...alternatives.values()] } : null;
}

/**
 * Plan a query.
 *
 * @param index The term index searched.
 * @param q The query as given.
 * @example
 * planQuery(index, 'ngnix 웹소켓') // [{ word: 'ngnix', alternatives: [nginx …] }, { word: '웹소켓', … websocket }]
 */
export function planQuery(index: TermIndex, q: string): Clause[] {
  const words = [...new Set(splitWords(q.toLowerCase()))];
  const content = words.filter((w) => !STOPWORDS.has(w));
  const plan = (list: string[]) => list.map((w) => clause(index, w)).filter((c): c is Clause => c !== null);
  const clauses = plan(content);
  return clauses.length > 0 ? clauses : plan(words.filter((w) => STOPWORDS.has(w)));
}
