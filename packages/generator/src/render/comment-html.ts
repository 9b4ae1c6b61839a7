/**
 * The sanitized HTML of every shown comment, and the comments that cannot be shown.
 * `prepare` renders what is missing before any page is emitted, so emitting only
 * reads this cache: first the nesting and emphasis check the writer applies to new
 * comments (stored data may predate it), then the worker pool (off the main thread,
 * within a time budget). A comment that fails (too deep, stack overflow, over the
 * budget, any error) is quarantined:
 * reported once through `onFailed` and returned by every later `prepare`, so the build
 * leaves it out of every output and never tries it again in this process.
 */
import type { Comment, SiteModel } from '../types.ts';
import type { Job } from '../model/jobs.ts';
import { CommentRenderPool, type CommentPoolOptions } from './comment-pool.ts';
import { assertRenderableShape } from '../comments/parse-document.ts';
import { commentsOnSitePages } from '../model/comment-views.ts';
import { feedComments } from '../model/feeds.ts';

/** Called once per comment that cannot be rendered; the writer hides it (quarantine). */
export type CommentFailedHandler = (comment: Comment, reason: string) => void;

export interface CommentHtmlOptions extends CommentPoolOptions {
  onFailed?: CommentFailedHandler;
}

/** Jobs whose output shows rendered comment bodies. */
const SHOWS_COMMENTS = new Set<Job['kind']>(['post-page', 'comments-page', 'debates-page', 'comments-feed', 'post-comments-feed']);

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

/** Whether any of these jobs shows rendered comments. */
export function showsComments(jobs: readonly Job[]): boolean {
  return jobs.some((j) => SHOWS_COMMENTS.has(j.kind));
}

export class CommentHtml {
  /** HTML by comment id: a stored comment's body never changes. */
  private readonly html = new Map<string, string>();
  /** Why a comment cannot be shown, by id. */
  private readonly failed = new Map<string, string>();
  private readonly pool: CommentRenderPool;

  constructor(private readonly options: CommentHtmlOptions = {}) {
    this.pool = new CommentRenderPool(options);
  }

  /** Render the comments not rendered yet. Returns those of `comments` that cannot be shown. */
  async prepare(comments: readonly Comment[]): Promise<Comment[]> {
    const missing = comments.filter((c) => !this.html.has(c.id) && !this.failed.has(c.id) && this.hasRenderableShape(c));
    if (missing.length > 0) {
      const outcomes = await this.pool.render(missing.map((c) => [c.id, c.body] as const));
      for (const comment of missing) {
        const outcome = outcomes.get(comment.id) ?? { error: 'no rendering came back' };
        if ('html' in outcome) this.html.set(comment.id, outcome.html);
        else {
          this.failed.set(comment.id, outcome.error);
          this.options.onFailed?.(comment, outcome.error);
        }
      }
    }
    return comments.filter((c) => this.failed.has(c.id));
  }

  /** Stored comments older than the nesting rule are refused before they reach a worker. */
  private hasRenderableShape(comment: Comment): boolean {
    try {
      assertRenderableShape(comment.body);
      return true;
    } catch (error) {
      const reason = (error as Error).message;
      this.failed.set(comment.id, reason);
      this.options.onFailed?.(comment, reason);
      return false;
    }
  }

  /** The HTML of a prepared comment. */
  get(comment: Comment): string {
    const out = this.html.get(comment.id);
    if (out === undefined) throw new Error(`Cannot \`commentHtml\` of comment \`${comment.id}\` without \`prepare\``);
    return out;
  }

  /** Why a comment cannot be shown, or undefined. */
  failure(id: string): string | undefined {
    return this.failed.get(id);
  }

  /** Keep only the `max` most recently rendered HTML strings (memory stays bounded). */
  trim(max: number): void {
    for (const id of this.html.keys()) {
      if (this.html.size <= max) break;
      this.html.delete(id);
    }
  }

  /** Forget the HTML of comments that are gone (deleted), to keep memory to the stored ones. */
  retain(ids: ReadonlySet<string>): void {
    for (const id of this.html.keys()) if (!ids.has(id)) this.html.delete(id);
  }

  /** Start the render worker before it is needed. */
  warm(): Promise<void> {
    return this.pool.warm();
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
