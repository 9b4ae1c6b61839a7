/**
 * Comment renderings made after a comment was stored, kept for good: a build that had
 * to render a stored comment (data older than stored renderings, a body edited in
 * `data/` while the writer was stopped) hands the HTML here and it is stored with the
 * comment (batched), so no later start renders it again. After a renderer upgrade the
 * comments whose stored HTML is from an older renderer are re-rendered in the
 * background, one at a time behind every client's new comments; the old HTML stays
 * where the new render fails or shows nothing. Nothing here ever hides a comment.
 */
import { assertRenderableShape, assertShowsText, commentHtmlKey, isOlderRendererKey, isOutdatedRendering, type Comment, type SiteBuild } from '@agora/generator';
import type { Logger } from 'pino';
import type { CommentRenderingUpdate, Store } from '../store/types.ts';
import type { CommentRenderer } from '../comments/comment-renderer.ts';

/** The renderer's fairness key of background work: one turn among the clients. */
const BACKGROUND = 'background:renderer-upgrade';

export class RenderingKeeper {
  private pending: CommentRenderingUpdate[] = [];
  private saving: Promise<void> | null = null;
  private upgrading: Promise<void> | null = null;
  /** `<id> <html_key>` of comments the new renderer failed on (their old HTML stays). */
  private readonly failed = new Set<string>();
  private closed = false;
  /** Comments shown as escaped text because they cannot be rendered. */
  readonly plain = new Map<string, string>();
  /** Stored comments rendered by builds of this process (0 on a start where every comment had its HTML). */
  renderedCount = 0;

  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
  ) {}

  /** A build rendered a stored comment: store the HTML with it (soon, batched). */
  rendered(comment: Comment, html: string, key: string, body = comment.body): void {
    this.renderedCount++;
    this.plain.delete(comment.id);
    this.pending.push({ id: comment.id, slug: comment.slug, body, html, html_key: key });
    this.saving ??= this.saveLoop();
  }

  /** A stored comment without usable HTML is shown as escaped text. */
  shownPlain(comment: Comment, reason: string): void {
    this.plain.set(comment.id, reason);
    this.logger.warn({ comment: comment.id, slug: comment.slug, reason }, `comment ${comment.id} cannot be rendered; it is shown as plain text (a moderator may edit or hide it)`);
  }

  private async saveLoop(): Promise<void> {
    // Let a build finish handing its renderings over: one write per post file.
    await new Promise((r) => setTimeout(r, 50));
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, 1000);
      try {
        await this.store.comments.setRenderings(batch);
      } catch (error) {
        // Not lost for good: the next start renders these again (only slower).
        this.logger.warn({ err: error, comments: batch.length }, 'comment renderings not stored; the next start renders them again');
      }
    }
    this.saving = null;
  }

  /**
   * Re-render, in the background, the shown comments whose stored HTML comes from an
   * older renderer, and republish their posts. Returns when done.
   */
  upgrade(state: SiteBuild, renderer: CommentRenderer, republish: (slugs: Set<string>) => Promise<unknown>, only?: ReadonlySet<string>): Promise<void> {
    // One pass at a time; a pass for some posts (comments changed outside this writer: a
    // hidden comment unhidden, which the start's pass did not see) runs after the one before.
    const pass = (): Promise<void> => this.upgradePass(state, renderer, republish, only);
    const next: Promise<void> = (this.upgrading ?? Promise.resolve()).then(pass, pass).finally(() => {
      if (this.upgrading === next) this.upgrading = null;
    });
    this.upgrading = next;
    return next;
  }

  private async upgradePass(state: SiteBuild, renderer: CommentRenderer, republish: (slugs: Set<string>) => Promise<unknown>, only?: ReadonlySet<string>): Promise<void> {
    if (this.closed) return;
    // By the key's version alone: a comment whose text is on disk only (dropped from
    // memory) holds no HTML to look at, and was skipped when the HTML was asked for.
    const shown = only ? [...only].flatMap((slug) => state.site.comments.get(slug) ?? []) : [...state.site.comments.values()].flat();
    // A comment the new renderer failed on in this process is not tried again for the same
    // body (a later pass for its post, on each change made elsewhere, would only fail again).
    const outdated = shown.filter((c) => isOlderRendererKey(c.html_key) && !this.failed.has(`${c.id} ${c.html_key}`));
    if (outdated.length === 0) return;
    this.logger.info({ comments: outdated.length }, 'comment renderer upgraded: re-rendering stored comments in the background');
    const slugs = new Set<string>();
    for (const comment of outdated) {
      if (this.closed) break;
      // The text is read back from the store if it was dropped, and held while it renders.
      const release = await state.holdCommentTexts([comment.slug]).catch(() => null);
      try {
        if (!release || !isOutdatedRendering(comment)) continue;
        const { body } = comment;
        // Judged as a new comment is, before any work: a body over the work limits (edited
        // in the database, or stored before a limit existed) keeps its old HTML, not a render
        // that could take seconds (it was rendered whole, 3,000 headings and all).
        assertRenderableShape(body);
        const { html } = await renderer.render(BACKGROUND, body);
        // A new rendering that shows nothing (the new renderer drops what the old one
        // showed) is a failed one: the old HTML stays.
        assertShowsText(html);
        // Handed to the store, not written into the shown comment: the republish reads
        // the post back, so its page, cards and job keys all follow the stored HTML.
        this.rendered(comment, html, commentHtmlKey(body), body);
        slugs.add(comment.slug);
      } catch (error) {
        // The old HTML stays: it was shown until now and still is.
        this.failed.add(`${comment.id} ${comment.html_key}`);
        this.logger.warn({ comment: comment.id, reason: (error as Error).message }, 'comment not re-rendered by the new renderer; its stored HTML stays');
      } finally {
        release?.();
      }
      if (slugs.size >= 100) {
        await this.flush();
        await republish(new Set(drain(slugs)));
      }
    }
    await this.flush();
    if (slugs.size > 0) await republish(slugs);
  }

  /** Resolves once no upgrade pass is running or waiting and every rendering is stored (tests). */
  async settled(): Promise<void> {
    while (this.upgrading) await this.upgrading.catch(() => {});
    await this.flush();
  }

  /** Resolves once every rendering handed over so far is stored (or failed to be). */
  async flush(): Promise<void> {
    while (this.saving) await this.saving;
  }

  /** Store what is pending, stop upgrading. */
  async close(): Promise<void> {
    this.closed = true;
    await this.upgrading?.catch(() => {});
    await this.flush();
  }
}

/** Take every element out of a set. */
function drain<T>(set: Set<T>): T[] {
  const all = [...set];
  set.clear();
  return all;
}
