/**
 * A comment's identity without its text, and comments whose text is held on disk only.
 *
 * The writer's site model holds every visible comment, but its text (body and HTML: 112
 * MB of the 155 MB that 100,000 comments took in memory) only for the posts whose
 * outputs were emitted lately (`build/comment-texts.ts`). A comment whose text was
 * dropped ("stripped") keeps every other field and its HTML key, whose SHA-256 of the
 * body was checked against the body before the text was dropped; so job keys and the
 * reuse of a comment object compare bodies by that hash (`commentIdentity`), and the
 * text is read back from the store before anything shows it. Reading a stripped
 * comment's record (`toCommentRecord`) throws instead of showing an empty body.
 */
import { createHash } from 'node:crypto';
import type { Comment } from '../types.ts';

/** SHA-256 of a body, 16 hex: the part of an HTML key that names the body (`<renderer version>:<digest>`). */
export const bodyDigest = (body: string): string => createHash('sha256').update(body).digest('hex').slice(0, 16);

/**
 * The body of a comment whose text is on disk only (a marker, not a set of such
 * comments: a WeakSet of 100,000 comments took 4 MB). No comment's body is this: a
 * body with a control character other than tab and line breaks is refused
 * (`comments/clean-text.ts`).
 */
const ON_DISK = '\u0000(text on disk: read it back, build/comment-texts.ts)';
/** The digest of a comment object's body, by object (kept while the body is the one hashed). */
const digests = new WeakMap<Comment, { body: string; digest: string }>();

export function isTextStripped(comment: Comment): boolean {
  return comment.body === ON_DISK;
}

/** The SHA-256 (16 hex) of the comment's body, also when its text is on disk only. */
export function bodyHashOf(comment: Comment): string {
  if (comment.body === ON_DISK) return keyDigest(comment.html_key!);
  const seen = digests.get(comment);
  if (seen && seen.body === comment.body) return seen.digest;
  const digest = bodyDigest(comment.body);
  digests.set(comment, { body: comment.body, digest });
  return digest;
}

/** The body digest an HTML key names (after its last colon). */
export function keyDigest(key: string): string {
  return key.slice(key.lastIndexOf(':') + 1);
}

/**
 * Drop a comment's body and HTML from memory. Only for a comment whose HTML key names
 * its current body (the caller checked it: `storedHtml`), so `bodyHashOf` stays true.
 */
export function stripText(comment: Comment): void {
  digests.delete(comment);
  comment.body = ON_DISK;
  // Assigned, not deleted: the object keeps its shape (a deleted field makes V8 store it as a dictionary).
  comment.html = undefined;
}

/** Give a stripped comment its text back (read from the store; the caller checked that `body` has this digest). */
export function restoreText(comment: Comment, body: string, html: string, digest: string): void {
  comment.body = body;
  comment.html = html;
  digests.set(comment, { body, digest });
}
