/**
 * `PostSearch`: a MiniSearch full-text index over the site's posts (title, summary,
 * tags, body), rebuilt whenever the build state holds new content (posts change only
 * through a content rebuild; comments and views do not touch it). Results carry
 * title, url, summary and a snippet around the first matching term.
 */
import MiniSearch, { type SearchResult } from 'minisearch';
import type { Category, Post, SiteBuild, SiteModel } from '@agora/generator';
import { CATEGORIES } from '@agora/generator';
import { isHangulTerm, tokenize } from './tokenize.ts';

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

/** Markdown punctuation that would clutter a snippet. */
function plain(text: string): string {
  return text.replace(/```[^\n]*\n/g, ' ').replace(/[#*_`>|]+/g, ' ').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/\s+/g, ' ').trim();
}

/** A window of the body around the earliest matched term. */
function snippet(post: Post, terms: readonly string[]): string {
  const text = plain(post.content);
  const lower = text.toLowerCase();
  let at = -1;
  for (const term of terms) {
    const i = lower.indexOf(term.toLowerCase());
    if (i >= 0 && (at < 0 || i < at)) at = i;
  }
  if (at < 0) return text.slice(0, SNIPPET_CHARS) + (text.length > SNIPPET_CHARS ? '…' : '');
  const start = Math.max(0, at - 60);
  const end = Math.min(text.length, start + SNIPPET_CHARS);
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
}

function createIndex(posts: readonly Post[]): MiniSearch<Post> {
  const index = new MiniSearch<Post>({
    idField: 'slug',
    fields: ['title', 'summary', 'tags', 'content'],
    tokenize,
    processTerm: (term) => term.toLowerCase(),
    searchOptions: {
      boost: { title: 3, tags: 2, summary: 1.5 },
      // Latin words match by prefix (`proxy` finds `proxy_read_timeout`'s parts); Hangul bigrams exactly.
      prefix: (term) => term.length >= 4 && !isHangulTerm(term),
      combineWith: 'OR',
    },
  });
  index.addAll(posts);
  return index;
}

/** The site's search index, kept current with the build state. */
export class PostSearch {
  private built: { posts: readonly Post[]; index: MiniSearch<Post> } | null = null;

  constructor(private readonly state: Pick<SiteBuild, 'site'>) {}

  /** The index of the current posts; rebuilt after a content change. */
  private index(site: SiteModel): MiniSearch<Post> {
    if (this.built?.posts !== site.posts) this.built = { posts: site.posts, index: createIndex(site.posts) };
    return this.built.index;
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
    const tag = query.tag?.toLowerCase();
    const filter = (r: SearchResult) => {
      const post = site.bySlug.get(String(r.id));
      if (!post) return false;
      if (query.category && post.category !== query.category) return false;
      if (query.model !== undefined && post.model !== query.model) return false;
      if (tag !== undefined && !post.tags.split(',').some((t) => t.trim().toLowerCase() === tag)) return false;
      return true;
    };
    const found = this.index(site).search(query.q, { filter });
    const results = found.slice(0, query.limit).map((r): SearchHit => {
      const post = site.bySlug.get(String(r.id)) as Post;
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
        score: Math.round(r.score * 1000) / 1000,
        snippet: snippet(post, r.terms),
      };
    });
    return { query: query.q, total: found.length, results };
  }
}

/** Whether a string is a category (for query checks). */
export function isCategory(value: string): value is Category {
  return (CATEGORIES as readonly string[]).includes(value);
}
