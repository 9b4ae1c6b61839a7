/**
 * The sanitized HTML of every shown comment. A comment normally carries its HTML
 * (rendered when the writer accepted it: `comment-rendering.ts`), so emitting reads it
 * from the comment. `prepare` renders only comments without usable HTML (data older
 * than stored renderings, a body edited in `data/` while the writer was stopped),
 * before any page is emitted: off the main thread, within a time budget. Such a
 * rendering is set on the comment in memory and reported through `onRendered`, so the
 * writer stores it and no later build renders it again.
 *
 * Nothing here ever leaves a comment out: only a moderator hides one. A stored comment
 * over the rendering-work limits, one the renderer fails on, or one whose rendering
 * shows no text, is shown as escaped text (`plainTextHtml`) and reported through `onPlain`.
 */
import type { Comment, SiteModel } from '../types.ts';
import type { Job } from '../model/jobs.ts';
import { CommentRenderPool, type CommentPoolOptions } from './comment-pool.ts';
import { assertRenderableShape } from '../comments/parse-document.ts';
import { commentsOnSitePages } from '../model/comment-views.ts';
import { feedComments } from '../model/feeds.ts';
import { assertShowsText, commentHtmlKey, plainTextHtml, storedHtml } from './comment-rendering.ts';
import { isTextStripped } from '../model/comment-identity.ts';

/** A comment rendered during a build: `html` under `key`, to be stored with it. */
export type CommentRenderedHandler = (comment: Comment, html: string, key: string) => void;
/** A stored comment shown as escaped text, and why. */
export type CommentPlainHandler = (comment: Comment, reason: string) => void;

export interface CommentHtmlOptions extends CommentPoolOptions {
  onRendered?: CommentRenderedHandler;
  onPlain?: CommentPlainHandler;
}

/** Jobs whose output shows rendered comment bodies. */
const SHOWS_COMMENTS = new Set<Job['kind']>(['post-page', 'comments-page', 'debates-page', 'comments-feed', 'post-comments-feed']);
/** ... and the jobs that show their markdown (`/api/comments/{slug}`). */
const SHOWS_TEXT = new Set<Job['kind']>([...SHOWS_COMMENTS, 'api-comments']);

/** The visible comments whose HTML these jobs show. */
export function commentsShownBy(site: SiteModel, jobs: readonly Job[]): Comment[] {
  // A post's page and its comment feed show the same comments: list each once.
  const slugs = new Set(jobs.flatMap((j) => (j.kind === 'post-page' || j.kind === 'post-comments-feed' ? [j.slug] : [])));
  const shown = [...slugs].flatMap((slug) => site.comments.get(slug) ?? []);
  // The site-wide pages and the comment feed show bounded selections, so only those need HTML.
  if (jobs.some((j) => j.kind === 'comments-page' || j.kind === 'debates-page')) shown.push(...commentsOnSitePages(site));
  if (jobs.some((j) => j.kind === 'comments-feed')) shown.push(...feedComments(site));
  return [...new Set(shown)];
}

/** Whether any of these jobs shows comment text (rendered, or its markdown). */
export function showsComments(jobs: readonly Job[]): boolean {
  return jobs.some((j) => SHOWS_TEXT.has(j.kind));
}

/**
 * Why a stored comment's new rendering would show a reader nothing (a body edited in
 * `data/` to raw HTML only, an image), or null: such a comment is shown as escaped
 * text, as POST would have refused the body, never as an empty card.
 */
function showsNothing(html: string): string | null {
  try {
    assertShowsText(html);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

export class CommentHtml {
  /** Escaped-text HTML of comments that cannot be rendered, by id (never stored: a renderer upgrade may manage). */
  private readonly plain = new Map<string, string>();
  private readonly pool: CommentRenderPool;

  constructor(private readonly options: CommentHtmlOptions = {}) {
    this.pool = new CommentRenderPool(options);
  }

  /** Render the comments that have no usable HTML yet. */
  async prepare(comments: readonly Comment[]): Promise<void> {
    // A comment whose text is on disk only is never rendered here: its text is read back first (`build/comment-texts.ts`).
    const missing = comments.filter((c) => !isTextStripped(c) && storedHtml(c) === undefined && !this.plain.has(c.id) && this.hasRenderableShape(c));
    if (missing.length === 0) return;
    const outcomes = await this.pool.render(missing.map((c) => [c.id, c.body] as const));
    for (const comment of missing) {
      const outcome = outcomes.get(comment.id) ?? { error: 'no rendering came back' };
      const refused = 'html' in outcome ? showsNothing(outcome.html) : outcome.error;
      if ('html' in outcome && refused === null) {
        const key = commentHtmlKey(comment.body);
        comment.html = outcome.html;
        comment.html_key = key;
        this.options.onRendered?.(comment, outcome.html, key);
      } else this.showPlain(comment, refused ?? 'no rendering came back');
    }
  }

  /** A stored body over the work limits (data older than the rules) is not rendered at all. */
  private hasRenderableShape(comment: Comment): boolean {
    try {
      assertRenderableShape(comment.body);
      return true;
    } catch (error) {
      this.showPlain(comment, (error as Error).message);
      return false;
    }
  }

  private showPlain(comment: Comment, reason: string): void {
    this.plain.set(comment.id, plainTextHtml(comment.body));
    this.options.onPlain?.(comment, reason);
  }

  /** The HTML of a prepared comment. */
  get(comment: Comment): string {
    const out = storedHtml(comment) ?? this.plain.get(comment.id);
    if (out === undefined) throw new Error(`Cannot \`commentHtml\` of comment \`${comment.id}\` without \`prepare\``);
    return out;
  }

  /** Start the render worker before it is needed. */
  warm(): Promise<void> {
    return this.pool.warm();
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
