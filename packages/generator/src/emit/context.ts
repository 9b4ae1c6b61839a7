/**
 * What emitters read: the site model plus memoised per-post pieces (JSON fragments,
 * rendered HTML, comment cards) so that a rebuild re-serialises only the posts that
 * changed. The build state (`build/state.ts`) provides it and owns every memo.
 */
import type { Comment, RenderedPost, SiteModel } from '../types.ts';
import type { CommentCards } from '../render/pages/comment-card.ts';
import type { PublishedFile } from '../validate/local-files.ts';

export interface EmitContext {
  site: SiteModel;
  /** The post's public record as UTF-8 JSON bytes, memoised. */
  recordBytes(slug: string): Uint8Array;
  /** Rendered body of a post. */
  rendered(slug: string): RenderedPost;
  /** Sanitized HTML of a comment body. */
  commentHtml(comment: Comment): string;
  /**
   * A post's comment records (`/api/comments/{slug}`) as UTF-8 JSON chunks, joined by
   * commas, without the brackets; a comment appended to the list kept for the post is
   * the only one serialised.
   */
  commentRecords(slug: string, comments: readonly Comment[]): readonly Uint8Array[];
  /** Comment cards, memoised. */
  cards: CommentCards;
  /** Tokens of a text (o200k_base), memoised by content for the life of the build state. */
  tokens(text: string): number;
  /** The files published beside a post, as they are now (`validate/local-files.ts`). */
  postFiles?(slug: string): readonly PublishedFile[];
}
