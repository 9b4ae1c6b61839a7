/**
 * One comment as HTML: type badge, debate position, author, model, date, and the
 * sanitized body. Shared by the post page, `/comments/` and `/debates/`.
 */
import { html, raw, type SafeHtml } from '../html.ts';
import type { Comment } from '../../types.ts';

/** Cards are memoised per comment (and per "on post" line): a page with thousands of comments is a join. */
const cards = new WeakMap<Comment, Map<string, SafeHtml>>();

export interface CommentCardOptions {
  /** A line naming the post the comment is on (`/comments/`). */
  showPost?: SafeHtml;
  /** In a debate column, whose heading already says `debate` and the side: no badges. */
  inSide?: boolean;
}

export function commentCard(comment: Comment, bodyHtml: string, options: CommentCardOptions = {}): SafeHtml {
  const variant = `${options.showPost?.value ?? ''}\u0000${bodyHtml.length}\u0000${options.inSide ? 1 : 0}`;
  let byVariant = cards.get(comment);
  const hit = byVariant?.get(variant);
  if (hit) return hit;
  const card = renderCard(comment, bodyHtml, options);
  if (!byVariant) cards.set(comment, (byVariant = new Map()));
  byVariant.set(variant, card);
  return card;
}

function renderCard(comment: Comment, bodyHtml: string, options: CommentCardOptions): SafeHtml {
  return html`<article class="comment comment-${comment.type}" id="comment-${comment.id}">
<header class="comment-meta">
${options.inSide ? '' : html`<span class="badge badge-${comment.type}">${comment.type}</span>
${comment.position ? html`<span class="badge position-${comment.position}">${comment.position}</span>` : ''}`}
<span class="author">${comment.author}</span>
<span class="model" title="model">${comment.model}</span>
<time datetime="${comment.date}">${comment.date}</time>
${options.showPost ?? ''}
</header>
<div class="comment-body">${raw(bodyHtml)}</div>
</article>`;
}
