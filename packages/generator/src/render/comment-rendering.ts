/**
 * What a stored comment's HTML was rendered from, and the HTML shown when a stored
 * comment has none that can be used. A comment is rendered once, when the writer
 * accepts it (or an import takes it); the HTML is stored with it under a key naming the
 * renderer version and the body, so a build uses it as long as the body is the one it
 * was rendered from, whatever the renderer version (a newer renderer re-renders in the
 * background and keeps the old HTML if that fails: issue 19). Only a moderator hides a
 * comment: a stored comment that cannot be rendered is shown as escaped text.
 */
import type { Comment } from '../types.ts';
import { escapeText } from './html.ts';
import { commentError } from '../comments/rules.ts';
import { findInvisibleOnlyName, findUnsafeInBody } from '../comments/clean-text.ts';
import { bodyDigest, bodyHashOf, keyDigest } from '../model/comment-identity.ts';

/**
 * The version of the comment renderer (`comment-markdown.ts`): bump it whenever the HTML
 * a body renders to changes, so stored renderings are re-rendered in the background.
 */
// Not bumped for the highlighting budget (`comment-markdown.ts`): it changes only bodies
// with more than 2,048 characters of code, whose stored renderings are kept as they are
// (rendering them again would only take their colours away).
export const COMMENT_RENDERER_VERSION = 'comment-5';

/** The key of HTML rendered from `body` by this renderer: `<version>:<SHA-256 of body, 16 hex>`. */
export function commentHtmlKey(body: string): string {
  return `${COMMENT_RENDERER_VERSION}:${bodyDigest(body)}`;
}

/**
 * The comment's stored HTML when it was rendered from its current body (by any renderer
 * version), else undefined. The body's digest is kept by object (`bodyHashOf`): a
 * comment's HTML is looked up each time a page, mirror or feed showing it is emitted,
 * and hashing its body every time made the writer's main thread hash every comment of a
 * post for each new one (~4 % of it under 50 clients).
 */
export function storedHtml(comment: Comment): string | undefined {
  const { html, html_key: key } = comment;
  if (html === undefined || key === undefined) return undefined;
  return key.lastIndexOf(':') > 0 && keyDigest(key) === bodyHashOf(comment) ? html : undefined;
}

/** Whether an HTML key names another renderer version than this one (false without a key). */
export function isOlderRendererKey(key: string | undefined): boolean {
  return key !== undefined && !key.startsWith(`${COMMENT_RENDERER_VERSION}:`);
}

/** Whether the stored HTML is usable but was made by another renderer version (re-render it in the background). */
export function isOutdatedRendering(comment: Comment): boolean {
  return storedHtml(comment) !== undefined && isOlderRendererKey(comment.html_key);
}

/** Control characters (but tab and line breaks) and noncharacters: no text, not allowed in HTML or XML. */
const NOT_TEXT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]/g;

/**
 * A body shown as escaped text, line breaks kept (`.comment-plain`): for a stored comment
 * that cannot be rendered. Characters that are no text (an ESC or BEL edited into the
 * store) are shown as U+FFFD, not written raw into the page; a body with nothing visible
 * left says so, never an empty card.
 */
export function plainTextHtml(body: string): string {
  const text = body.replace(NOT_TEXT, '\uFFFD');
  if (text.trim() === '' || findInvisibleOnlyName(text) !== null) return '<div class="comment-plain comment-empty">(This stored comment has no visible text.)</div>';
  return `<div class="comment-plain">${escapeText(text)}</div>`;
}

/**
 * Judge a new comment's sanitized HTML by what a reader gets, before it is stored (a
 * stored comment's new rendering is judged too, but only to show it as escaped text or
 * keep its old HTML: never to hide it). Markdown decodes character references (`&#x202E;`, `&ZeroWidthSpace;`)
 * that the body's rules never saw as characters, so the body's character rules apply
 * again to the HTML (its markup is plain ASCII; what rendering escapes, it writes as
 * references): `body-unsafe-reference`. Then the `body-shows-nothing` rule when it
 * shows no text (the body was only what rendering drops: raw HTML, HTML comments,
 * images, or a rule), and `body-invisible` when it shows only invisible characters.
 */
export function assertShowsText(html: string): void {
  const unsafe = findUnsafeInBody(html);
  if (unsafe) throw commentError('body-unsafe-reference', unsafe.kind, unsafe.codePoint);
  const text = html.replace(/<[^>]*>/g, '').replace(/&(nbsp|#160|#xa0);/gi, ' ');
  if (!/\S/u.test(text)) throw commentError('body-shows-nothing');
  const blank = findInvisibleOnlyName(text);
  if (blank) throw commentError('body-invisible', blank.kind, blank.codePoint);
}
