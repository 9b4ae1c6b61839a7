/** What `build()` takes and gives. */
import type { Comment } from '../types.ts';
import type { Message } from '../messages.ts';
import type { CommentPlainHandler, CommentRenderedHandler } from '../render/comment-html.ts';
import type { SinkResult } from '../emit/write-outputs.ts';
import type { SearchIndexResult } from '../emit/search-index.ts';
import type { MissingKeys } from '../catalog/key-status.ts';

/** The writer's stored data as a build needs it (the caller reads its store). */
export interface StoreSnapshot {
  /** Comments (hidden ones are left out of every output). */
  comments: Iterable<Comment>;
  /** View counts by slug. */
  views: ReadonlyMap<string, number>;
  /**
   * Where a post's stored comments are read again (the writer: its store). With it, a
   * long-lived build keeps comment text in memory only for the posts it emitted lately
   * and reads the rest back when it shows them (`comment-texts.ts`); without it, all.
   */
  loadComments?: (slug: string) => Promise<readonly Comment[]>;
}

export interface BuildOptions {
  /** Comments and views to show; none when absent (a site without a writer). */
  store?: StoreSnapshot;
  /** Start from an empty `dist/` and cache: render and write everything. */
  force?: boolean;
  /** Worker threads for rendering (default: one per core). */
  workers?: number;
  /**
   * The state will serve rebuilds (a long-lived process: the writer, `agora dev`): keep
   * every post's rendering and JSON record in memory for them. By default a build lets
   * go of each rendering once the last page or feed showing it is written, and of the
   * records once the JSON mirrors are, so a one-off build (`agora build`) never holds
   * the HTML of every post at once. Rebuilds on such a state still work: they read
   * renderings back from the render cache and serialise records again.
   */
  longLived?: boolean;
  /**
   * A long-lived build whose store can give comments back (`StoreSnapshot.loadComments`)
   * keeps the comment text of this many posts in memory between uses (default
   * `RESIDENT_POSTS`, 500). Without `loadComments` it keeps every post's.
   */
  commentTextPosts?: number;
  /**
   * A stored comment had no usable HTML (data older than stored renderings, a body
   * edited in `data/`) and was rendered by this build: the writer stores the HTML.
   */
  onCommentRendered?: CommentRenderedHandler;
  /**
   * A stored comment without usable HTML could not be rendered (over the work limits,
   * a renderer failure): it is shown as escaped text. Never hidden.
   */
  onCommentPlain?: CommentPlainHandler;
  /**
   * Write the search index in the background instead of before `build` returns (the
   * writer: it is caught up without waiting for Pagefind).
   */
  searchIndexInBackground?: boolean;
  /** Longest one comment may take to render, in ms (default 1000); over it, escaped text. */
  commentBudgetMs?: number;
  /**
   * Catalog entries whose provider key the serving process does not have (slug → the
   * settings that would hold it): shown as `pending_key` everywhere (`catalog/key-status.ts`).
   * The writer and `agora build` pass what their environment holds; absent, the
   * statuses of `catalog.yaml` stand.
   */
  missingKeys?: MissingKeys;
}

/** The first half of an edit in `agora dev`: the edited posts' own files, written (or removed) before the rest. */
export interface PagesWritten {
  written: string[];
  removed: string[];
  /** From the start of the update until these were in `dist/`. */
  ms: number;
}

export interface BuildResult extends SinkResult {
  /** Every message (errors would have thrown `ContentError`). */
  messages: Message[];
  posts: number;
  /** Bodies rendered (cache misses). */
  rendered: number;
  /** Bodies the build showed that came from the render cache or memory (not rendered again). */
  fromCache: number;
  /** The Pagefind index, when this build rewrote it before returning (pages changed, or it was missing); `agora dev`'s rebuilds index in the background. */
  search?: SearchIndexResult;
  /** `agora dev`'s edits: the edited posts' own files, written first (see `SiteBuild.updateSources`). */
  pages?: PagesWritten;
  /**
   * `agora dev`'s edits: slugs the model did not have before this edit (a new post, or
   * one moved away and back). They start with no comments and views: the caller that
   * holds a store gives them theirs (the writer: `RunningServer.postsAppeared`).
   */
  appeared?: string[];
  ms: number;
}

