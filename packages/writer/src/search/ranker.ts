/**
 * `Ranker`: scores the documents a query's clauses reach and keeps the best few. A
 * document's score is the sum, over the clauses it matches, of each matching term's BM25
 * score times the term's weight, multiplied by how many clauses it matches (MiniSearch's
 * rule: a post holding both query words beats one holding either word twice). Scores add
 * into typed arrays owned by the ranker and reused by every search (stamps mark what
 * belongs to the current search), so a query allocates almost nothing; searches run one
 * at a time on the event loop.
 */
import type { Clause } from './query.ts';

/** One ranked document. */
export interface Ranked {
  doc: number;
  score: number;
}

const STAMP_LIMIT = 0xffff_fff0;

/** Whether `doc` is in `docs` (ascending). */
export function holds(docs: Uint32Array, doc: number): boolean {
  let low = 0;
  let high = docs.length - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const value = docs[mid]!;
    if (value === doc) return true;
    if (value < doc) low = mid + 1;
    else high = mid - 1;
  }
  return false;
}

/** The scoring scratch space of an index of `size` documents. */
export class Ranker {
  private readonly scores: Float64Array;
  private readonly clausesMatched: Uint16Array;
  /** The search that last touched each document. */
  private readonly searchStamp: Uint32Array;
  /** The clause that last counted for each document. */
  private readonly clauseStamp: Uint32Array;
  private readonly touched: Uint32Array;
  private stamp = 0;

  constructor(size: number) {
    this.scores = new Float64Array(size);
    this.clausesMatched = new Uint16Array(size);
    this.searchStamp = new Uint32Array(size);
    this.clauseStamp = new Uint32Array(size);
    this.touched = new Uint32Array(size);
  }

  private next(): number {
    if (this.stamp >= STAMP_LIMIT) {
      this.searchStamp.fill(0);
      this.clauseStamp.fill(0);
      this.stamp = 0;
    }
    return ++this.stamp;
  }

  /**
   * Rank the documents the clauses match.
   *
   * @param clauses The planned query.
   * @param accept The filter (category, model, tag); only called for matching documents.
   * @param limit How many to keep.
   * @returns How many documents matched and passed the filter, and the best `limit`, best first (ties: lower document number first).
   */
  rank(clauses: readonly Clause[], accept: (doc: number) => boolean, limit: number): { total: number; top: Ranked[] } {
    const { scores, clausesMatched, searchStamp, clauseStamp, touched } = this;
    const search = this.next();
    let reached = 0;
    for (const clause of clauses) {
      const id = this.next();
      for (const { postings, weight } of clause.alternatives) {
        const { docs, scores: termScores } = postings;
        for (let i = 0; i < docs.length; i++) {
          const doc = docs[i]!;
          if (searchStamp[doc] !== search) {
            searchStamp[doc] = search;
            scores[doc] = 0;
            clausesMatched[doc] = 0;
            touched[reached++] = doc;
          }
          scores[doc] = scores[doc]! + weight * termScores[i]!;
          if (clauseStamp[doc] !== id) {
            clauseStamp[doc] = id;
            clausesMatched[doc] = clausesMatched[doc]! + 1;
          }
        }
      }
    }
    const top: Ranked[] = [];
    let total = 0;
    for (let i = 0; i < reached; i++) {
      const doc = touched[i]!;
      if (!accept(doc)) continue;
      total++;
      const score = scores[doc]! * clausesMatched[doc]!;
      const last = top[top.length - 1];
      if (top.length === limit && last && (score < last.score || (score === last.score && doc > last.doc))) continue;
      let at = top.length;
      while (at > 0 && (top[at - 1]!.score < score || (top[at - 1]!.score === score && top[at - 1]!.doc > doc))) at--;
      top.splice(at, 0, { doc, score });
      if (top.length > limit) top.pop();
    }
    return { total, top };
  }
}
