/**
 * Comment text in memory only where it is shown. With a store to read it back from
 * (`StoreSnapshot.loadComments`: the writer), the site model keeps the body and HTML of
 * the comments of the `RESIDENT_POSTS` posts used last; every other comment keeps its
 * fields and HTML key only (`model/comment-identity.ts`). A run reads back the text of
 * the posts its jobs show (`hold`) before it emits them, and lets go of it after
 * (`release`); the posts used longest ago are stripped again.
 *
 * Only a comment whose stored HTML was rendered from its body by this renderer version
 * is stripped: one without HTML, with an outdated rendering, or shown as escaped text
 * keeps its text (a build or the background upgrade still needs the body).
 *
 * Why: 100,000 comments held 155 MB of the writer's heap, 112 MB of it text that a
 * comment on one post never reads (docs/performance.md, eighth session).
 */
import type { Comment, SiteModel } from '../types.ts';
import { bodyDigest, bodyHashOf, isTextStripped, restoreText, stripText } from '../model/comment-identity.ts';
import { COMMENT_RENDERER_VERSION, storedHtml } from '../render/comment-rendering.ts';

export type CommentLoader = (slug: string) => Promise<readonly Comment[]>;

/** Posts whose comments keep their text between runs (~11 KB each at 10 comments a post). */
export const RESIDENT_POSTS = 500;

/** Posts read back at once. */
const READS_IN_FLIGHT = 8;

/** The store no longer holds a comment the model shows as it is (deleted or edited meanwhile). */
export class CommentTextGone extends Error {
  constructor(readonly slug: string, id: string) {
    super(`Comment \`${id}\` of \`${slug}\` is no longer in the store as the site shows it (changed meanwhile); the post is read again`);
  }
}

export class CommentTexts {
  /** Posts whose comments may hold text, used longest ago first, with how many runs hold each now. */
  private readonly resident = new Map<string, number>();
  /** Read-backs under way, by post: a second hold of the post waits for the same read. */
  private readonly reading = new Map<string, Promise<void>>();

  constructor(
    private readonly load: CommentLoader | undefined,
    private readonly capacity = RESIDENT_POSTS,
  ) {}

  /** Whether text is ever dropped (a store to read it back from). */
  get enabled(): boolean {
    return this.load !== undefined;
  }

  /** A post's comments were set (with text, or some of it): count it among the resident ones. */
  touch(slug: string): void {
    if (!this.load || this.resident.has(slug)) return;
    this.resident.set(slug, 0);
  }

  /**
   * Give every comment of these posts its text (read back from the store where it was
   * dropped) and keep it until the function returned is called. Throws
   * `CommentTextGone` when the store no longer holds a comment as the model shows it.
   */
  async hold(site: SiteModel, slugs: Iterable<string>): Promise<() => void> {
    if (!this.load) return () => {};
    const held = [...new Set(slugs)].filter((slug) => site.comments.has(slug));
    for (const slug of held) {
      const n = this.resident.get(slug) ?? 0;
      // Last used: to the end of the order.
      this.resident.delete(slug);
      this.resident.set(slug, n + 1);
    }
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      for (const slug of held) {
        const n = this.resident.get(slug);
        if (n) this.resident.set(slug, n - 1);
      }
      this.evict(site);
    };
    try {
      for (let i = 0; i < held.length; i += READS_IN_FLIGHT) await Promise.all(held.slice(i, i + READS_IN_FLIGHT).map((slug) => this.restore(site, slug)));
    } catch (error) {
      release();
      throw error;
    }
    return release;
  }

  /** Read back the text of a post's stripped comments (once, however many hold it meanwhile). */
  private async restore(site: SiteModel, slug: string): Promise<void> {
    const under = this.reading.get(slug);
    if (under) await under.catch(() => {});
    if (!site.comments.get(slug)?.some(isTextStripped)) return;
    const read = this.readBack(site, slug);
    this.reading.set(slug, read);
    try {
      await read;
    } finally {
      if (this.reading.get(slug) === read) this.reading.delete(slug);
    }
  }

  private async readBack(site: SiteModel, slug: string): Promise<void> {
    const stored = new Map((await this.load!(slug)).map((c) => [c.id, c]));
    // The list as it is now (it may have been replaced while the store was read).
    for (const comment of site.comments.get(slug) ?? []) {
      if (!isTextStripped(comment)) continue;
      const found = stored.get(comment.id);
      const digest = found && bodyDigest(found.body);
      if (!found || found.html === undefined || found.html_key !== comment.html_key || digest !== bodyHashOf(comment)) throw new CommentTextGone(slug, comment.id);
      restoreText(comment, found.body, found.html, digest);
    }
  }

  /** A post's comments as the store holds them now (after `CommentTextGone`). */
  stored(slug: string): Promise<readonly Comment[]> {
    if (!this.load) throw new Error('Cannot read comments back without a store');
    return this.load(slug);
  }

  /** Drop the text of the posts used longest ago, beyond `capacity` (default: the one set), that no run holds. */
  evict(site: SiteModel, capacity = this.capacity): void {
    let over = this.resident.size - capacity;
    if (over <= 0) return;
    for (const [slug, holds] of this.resident) {
      if (over <= 0) break;
      if (holds > 0) continue;
      for (const comment of site.comments.get(slug) ?? []) if (strippable(comment)) stripText(comment);
      this.resident.delete(slug);
      over--;
    }
  }

  /** How many posts' comments may hold their text now (tests, benches). */
  get residentPosts(): number {
    return this.resident.size;
  }
}

/**
 * Drop a comment's text as it is read from the store, before the site model exists (the
 * writer's start): 100,000 comments read whole and stripped afterwards left V8 holding
 * the pages their text had filled (~40 MB of the ~125 MB freed came back to the system).
 * Only with `StoreSnapshot.loadComments` set, for a long-lived build. Returns whether it
 * dropped it (a comment that needs its body kept it).
 */
export function dropCommentText(comment: Comment): boolean {
  if (!strippable(comment)) return false;
  stripText(comment);
  return true;
}

/** A comment whose text can be dropped: its HTML is stored, current, and rendered from its body. */
function strippable(comment: Comment): boolean {
  return !isTextStripped(comment) && storedHtml(comment) !== undefined && comment.html_key!.startsWith(`${COMMENT_RENDERER_VERSION}:`);
}
