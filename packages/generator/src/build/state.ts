/**
 * The state of a built site, and every cache a build keeps: the model (with its
 * derived indexes, `model/memo.ts`), record bytes, token counts, body renderings (in
 * memory, over the on-disk render cache: in a long-lived process those used since the
 * last `shrink`, else only while a build needs them), comment HTML and comment cards.
 * Emitters reach them through `ctx`; nothing is cached at module level, so two builds
 * in one process share nothing and a cache goes with its `SiteBuild`.
 */
import { WriteThreads } from '../emit/write-thread.ts';
import type { Comment, Post, RenderedPost, SiteModel } from '../types.ts';
import type { Content } from '../content.ts';
import type { RenderCache } from '../render/cache.ts';
import { CommentHtml, commentsShownBy, showsComments, type CommentHtmlOptions } from '../render/comment-html.ts';
import { CommentCards, KEPT_LIST_BYTES } from '../render/pages/comment-card.ts';
import { KeptListBytes, ownBytes } from '../render/kept-list-bytes.ts';
import { commentGroups, commentsAppended, commentsChanged } from '../model/comment-views.ts';
import { commentIdentity, toCommentRecord, toPostRecord } from '../model/records.ts';
import { listJobs, type Job } from '../model/jobs.ts';
import { createJobKeyer, preparePostKeys } from '../model/job-keys.ts';
import { EMITTERS } from '../emit/index.ts';
import type { EmitContext } from '../emit/context.ts';
import type { Output } from '../emit/output.ts';
import type { Manifest } from '../emit/manifest.ts';
import { TokenCache } from '../emit/token-cache.ts';
import { appendedAfter } from '../sorted.ts';
import { CommentTextGone, CommentTexts, type CommentLoader } from './comment-texts.ts';
import { compareComments } from '../model/site.ts';
import { publishedFiles, type PublishedFile } from '../validate/local-files.ts';
import { join } from 'node:path';

/** Times the comments a run shows are taken again after the store changed under them. */
const TEXT_ATTEMPTS = 3;

/**
 * Whether two versions of a stored comment show the same: the public record, and the
 * HTML (a version read back from the store before a build's rendering of it was saved
 * has none yet: the one in memory is kept).
 */
function sameComment(a: Comment, b: Comment): boolean {
  return a === b || ((a.html_key === b.html_key || b.html_key === undefined) && commentIdentity(a) === commentIdentity(b));
}

/** What the state holds in memory (counts and bytes): `held`, `shrink`. */
export interface Held {
  renderings: number;
  records: number;
  unsavedRenderings: number;
  /** Posts whose comments may hold their text (every post with comments when text is never dropped). */
  textPosts: number;
  /** Bytes of kept card and comment-record lists. */
  keptListBytes: number;
}

export class BuildState {
  /** Each post's public record as JSON bytes, by slug (dropped when the post, its comments or views change). */
  private readonly records = new Map<string, Uint8Array>();
  /** Token counts of post sources, llms-full entries, agents.md: kept on disk when the build has a cache folder. */
  readonly tokens: TokenCache;
  /**
   * Body renderings in memory, by body hash (read from the render cache or rendered).
   * Unless `longLived`, a full build drops each once the last job showing it is
   * emitted (`schedule.ts`); a long-lived state keeps them until `shrink`. Rebuilds
   * read them back from the render cache.
   */
  readonly renderings = new Map<string, RenderedPost>();
  /**
   * The state serves rebuilds (the writer, `agora dev`): renderings and records stay in
   * memory between builds (renderings until `shrink`: the writer, when calm). Otherwise
   * a full build lets go of them once it has emitted the jobs that read them.
   */
  readonly longLived: boolean;
  /** Where a long-lived state's rebuilds write their small files (`OutputSink`'s `writeThread`): a lane for posts' own rebuilds, one for flushes. */
  readonly writeThreads: WriteThreads | undefined;
  /** Sanitized comment HTML: stored with each comment, rendered off the main thread where missing. */
  readonly commentHtml: CommentHtml;
  readonly cards: CommentCards;
  /** The posts' comment records (`/api/comments/{slug}`) shown last, as bytes (markdown only: half the cards' bound). */
  private readonly commentRecords = new KeptListBytes((c) => JSON.stringify(toCommentRecord(c)), ',', KEPT_LIST_BYTES / 2);
  /** Which posts' comments hold their text in memory (all, unless a store can give it back). */
  readonly texts: CommentTexts;
  readonly ctx: EmitContext;

  constructor(
    public site: SiteModel,
    public content: Content,
    /** The on-disk render cache (HTML by body hash, style notes of every body). */
    readonly cache: RenderCache,
    readonly manifest: Manifest,
    options: CommentHtmlOptions & { longLived?: boolean; tokens?: TokenCache; loadComments?: CommentLoader; commentTextPosts?: number } = {},
  ) {
    this.longLived = options.longLived ?? false;
    // A long-lived process answers requests on its main thread: its rebuilds' small files are written beside it.
    this.writeThreads = this.longLived ? new WriteThreads() : undefined;
    this.texts = new CommentTexts(options.loadComments, options.commentTextPosts);
    for (const slug of site.comments.keys()) this.texts.touch(slug);
    this.tokens = options.tokens ?? TokenCache.memory();
    this.commentHtml = new CommentHtml(options);
    this.cards = new CommentCards((c) => this.commentHtml.get(c));
    const self = this;
    this.ctx = {
      get site() {
        return self.site;
      },
      recordBytes: (slug) => this.recordBytes(slug),
      rendered: (slug) => {
        const post = this.site.bySlug.get(slug);
        const r = post && this.renderings.get(post.bodyHash);
        if (!r) throw new Error(`Cannot \`rendered\` without a rendering of \`${slug}\``);
        return r;
      },
      commentHtml: (c) => this.commentHtml.get(c),
      commentRecords: (slug, comments) => this.commentRecords.chunks(slug, comments),
      cards: this.cards,
      tokens: (text) => this.tokens.count(text),
      postFiles: (slug) => this.postFiles(slug),
    };
  }

  /** The files published beside a post, as they are on disk now (none without the content's folders). */
  postFiles(slug: string): PublishedFile[] {
    const post = this.site.bySlug.get(slug);
    const dirs = this.content.dirs;
    if (!post?.files || !dirs) return [];
    return publishedFiles(post, join(dirs.root, ...post.file.split('/')), dirs.contentDir, dirs.root);
  }

  /** What a post's published files are now (`PlanOptions.fileStamp`). */
  readonly fileStamp = (slug: string): string =>
    this.postFiles(slug)
      .map((f) => `${f.out}\u0000${f.stamp}`)
      .join('\n');

  private recordBytes(slug: string): Uint8Array {
    let bytes = this.records.get(slug);
    if (bytes === undefined) {
      const post = this.site.bySlug.get(slug);
      if (!post) throw new Error(`Cannot \`recordBytes\` without post \`${slug}\``);
      this.records.set(slug, (bytes = ownBytes(JSON.stringify(toPostRecord(this.site, post)))));
    }
    return bytes;
  }

  /**
   * Make ahead, a few milliseconds at a time, what the first site-wide flush after a
   * start would otherwise make in one go while requests wait (~500 ms at 10,000 posts
   * and 100,000 comments): the site-wide comment tally (at once, see below), every
   * post's record (`/api/posts`) and its part of the list jobs' keys, then those keys.
   * Stops if the model is replaced meanwhile. Between its steps it awaits `giveWay`
   * (the writer: while comments are being answered, so their steps do not each wait
   * for one of warm's).
   */
  async warm(giveWay?: () => Promise<void>): Promise<void> {
    const site = this.site;
    const keyOf = createJobKeyer(site);
    let since = performance.now();
    const pause = async () => {
      if (performance.now() - since < 5) return;
      await new Promise((resolve) => setImmediate(resolve));
      await giveWay?.();
      since = performance.now();
    };
    // The site-wide comment tally in one go, before the first await: the writer calls
    // this before it takes requests (~130 ms at 100,000 comments), and a tally made in
    // steps would be out of date as soon as a comment arrived meanwhile.
    commentGroups(site);
    for (const post of site.posts) {
      if (this.site !== site) return;
      this.recordBytes(post.slug);
      preparePostKeys(site, post.slug);
      await pause();
    }
    for (const job of listJobs(site, { kind: 'full' })) {
      if (this.site !== site) return;
      if ('slug' in job) continue;
      keyOf(job);
      await pause();
    }
  }

  /** How much the state holds in memory (counts and bytes): for tests and benches. */
  get held(): Held {
    return { renderings: this.renderings.size, records: this.records.size, unsavedRenderings: this.cache.pendingEntries, textPosts: this.texts.enabled ? this.texts.residentPosts : this.site.comments.size, keptListBytes: this.cards.keptBytes + this.commentRecords.bytes };
  }

  /**
   * Let go of what is kept only to make the next rebuild of a post cheaper: the posts'
   * body renderings (read back from the render cache when next shown), their comments'
   * text (read back from the store) and their kept card and record lists (joined again).
   * Records stay (`/api/posts` is made of them). Call it between runs only: a run reads
   * the renderings it ensured without holding them. Returns what was held before.
   */
  shrink(): Held {
    const before = this.held;
    // A one-off build drops each rendering after its last use itself (`schedule.ts`).
    if (this.longLived) this.renderings.clear();
    this.texts.evict(this.site, 0);
    this.cards.releaseLists();
    this.commentRecords.clear();
    return before;
  }

  /** Forget every post record (made again when asked for): for a one-off build once its JSON mirrors are emitted. */
  releaseRecords(): void {
    this.records.clear();
  }

  /** The output(s) of one job. */
  emit(job: Job): Output | Output[] {
    const emitter = EMITTERS[job.kind] as (ctx: EmitContext, job: Job) => Output | Output[];
    return emitter(this.ctx, job);
  }

  /**
   * A new content version: records of posts whose source changed are dropped.
   *
   * @param slugs The slugs whose post may differ (an edit in `agora dev`, whose model was
   * derived from the last one in place: `updateSiteModel`): their records are dropped.
   */
  replaceSite(site: SiteModel, content: Content, slugs?: Iterable<string>): void {
    const before = this.site.bySlug;
    this.site = site;
    this.content = content;
    if (slugs) for (const slug of slugs) this.records.delete(slug);
    else for (const slug of this.records.keys()) if (site.bySlug.get(slug)?.hash !== before.get(slug)?.hash) this.records.delete(slug);
  }

  /**
   * Replace a post's visible comments (oldest first). A comment unchanged since the last
   * call keeps its object, so its memoised card is reused: a new comment costs its own
   * card, not the whole list's.
   */
  setComments(slug: string, list: Comment[]): void {
    const previous = this.site.comments.get(slug) ?? [];
    const before = new Map(previous.map((c) => [c.id, c]));
    const visible = list.map((c) => {
      const old = before.get(c.id);
      return old && sameComment(old, c) ? old : c;
    });
    if (visible.length > 0) this.site.comments.set(slug, visible);
    else this.site.comments.delete(slug);
    this.texts.touch(slug);
    // New comments after unchanged ones (the writer's usual case) are counted into the
    // site-wide tally; anything else makes it again when next read.
    const appended = appendedAfter(previous, visible);
    if (appended) commentsAppended(this.site, slug, appended);
    else commentsChanged(this.site);
    this.records.delete(slug);
  }

  /** Set a post's view count; false when it was already that. */
  setViews(slug: string, n: number): boolean {
    if (this.site.views.get(slug) === n) return false;
    this.site.views.set(slug, n);
    this.records.delete(slug);
    return true;
  }

  /**
   * Make sure every comment these jobs show holds its text (read back from the store
   * where it was dropped) and has HTML (most carry their stored rendering), so emitting
   * only reads memory. Never leaves a comment out. Call the function returned once the
   * jobs are emitted: their posts' text may be dropped again after it.
   */
  async prepareComments(jobs: readonly Job[]): Promise<() => void> {
    if (this.site.comments.size === 0 || !showsComments(jobs)) return () => {};
    for (let attempt = 1; ; attempt++) {
      const shown = commentsShownBy(this.site, jobs);
      let release: () => void;
      try {
        release = await this.texts.hold(this.site, [...shown.map((c) => c.slug), ...jobs.flatMap((j) => (j.kind === 'api-comments' ? [j.slug] : []))]);
      } catch (error) {
        if (!(error instanceof CommentTextGone) || attempt === TEXT_ATTEMPTS) throw error;
        // The store changed under the model (a moderator's change whose notice has not
        // come yet): its list of that post stands, and what the jobs show is taken again.
        this.setComments(error.slug, (await this.texts.stored(error.slug)).filter((c) => !c.hidden).sort(compareComments));
        continue;
      }
      try {
        await this.commentHtml.prepare(shown);
      } catch (error) {
        release();
        throw error;
      }
      return release;
    }
  }

  /** After a full build: keep the render cache to the bodies of the site. */
  trim(full: boolean): void {
    if (full) this.cache.retain(new Set(this.site.posts.map((p: Post) => p.bodyHash)));
  }
}
