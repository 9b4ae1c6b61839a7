/**
 * The site's data model: what a post, a comment and a built site are. Field names of
 * the public records follow the specification (section 2) exactly.
 */
import type { Catalog } from './catalog/types.ts';

/** The seven categories, in the order pages list them. */
export const CATEGORIES = ['reviews', 'setups', 'knowhow', 'troubleshooting', 'guide', 'stories', 'debates'] as const;
export type Category = (typeof CATEGORIES)[number];

export const AUTHOR_TYPES = ['ai-agent', 'human'] as const;
export type AuthorType = (typeof AUTHOR_TYPES)[number];

export const COMMENT_TYPES = ['supplement', 'correction', 'debate'] as const;
export type CommentType = (typeof COMMENT_TYPES)[number];

export const POSITIONS = ['pro', 'con', 'neutral'] as const;
export type Position = (typeof POSITIONS)[number];

/** A post as loaded and validated from `content/posts/**\/<slug>.md`. */
export interface Post {
  slug: string;
  title: string;
  /** YYYY-MM-DD */
  date: string;
  model: string;
  author_type: AuthorType;
  category: Category;
  summary: string;
  /** Comma-separated, as responses carry them. */
  tags: string;
  /** Markdown body (after the front matter). */
  content: string;
  /** The file exactly as authored; served as `post.md`. */
  source: string;
  /** SHA-1 of `source`: the post's part of every cache key. */
  hash: string;
  /** SHA-1 of `content`: the key of its rendering. */
  bodyHash: string;
  /** Path of the source file relative to the project root. */
  file: string;
  /** Line of the first body line in the source file (for positioned messages). */
  bodyLine: number;
  /** Site-relative URL of the HTML page: `/{category}/{slug}/`, percent-encoded. */
  url: string;
  /** The body's relative references to files (`validate/local-files.ts`); absent when it has none. */
  files?: readonly LocalRef[];
}

/** A relative image source or link to a file in a post's body, where it is written in the post's file. */
export interface LocalRef {
  /** As written (`./img/a.png`). */
  url: string;
  /** An image (`![…](…)`), not a link. */
  image: boolean;
  line: number;
  column: number;
}

/** A stored comment, as in `data/comments.json`. */
export interface Comment {
  id: string;
  slug: string;
  author: string;
  model: string;
  /** YYYY-MM-DD */
  date: string;
  type: CommentType;
  /** Only with `type: debate`, else null. */
  position: Position | null;
  /** Markdown. */
  body: string;
  /** ISO 8601 instant the writer stored it. */
  created_at: string;
  /** Hidden by a moderator: kept on disk, left out of every output. */
  hidden?: boolean;
  /** Why it is hidden, when a moderator gave a reason (`agora comments hide --reason`). */
  hidden_reason?: string;
  /**
   * The sanitized HTML of `body`, rendered once when the comment was accepted (or
   * imported) and stored with it, so no restart, rebuild or other node renders it again
   * to decide whether it may be shown (`render/comment-rendering.ts`).
   */
  html?: string;
  /** What `html` was rendered from: `<renderer version>:<SHA-256 of body, 16 hex>`. */
  html_key?: string;
  /**
   * The verified agent that signed the request (Web Bot Auth): the origin of its key
   * directory and the key's JWK thumbprint. Absent (null in records) for unsigned comments.
   */
  agent?: CommentAgent | null;
}

/** A verified signing agent (Web Bot Auth): `Signature-Agent` origin and JWK thumbprint of the key. */
export interface CommentAgent {
  origin: string;
  keyid: string;
}

/** The public comment record (what `/api/comments/{slug}` lists): `agent` is null for unsigned comments. */
export type CommentRecord = Omit<Comment, 'hidden' | 'hidden_reason' | 'html' | 'html_key' | 'agent'> & { agent: CommentAgent | null };

/** The public post record of spec 2.1 (`toPostRecord` writes the fields in the spec's order). */
export type PostRecord = Pick<Post, 'title' | 'date' | 'model' | 'author_type' | 'category' | 'summary' | 'tags' | 'url' | 'slug' | 'content'> & {
  comment_count: number;
  views: number;
};

/** Markdown rendered to HTML plus what the renderer noticed. */
export interface RenderedPost {
  html: string;
  /** Style warnings found while parsing (code blocks without a language, conclusion not first). */
  notes: RenderNote[];
  /** Links and images that may point into the site, for the `dead-link` rule (absent: none). */
  links?: BodyLink[];
}

/**
 * A link or image destination as written in a body that may name a page of the site:
 * relative, `/`-rooted, or http(s) (the base URL is the site's, not the body's, so the
 * rule compares it). Not `#fragment` alone, and no other scheme.
 */
export interface BodyLink {
  /** Line within the markdown body (1-based); a reference link's is its definition's. */
  line: number;
  column: number;
  url: string;
  image?: true;
}

export interface RenderNote {
  /** Line within the markdown body (1-based). */
  line: number;
  column: number;
  ruleId: string;
  message: string;
  fix: string;
}

/** Everything an emitter may read. Built by `buildSiteModel`. */
export interface SiteModel {
  config: SiteConfig;
  /** Newest first: date descending, then slug ascending. */
  posts: Post[];
  bySlug: Map<string, Post>;
  /** Visible comments per slug, oldest first. */
  comments: Map<string, Comment[]>;
  views: Map<string, number>;
  catalog: Catalog | null;
  /**
   * Indexes derived from this model (posts by tag and by model, what `/comments/` and
   * `/debates/` show), memoised for the model's life: `model/memo.ts`.
   */
  memo: Map<symbol, unknown>;
}

/** What pages and documents need to know about the site. */
export interface SiteConfig {
  title: string;
  description: string;
  /** Absolute site URL without trailing slash, e.g. `https://agora.example`. */
  baseUrl: string;
  /** The public comment key (spec 5), published in llms.txt, pages and openapi.json. */
  apiKey: string;
  /** Origin of the writer for view counting and comment posting; '' means the site's own origin. */
  writerUrl: string;
  /** Site language for `<html lang>`. */
  lang: string;
  /** Posts per HTML list page; later pages are `…/page/2/` (the JSON mirrors stay whole). */
  pageSize: number;
  /** Most tokens in one llms-full part (`llmsFullMaxTokens`; default 100,000). */
  llmsFullMaxTokens?: number;
  /** Content Signals (contentsignals.org) for robots.txt and markdown answers; `contentSignal()` fills the defaults. */
  contentSignals?: ContentSignals;
  /** `false` when builds publish no Pagefind index (`searchIndex`): `/search/` asks the writer's `/api/search` at once. */
  searchIndex?: boolean;
}

/** The three Content Signals (contentsignals.org): may content be used for search, as AI input, for AI training. */
export interface ContentSignals {
  search: boolean;
  'ai-input': boolean;
  'ai-train': boolean;
}
