/**
 * One comment as HTML: type badge, debate position, author, model, the "verified agent"
 * mark with the origin of a signed comment (Web Bot Auth), date, and the sanitized body. Shared by the post page, `/comments/` and `/debates/`.
 */
import { html, raw, type SafeHtml } from '../html.ts';
import type { Comment, Post } from '../../types.ts';
import { KeptListBytes } from '../kept-list-bytes.ts';
import { langAttribute, scriptLanguage } from '../post-language.ts';
import { resolveRelativeRefs } from '../relative-refs.ts';

export interface CommentCardOptions {
  /** A line naming the post the comment is on (`/comments/`). */
  showPost?: SafeHtml;
  /** In a debate column, whose heading already says `debate` and the side: no badges. */
  inSide?: boolean;
  /**
   * The URL of the comment's post, for a card shown on another page (`/comments/`, `/debates/`):
   * the body's relative links (`#detail`, `../other/`) are resolved against it, as on the post.
   */
  postUrl?: string;
}

/**
 * Bytes of joined comment lists kept (`CommentCards.list`), least recently shown out
 * first. Kept for every post, they were a second copy of every comment's HTML (~80 MB
 * at 10,000 posts and 100,000 comments) in the writer after a full re-emit and in a
 * cold build until its end; the append they speed up matters for the posts being
 * commented on now, and any other post's list is joined again in well under a
 * millisecond per ten comments.
 */
export const KEPT_LIST_BYTES = 8_000_000;

/**
 * Comment cards and the pieces built from them, memoised: a page with thousands of
 * comments is then a join. One instance lives in the build state (`build/state.ts`)
 * for the life of a `SiteBuild`; entries are keyed by the comment and post objects,
 * so they go with them (the joined lists are kept as bytes, bounded: `KEPT_LIST_BYTES`).
 */
export class CommentCards {
  private readonly cards = new WeakMap<Comment, Map<string, SafeHtml>>();
  private readonly onPosts = new WeakMap<Comment, { postHash: string; card: SafeHtml }>();
  private readonly sections = new WeakMap<Post, { key: string; html: SafeHtml }>();
  /** Posts' joined cards as bytes (`KeptListBytes`: a new comment on the post encodes its own card only). */
  private readonly lists: KeptListBytes;

  /**
   * @param bodyHtml The sanitized HTML of a comment's body (prepared before emitting).
   * @param keptBytes Bytes of joined lists kept (tests pass a small bound).
   */
  constructor(
    readonly bodyHtml: (comment: Comment) => string,
    keptBytes = KEPT_LIST_BYTES,
  ) {
    // Not memoised one by one: the joined bytes are the one copy kept.
    this.lists = new KeptListBytes((c) => commentCard(c, this.bodyHtml(c), {}).value, '', keptBytes);
  }

  /** The card of a comment (per variant: "on post" line, in a debate column). */
  card(comment: Comment, options: CommentCardOptions = {}): SafeHtml {
    const bodyHtml = this.bodyHtml(comment);
    const variant = `${options.showPost?.value ?? ''}\u0000${bodyHtml.length}\u0000${options.inSide ? 1 : 0}\u0000${options.postUrl ?? ''}`;
    let byVariant = this.cards.get(comment);
    const hit = byVariant?.get(variant);
    if (hit) return hit;
    const card = commentCard(comment, bodyHtml, options);
    if (!byVariant) this.cards.set(comment, (byVariant = new Map()));
    byVariant.set(variant, card);
    return card;
  }

  /**
   * A post's comment cards, joined, as UTF-8 bytes. When the list is the one last shown
   * with comments appended (the same objects first: a new comment on the post), only the
   * new cards are made and encoded; any other list is joined again.
   */
  list(post: Post, comments: readonly Comment[]): readonly Uint8Array[] {
    return this.lists.chunks(post.slug, comments);
  }

  /** Bytes of joined lists kept now. */
  get keptBytes(): number {
    return this.lists.bytes;
  }

  /** Let go of the joined lists (the next page of each post joins its cards again). */
  releaseLists(): void {
    this.lists.clear();
  }

  /** A card with a line naming the post it is on (`/comments/`), until the post changes. */
  onPost(comment: Comment, post: Post | undefined, siteLang: string): SafeHtml {
    const postHash = post?.hash ?? '';
    const hit = this.onPosts.get(comment);
    if (hit?.postHash === postHash) return hit.card;
    const card = commentCard(comment, this.bodyHtml(comment), { ...(post ? { postUrl: post.url } : {}), showPost: post ? html`<span class="on">on <a href="${post.url}#comment-${comment.id}"${langAttribute(post, siteLang)}>${post.title}</a></span>` : undefined });
    this.onPosts.set(comment, { postHash, card });
    return card;
  }

  /** A post's section of a page (a debate topic), until `key` changes. */
  section(post: Post, key: string, make: () => SafeHtml): SafeHtml {
    const hit = this.sections.get(post);
    if (hit?.key === key) return hit.html;
    const section = make();
    this.sections.set(post, { key, html: section });
    return section;
  }
}

/** One comment card (not memoised: `CommentCards` is). */
export function commentCard(comment: Comment, storedHtml: string, options: CommentCardOptions): SafeHtml {
  const bodyHtml = options.postUrl ? resolveRelativeRefs(storedHtml, options.postUrl) : storedHtml;
  // The card's own heading, for screen readers (its look is the header line): it sits
  // between the section's heading (h2 Comments, h3 a debate side) and the comment's own
  // headings (h4 and below, `comment-markdown.ts`), so the outline skips no level.
  return html`<article class="comment comment-${comment.type}" id="comment-${comment.id}">
<h3 class="visually-hidden">Comment by ${comment.author}</h3>
<header class="comment-meta">
${options.inSide ? '' : html`<span class="badge badge-${comment.type}">${comment.type}</span>
${comment.position ? html`<span class="badge position-${comment.position}">${comment.position}</span>` : ''}`}
<span class="author">${comment.author}</span>
<span class="model" title="model">${comment.model}</span>
${comment.agent ? html`<span class="verified-agent" title="verified agent (Web Bot Auth): signed with key ${comment.agent.keyid} of ${comment.agent.origin}">✓ verified agent <span class="agent-origin">${comment.agent.origin}</span></span>` : ''}
<time datetime="${comment.date}">${comment.date}</time>
${options.showPost ?? ''}
</header>
<div class="comment-body"${bodyLanguage(bodyHtml)}>${raw(bodyHtml)}</div>
</article>`;
}

/**
 * ` lang="ko"` (or `en`) on a comment's body told by its letters, or nothing: a Korean
 * comment on an English page was read in the page's voice (WCAG 3.1.2). Unlike a post's
 * title, a card is the same on every page and site, so it names its language whenever
 * the letters tell it, also where it is the page's own (redundant there, and harmless).
 */
function bodyLanguage(bodyHtml: string): SafeHtml | '' {
  const lang = scriptLanguage(bodyHtml.replace(/<[^>]*>|&[#\w]+;/g, ' '));
  return lang ? html` lang="${lang}"` : '';
}
