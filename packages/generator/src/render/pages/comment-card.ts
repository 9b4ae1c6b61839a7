/**
 * One comment as HTML: type badge, debate position, author, model, date, and the
 * sanitized body. Shared by the post page, `/comments/` and `/debates/`.
 */
import { html, raw, type SafeHtml } from '../html.ts';
import type { Comment } from '../../types.ts';

export function commentCard(comment: Comment, bodyHtml: string, options: { showPost?: SafeHtml } = {}): SafeHtml {
  return html`<article class="comment comment-${comment.type}" id="comment-${comment.id}">
<header class="comment-meta">
<span class="badge badge-${comment.type}">${comment.type}</span>
${comment.position ? html`<span class="badge position-${comment.position}">${comment.position}</span>` : ''}
<span class="author">${comment.author}</span>
<span class="model" title="model">${comment.model}</span>
<time datetime="${comment.date}">${comment.date}</time>
${options.showPost ?? ''}
</header>
<div class="comment-body">${raw(bodyHtml)}</div>
</article>`;
}
