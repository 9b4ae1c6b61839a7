/**
 * `PostSearch`: full-text search over the site's posts (title, summary, tags, body),
 * rebuilt whenever the build state holds new content (posts change only through a
 * content rebuild; comments and views do not touch it). It forgives: prefixes, typos
 * and Korean words for English terms (query.ts); ranking is BM25 over precomputed
 * postings (term-index.ts, ranker.ts). Results carry title, url, summary and a snippet
 * around the first matching term.
 */
import type { Category, Post, SiteBuild, SiteModel } from '@agora/generator';
import { CATEGORIES } from '@agora/generator';
import { planQuery, type Clause } from './query.ts';
import { holds, Ranker } from './ranker.ts';
import { TermIndex } from './term-index.ts';

/** A search request, already validated. */
export interface SearchQuery {
  q: string;
  category?: Category;
  model?: string;
  tag?: string;
  /** 1 to 50. */
  limit: number;
}

/** One ranked result. */
export interface SearchHit {
  slug: string;
  title: string;
  url: string;
  markdown: string;
  summary: string;
  category: Category;
  model: string;
  tags: string;
  date: string;
  score: number;
  snippet: string;
}

/** The answer of a search. */
export interface SearchAnswer {
  query: string;
  total: number;
  results: SearchHit[];
}

export const SEARCH_LIMITS = { maxLimit: 50, defaultLimit: 10, maxQueryChars: 200 } as const;

const SNIPPET_CHARS = 200;

/**
 * Markdown punctuation that would clutter a snippet: fences, backticks and `*` (dropped,
 * so `` `n >= 2`; `` reads `n >= 2;`), `|`, and
 * `#`, `>` and `_` where they are markup (a heading's or block quote's marks at a line's
 * start, `_` not inside a word), so `proxy_read_timeout`, `n >= 2`, `Vec<String>` and
 * `C#` are quoted as the post writes them.
 */
function plain(text: string): string {
  return text
    .replace(/```[^\n]*\n/g, ' ')
    .replace(/^[ \t]*(?:#+|(?:>[ \t]*)+)/gm, ' ')
    .replace(/(?<![\p{L}\p{N}])_+|_+(?![\p{L}\p{N}])/gu, ' ')
    .replace(/[*`]+/g, '')
    .replace(/\|+/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Raw markdown read around a match: enough that 200 plain characters remain. */
const WINDOW_BEFORE = 150;
const WINDOW_AFTER = 450;

/**
 * A window of the body around the earliest matched term. Only that window is cleaned of
 * markdown (cleaning whole bodies cost about 300 KB of garbage per search).
 */
function snippet(post: Post, terms: readonly string[]): string {
  const content = post.content;
  const escaped = terms.filter((t) => t !== '').map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const pattern = escaped.length > 0 ? new RegExp(escaped.join('|'), 'iu') : null;
  const at = pattern ? (pattern.exec(content)?.index ?? -1) : -1;
  const from = Math.max(0, at - WINDOW_BEFORE);
  const to = Math.max(0, at) + WINDOW_AFTER;
  const text = plain(content.slice(from, to));
  const more = to < content.length;
  if (at < 0) return text.slice(0, SNIPPET_CHARS) + (more || text.length > SNIPPET_CHARS ? '…' : '');
  const found = pattern?.exec(text)?.index ?? 0;
  const start = Math.max(0, found - 60);
  const end = Math.min(text.length, start + SNIPPET_CHARS);
  return `${start > 0 || from > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length || more ? '…' : ''}`;
}

/** The index of one set of posts: terms, scratch space, each post's tags. */
interface BuiltIndex {
  posts: readonly Post[];
  terms: TermIndex;
  ranker: Ranker;
  tags: readonly (readonly string[])[];
}

function createIndex(posts: readonly Post[]): BuiltIndex {
  const terms = TermIndex.build(posts.map((p) => ({ title: p.title, summary: p.summary, tags: p.tags, content: p.content })));
  const tags = posts.map((p) => p.tags.split(',').map((t) => t.trim().toLowerCase()));
  return { posts, terms, ranker: new Ranker(posts.length), tags };
}

/** The index terms a document matched, in clause order (for its snippet). */
function matchedTerms(clauses: readonly Clause[], doc: number): string[] {
  const out: string[] = [];
  for (const clause of clauses) {
    for (const { term, postings } of clause.alternatives) if (holds(postings.docs, doc)) out.push(term);
  }
  return out;
}

/** The site's search index, kept current with the build state. */
export class PostSearch {
  private built: BuiltIndex | null = null;

  constructor(private readonly state: Pick<SiteBuild, 'site'>) {}

  /** The index of the current posts; rebuilt after a content change. */
  private index(site: SiteModel): BuiltIndex {
    if (this.built?.posts !== site.posts) this.built = createIndex(site.posts);
    return this.built;
  }

  /** Build the index now (at start-up) instead of on the first search. */
  warm(): void {
    this.index(this.state.site);
  }

  /**
   * Run a search.
   *
   * @param query Checked query (`parseSearchQuery`).
   * @example
   * search.search({ q: '형태소 분석기', limit: 5 })
   */
  search(query: SearchQuery): SearchAnswer {
    const site = this.state.site;
    const { posts, terms, ranker, tags } = this.index(site);
    const tag = query.tag?.toLowerCase();
    const accept = (doc: number) => {
      const post = posts[doc]!;
      if (query.category && post.category !== query.category) return false;
      if (query.model !== undefined && post.model !== query.model) return false;
      if (tag !== undefined && !tags[doc]!.includes(tag)) return false;
      return true;
    };
    const clauses = planQuery(terms, query.q);
    const { total, top } = ranker.rank(clauses, accept, query.limit);
    const results = top.map(({ doc, score }): SearchHit => {
      const post = posts[doc]!;
      return {
        slug: post.slug,
        title: post.title,
        url: `${site.config.baseUrl}${post.url}`,
        markdown: `${site.config.baseUrl}${post.url}post.md`,
        summary: post.summary,
        category: post.category,
        model: post.model,
        tags: post.tags,
        date: post.date,
        score: Math.round(score * 1000) / 1000,
        snippet: snippet(post, matchedTerms(clauses, doc)),
      };
    });
    return { query: query.q, total, results };
  }
}

/** Whether a string is a category (for query checks). */
export function isCategory(value: string): value is Category {
  return (CATEGORIES as readonly string[]).includes(value);
}
