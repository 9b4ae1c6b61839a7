/**
 * `TermIndex`: the inverted index behind the writer's search. Each term maps to its
 * postings — the documents holding it and, per document, its BM25 score summed over the
 * fields with their boosts — computed once when the index is built (the index is
 * rebuilt on every content change, so document frequencies and field lengths are fixed
 * for its life). Terms live in MiniSearch's radix tree (`minisearch/SearchableMap`), which
 * answers exact, prefix and fuzzy (Levenshtein) look-ups.
 *
 * Why not MiniSearch's own `search`: it scores every posting of every query term through
 * Maps, then builds, filters and sorts a result object for every matching document, about
 * 4 µs per match; a common word matches all 10,000 posts of the bench corpus and took
 * 16–60 ms. Here a query adds precomputed scores into one typed array.
 */
import SearchableMap from 'minisearch/SearchableMap';
import { tokenize } from './tokenize.ts';

/** The indexed fields and their boosts (a title match counts three times a body match). */
export const FIELD_BOOSTS = { title: 3, summary: 1.5, tags: 2, content: 1 } as const;

export type SearchField = keyof typeof FIELD_BOOSTS;

/** BM25+ parameters, MiniSearch's defaults (k1, length normalisation b, lower bound d). */
const BM25 = { k: 1.2, b: 0.7, d: 0.5 } as const;

const FIELDS = Object.keys(FIELD_BOOSTS) as SearchField[];

/** Term frequencies per field, packed one byte per field (capped at 255; BM25 has long saturated). */
const BYTE = [1, 256, 65_536, 16_777_216] as const;

/** The documents holding a term (ascending) and the term's score in each. */
export interface Postings {
  docs: Uint32Array;
  scores: Float32Array;
}

/** A term found by a look-up, with its edit distance or the letters a prefix added. */
export interface TermMatch {
  term: string;
  postings: Postings;
  distance: number;
}

/** The terms of a document, lower-cased, per field. */
export type SearchDocument = Record<SearchField, string>;

/** The term index of a fixed set of documents (numbered from 0 in the given order). */
export class TermIndex {
  private constructor(
    private readonly terms: SearchableMap<Postings>,
    /** How many documents. */
    readonly size: number,
  ) {}

  /**
   * Index documents.
   *
   * @param documents The text of each field; document `i` is number `i` in postings.
   */
  static build(documents: readonly SearchDocument[]): TermIndex {
    const size = documents.length;
    const lengths = FIELDS.map(() => new Uint32Array(size));
    const byTerm = new Map<string, { docs: number[]; tfs: number[] }>();
    documents.forEach((document, doc) => {
      const tfs = new Map<string, number>();
      FIELDS.forEach((field, f) => {
        const terms = tokenize(document[field]);
        lengths[f]![doc] = terms.length;
        for (const raw of terms) {
          const term = raw.toLowerCase();
          const packed = tfs.get(term) ?? 0;
          if (Math.floor(packed / BYTE[f]!) % 256 < 255) tfs.set(term, packed + BYTE[f]!);
        }
      });
      for (const [term, packed] of tfs) {
        let entry = byTerm.get(term);
        if (!entry) byTerm.set(term, (entry = { docs: [], tfs: [] }));
        entry.docs.push(doc);
        entry.tfs.push(packed);
      }
    });
    const averages = lengths.map((l) => (size === 0 ? 0 : l.reduce((sum, n) => sum + n, 0) / size));
    const terms = new SearchableMap<Postings>();
    for (const [term, { docs, tfs }] of byTerm) {
      const holding = FIELDS.map((_, f) => tfs.reduce((n, packed) => n + (Math.floor(packed / BYTE[f]!) % 256 > 0 ? 1 : 0), 0));
      const idf = holding.map((n) => Math.log(1 + (size - n + 0.5) / (n + 0.5)));
      const scores = new Float32Array(docs.length);
      docs.forEach((doc, i) => {
        let score = 0;
        FIELDS.forEach((field, f) => {
          const tf = Math.floor(tfs[i]! / BYTE[f]!) % 256;
          if (tf === 0) return;
          const norm = 1 - BM25.b + (BM25.b * lengths[f]![doc]!) / (averages[f]! || 1);
          score += FIELD_BOOSTS[field] * idf[f]! * (BM25.d + (tf * (BM25.k + 1)) / (tf + BM25.k * norm));
        });
        scores[i] = score;
      });
      terms.set(term, { docs: Uint32Array.from(docs), scores });
    }
    return new TermIndex(terms, size);
  }

  /** How many distinct terms. */
  get vocabulary(): number {
    return this.terms.size;
  }

  /** The postings of a term, if any document holds it. */
  get(term: string): Postings | undefined {
    return this.terms.get(term);
  }

  /**
   * Longer terms that start with `prefix` (the term itself excluded).
   *
   * @param prefix Lower-cased.
   */
  withPrefix(prefix: string): TermMatch[] {
    const out: TermMatch[] = [];
    for (const [term, postings] of this.terms.atPrefix(prefix)) {
      if (term.length > prefix.length) out.push({ term, postings, distance: term.length - prefix.length });
    }
    return out;
  }

  /**
   * Terms within `maxDistance` Levenshtein edits (the term itself excluded).
   *
   * @param term Lower-cased.
   * @param maxDistance 1 or 2.
   */
  near(term: string, maxDistance: number): TermMatch[] {
    const out: TermMatch[] = [];
    for (const [found, [postings, distance]] of this.terms.fuzzyGet(term, maxDistance)) {
      if (distance > 0) out.push({ term: found, postings, distance });
    }
    return out;
  }
}
