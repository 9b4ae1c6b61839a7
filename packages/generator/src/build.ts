/**
 * The build pipeline: load → validate → model → plan → render (only pages that must
 * be emitted: cached by body hash, misses on every core) → emit → write only what
 * changed. `SiteBuild` keeps the state in memory, so a long-lived process (the
 * writer, `agora dev`) rebuilds a handful of outputs after a comment, a view flush
 * or an edit without reloading anything.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import type { AgoraConfig } from './config.ts';
import type { Comment, Post, RenderedPost, SiteModel } from './types.ts';
import { type Message, ContentError, sortMessages } from './messages.ts';
import { listPostFiles } from './load/posts.ts';
import { readContent, contentMessages, type Content } from './content.ts';
import { RenderCache } from './render/cache.ts';
import { RenderPool } from './render/pool.ts';
import { CommentHtml, commentsShownBy, showsComments, type CommentFailedHandler } from './render/comment-html.ts';
import { buildSiteModel, compareComments } from './model/site.ts';
import { commentsChanged } from './model/comment-views.ts';
import { toPostRecord } from './model/records.ts';
import { planBuild, type Change, type Job } from './model/plan.ts';
import { createJobKeyer, jobId } from './model/job-keys.ts';
import { postsRenderedBy } from './model/feeds.ts';
import { EMITTERS } from './emit/index.ts';
import type { EmitContext } from './emit/context.ts';
import { countTextTokens } from './emit/token-count.ts';
import type { Output } from './emit/output.ts';
import { Manifest, OutputSink, type SinkResult, type WriteResult } from './emit/write-outputs.ts';
import { writeSearchIndex, type SearchIndexResult } from './emit/search-index.ts';
import { existsSync } from 'node:fs';

/** The writer's stored data as a build needs it (the caller reads its store). */
export interface StoreSnapshot {
  /** Comments (hidden ones are left out of every output). */
  comments: Iterable<Comment>;
  /** View counts by slug. */
  views: ReadonlyMap<string, number>;
}

export interface BuildOptions {
  /** Comments and views to show; none when absent (a site without a writer). */
  store?: StoreSnapshot;
  /** Start from an empty `dist/` and cache: render and write everything. */
  force?: boolean;
  /** Worker threads for rendering (default: one per core). */
  workers?: number;
  /**
   * A comment could not be rendered (stack overflow, over the time budget, any error):
   * it is left out of every output from now on. The writer hides it in the store.
   */
  onCommentFailed?: CommentFailedHandler;
  /** Longest one comment may take to render, in ms (default 1000). */
  commentBudgetMs?: number;
}

export interface BuildResult extends SinkResult {
  /** Every message (errors would have thrown `ContentError`). */
  messages: Message[];
  posts: number;
  /** Bodies rendered (cache misses). */
  rendered: number;
  /** The Pagefind index, when this build rewrote it (pages changed, or it was missing). */
  search?: SearchIndexResult;
  ms: number;
}

/**
 * Outputs emitted because their inputs changed and larger than this (the big JSON
 * lists, llms-full.txt) are written without hashing: they have changed, and hashing
 * tens of megabytes costs more than writing them.
 */
const HASH_LIMIT = 1 << 20;

/**
 * Comment HTML kept in memory between rebuilds (the most recently rendered): enough for
 * the pages a burst touches; older ones are rendered again when a page needs them.
 */
const COMMENT_HTML_KEPT = 20_000;

/** Below this many cache misses, rendering stays on the main thread. */
const POOL_THRESHOLD = 200;

/** The in-memory state of a built site. */
export class SiteBuild {
  private readonly recordCache = new Map<string, Uint8Array>();
  /** Token counts by SHA-1 of the text (post sources, llms-full entry heads). */
  private readonly tokenCounts = new Map<string, number>();
  /** Sanitized comment HTML, rendered off the main thread; failed comments are quarantined. */
  private readonly commentHtml: CommentHtml;
  private readonly rendered = new Map<string, RenderedPost>();
  /** Posts whose comments or views changed since the last `flushAggregates`. */
  private readonly pendingComments = new Set<string>();
  private readonly pendingViews = new Set<string>();
  /** Updates run one at a time, so two rebuilds never interleave their writes. */
  private lock: Promise<unknown> = Promise.resolve();
  readonly ctx: EmitContext;

  private constructor(
    readonly config: AgoraConfig,
    private current: SiteModel,
    private content: Content,
    private readonly cache: RenderCache,
    readonly manifest: Manifest,
    options: BuildOptions = {},
  ) {
    this.commentHtml = new CommentHtml({ budgetMs: options.commentBudgetMs, onFailed: options.onCommentFailed });
    const self = this;
    this.ctx = {
      get site() {
        return self.current;
      },
      recordBytes: (slug) => {
        let bytes = this.recordCache.get(slug);
        if (bytes === undefined) {
          const post = this.current.bySlug.get(slug);
          if (!post) throw new Error(`Cannot \`recordBytes\` without post \`${slug}\``);
          bytes = Buffer.from(JSON.stringify(toPostRecord(this.current, post)), 'utf8');
          this.recordCache.set(slug, bytes);
        }
        return bytes;
      },
      rendered: (slug) => {
        const post = this.current.bySlug.get(slug);
        const r = post && this.rendered.get(post.bodyHash);
        if (!r) throw new Error(`Cannot \`rendered\` without a rendering of \`${slug}\``);
        return r;
      },
      commentHtml: (c) => this.commentHtml.get(c),
      tokens: (text) => {
        // Counting costs ~0.3 s per MB; llms.txt and llms-full.txt ask for every post each time.
        const key = createHash('sha1').update(text).digest('base64');
        let n = this.tokenCounts.get(key);
        if (n === undefined) this.tokenCounts.set(key, (n = countTextTokens(text)));
        return n;
      },
    };
  }

  /** Build the whole site into `config.distDir`; the state stays usable for rebuilds. */
  static async build(config: AgoraConfig, options: BuildOptions = {}): Promise<{ state: SiteBuild; result: BuildResult }> {
    const started = performance.now();
    if (options.force) await Promise.all([rm(config.distDir, { recursive: true, force: true }), rm(config.cacheDir, { recursive: true, force: true })]);
    const [cache, manifest] = await Promise.all([RenderCache.open(config.cacheDir), Manifest.open(config.cacheDir, config.distDir)]);
    // A cold build of a big site renders everything: start the workers now, so their
    // start-up overlaps with reading the content.
    const paths = await listPostFiles(join(config.contentDir, 'posts'));
    const pool = cache.size === 0 && paths.length >= POOL_THRESHOLD ? RenderPool.start(options.workers) : undefined;
    try {
      const content = await readContent(config, { paths });
      const { posts, messages } = contentMessages(content);
      if (messages.some((m) => m.severity === 'error')) throw new ContentError(sortMessages(messages));
      const site = buildSiteModel({ config: config.site, posts, comments: options.store?.comments ?? [], views: options.store?.views ?? new Map(), catalog: content.catalog });
      const state = new SiteBuild(config, site, content, cache, manifest, options);
      const result = await state.emitFull(messages, { pool, workers: options.workers });
      const search = await state.indexForSearch(result);
      return { state, result: { ...result, ...search, ms: Math.round(performance.now() - started) } };
    } finally {
      await pool?.close();
    }
  }

  /**
   * Start the comment render worker now (a writer, after its start-up build), so the
   * first comment is not answered a second late. A failure here is not fatal: the
   * worker is started again when a comment needs it.
   */
  warmCommentRenderer(): Promise<void> {
    return this.commentHtml.warm().catch(() => {});
  }

  /** The current site model. */
  get site(): SiteModel {
    return this.current;
  }

  hasPost(slug: string): boolean {
    return this.current.bySlug.has(slug);
  }

  /**
   * Re-read the changed content files (`agora dev`), then emit what they changed.
   * Throws `ContentError` (and keeps the previous site) when the content has errors.
   */
  updateSources(changed: Iterable<string>): Promise<BuildResult> {
    return this.exclusive(async () => {
      const started = performance.now();
      const content = await readContent(this.config, { previous: this.content, changed: new Set(changed) });
      const { posts, messages } = contentMessages(content);
      if (messages.some((m) => m.severity === 'error')) throw new ContentError(sortMessages(messages));
      const comments = [...this.current.comments.values()].flat();
      const views = this.current.views;
      const before = this.current.bySlug;
      this.content = content;
      this.current = buildSiteModel({ config: this.config.site, posts, comments, views, catalog: content.catalog });
      for (const slug of this.recordCache.keys()) if (this.current.bySlug.get(slug)?.hash !== before.get(slug)?.hash) this.recordCache.delete(slug);
      const result = await this.emitFull(messages, { lazySave: true });
      const search = await this.indexForSearch(result);
      return { ...result, ...search, ms: Math.round(performance.now() - started) };
    });
  }

  /**
   * Replace the comments of some posts (any order; hidden ones are left out) and rewrite
   * each post's own outputs now: its page, `/api/post/{slug}` and `/api/comments/{slug}`.
   * The site-wide outputs that count or list comments wait for `flushAggregates`.
   */
  updateComments(bySlug: ReadonlyMap<string, readonly Comment[]>): Promise<WriteResult> {
    return this.exclusive(async () => {
      const slugs: string[] = [];
      for (const [slug, list] of bySlug) {
        if (!this.current.bySlug.has(slug)) continue;
        const visible = list.filter((c) => !c.hidden).sort(compareComments);
        if (visible.length > 0) this.current.comments.set(slug, visible);
        else this.current.comments.delete(slug);
        commentsChanged();
        this.recordCache.delete(slug);
        this.pendingComments.add(slug);
        slugs.push(slug);
      }
      return this.applyChange({ kind: 'post-comments', slugs });
    });
  }

  /** Set view counts; the mirrors that carry them are rewritten by `flushAggregates`. */
  updateViews(views: ReadonlyMap<string, number>): Promise<number> {
    return this.exclusive(async () => {
      let changed = 0;
      for (const [slug, n] of views) {
        if (!this.current.bySlug.has(slug) || this.current.views.get(slug) === n) continue;
        this.current.views.set(slug, n);
        this.recordCache.delete(slug);
        this.pendingViews.add(slug);
        changed++;
      }
      return changed;
    });
  }

  /** Whether site-wide outputs wait for `flushAggregates`. */
  get aggregatesPending(): boolean {
    return this.pendingComments.size + this.pendingViews.size > 0;
  }

  /**
   * Rewrite the site-wide outputs behind every comment and view change since the last
   * call, once: `/api/posts`, category and model lists, `/api/comments/count`,
   * `/api/views`, `/comments/`, `/debates/` and the records of posts whose views changed.
   */
  flushAggregates(): Promise<WriteResult> {
    return this.exclusive(async () => {
      const comments = [...this.pendingComments];
      const views = [...this.pendingViews];
      this.pendingComments.clear();
      this.pendingViews.clear();
      try {
        return await this.applyChange({ kind: 'aggregates', comments, views });
      } catch (error) {
        // Not lost: the next flush writes them.
        for (const s of comments) this.pendingComments.add(s);
        for (const s of views) this.pendingViews.add(s);
        throw error;
      }
    });
  }

  /** Persist pending state (the manifest) before the process exits. */
  close(): Promise<void> {
    return this.exclusive(() => Promise.all([this.manifest.flush(), this.commentHtml.close()]).then(() => {}));
  }

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.lock.then(fn, fn);
    this.lock = run.catch(() => {});
    return run;
  }

  private emit(job: Job): Output | Output[] {
    const emitter = EMITTERS[job.kind] as (ctx: EmitContext, job: Job) => Output | Output[];
    return emitter(this.ctx, job);
  }

  /** Every job, skipping those whose inputs are unchanged; prunes stale files. */
  private async emitFull(contentMessages: Message[], options: { pool?: RenderPool; workers?: number; lazySave?: boolean } = {}): Promise<Omit<BuildResult, 'ms'>> {
    const site = this.current;
    const plan = () => {
      const keyOf = createJobKeyer(site);
      const jobs = planBuild(site, { kind: 'full' }).map((job) => ({ job, id: jobId(job), key: keyOf(job) }));
      return { jobs, emitting: jobs.filter(({ id, key }) => this.manifest.jobs.get(id)?.key !== key).map(({ job }) => job) };
    };
    let { jobs, emitting } = plan();
    // A comment that cannot be rendered is dropped from the model: plan again without it.
    if ((await this.prepareComments(emitting)).size > 0) ({ jobs, emitting } = plan());
    // Render what will be emitted, and bodies whose style notes are unknown.
    const needed = new Set<Post>();
    // Feeds carry rendered bodies too: they wait, like pages, until rendering is done.
    const late: typeof jobs = [];
    for (const entry of jobs) {
      const { job, id, key } = entry;
      const emitting = this.manifest.jobs.get(id)?.key !== key;
      if (job.kind === 'post-page' && emitting) needed.add(site.bySlug.get(job.slug)!);
      const bodies = postsRenderedBy(site, job);
      if (bodies.length > 0) {
        late.push(entry);
        if (emitting) for (const p of bodies) needed.add(p);
      }
    }
    for (const post of site.posts) if (!this.cache.notes(post.bodyHash)) needed.add(post);
    if (options.lazySave) await this.manifest.markDirty();
    // A one-off build writes synchronously; a long-lived process (agora dev) must not block.
    const sink = new OutputSink(this.manifest, { sync: !options.lazySave });
    // Pages wait for their rendering; everything else is emitted while workers render.
    const pages = new Map<string, { id: string; key: string; job: Job }[]>();
    const rest: typeof jobs = [];
    for (const entry of jobs) {
      if (late.includes(entry)) continue;
      if (entry.job.kind !== 'post-page') rest.push(entry);
      else {
        const bodyHash = site.bySlug.get(entry.job.slug)!.bodyHash;
        pages.set(bodyHash, [...(pages.get(bodyHash) ?? []), entry]);
      }
    }
    const ready: { id: string; key: string; job: Job }[] = [];
    let wake: (() => void) | null = null;
    const onReady = (bodyHash: string) => {
      ready.push(...(pages.get(bodyHash) ?? []));
      pages.delete(bodyHash);
      wake?.();
    };
    let renderingDone = false;
    const rendering = this.ensureRendered([...needed], options.pool, options.workers, onReady).finally(() => {
      renderingDone = true;
      wake?.();
    });
    const drainReady = async () => {
      while (ready.length > 0) {
        const { job, id, key } = ready.shift()!;
        await sink.add(id, key, () => this.emit(job));
      }
    };
    for (const { job, id, key } of rest) {
      await sink.add(id, key, () => this.emit(job));
      if (ready.length > 64) await drainReady();
    }
    while (!renderingDone) {
      await drainReady();
      if (!renderingDone) await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
    }
    const rendered = await rendering;
    await drainReady();
    // Pages whose rendering was already in memory or in the cache.
    for (const list of pages.values()) for (const { job, id, key } of list) await sink.add(id, key, () => this.emit(job));
    for (const { job, id, key } of late) await sink.add(id, key, () => this.emit(job));
    const result = await sink.finish(true);
    this.cache.retain(new Set(site.posts.map((p) => p.bodyHash)));
    this.commentHtml.trim(COMMENT_HTML_KEPT);
    const changed = result.emittedJobs > 0 || result.removed.length > 0;
    if (options.lazySave) this.manifest.scheduleSave(1000);
    await Promise.all([options.lazySave || !changed ? null : this.manifest.save(), this.cache.save()]);
    const messages = [...contentMessages];
    for (const post of site.posts) {
      for (const n of this.cache.notes(post.bodyHash) ?? []) {
        messages.push({ file: post.file, line: post.bodyLine + n.line - 1, column: n.column, severity: 'warning', ruleId: n.ruleId, message: n.message, fix: n.fix });
      }
    }
    return { ...result, messages: sortMessages(messages), posts: site.posts.length, rendered };
  }

  /**
   * Rewrite the Pagefind index after a content build that changed pages (or when it is
   * missing). Comment and view rebuilds never call this. A failure is a warning: the
   * site is whole without search.
   */
  private async indexForSearch(result: Omit<BuildResult, 'ms'>): Promise<{ search?: SearchIndexResult; messages: Message[] }> {
    const { messages } = result;
    if (!this.config.searchIndex) return { messages };
    const pagesChanged = [...result.written, ...result.removed].some((p) => p.endsWith('.html'));
    if (!pagesChanged && existsSync(join(this.config.distDir, 'pagefind', 'pagefind-entry.json'))) return { messages };
    try {
      return { search: await writeSearchIndex(this.config.distDir), messages };
    } catch (error) {
      const warning: Message = { file: 'dist/pagefind/', line: 1, column: 1, severity: 'warning', ruleId: 'search-index', message: `Unexpected failure of the search index: ${(error as Error).message}`, fix: 'the site works without it; reinstall `pagefind` (npm ci) or set `AGORA_SEARCH_INDEX=0`' };
      return { messages: [...messages, warning] };
    }
  }

  /** Emit the jobs of a comment or views change: no keys, fsync-free, manifest saved lazily. */
  private async applyChange(change: Change): Promise<WriteResult> {
    const jobs = planBuild(this.current, change);
    if (jobs.length === 0) return { written: [], unchanged: 0, removed: [] };
    const pages = jobs.flatMap((j) => (j.kind === 'post-page' ? [this.current.bySlug.get(j.slug)!] : postsRenderedBy(this.current, j)));
    const [, dropped] = await Promise.all([this.ensureRendered(pages), this.prepareComments(jobs)]);
    // A quarantined comment of a post outside this change: rewrite that post's outputs too.
    const shown = new Set(jobs.flatMap((j) => (j.kind === 'post-page' ? [j.slug] : [])));
    const others = [...dropped].filter((slug) => !shown.has(slug));
    if (others.length > 0) {
      const extra = planBuild(this.current, { kind: 'post-comments', slugs: others });
      await Promise.all([this.ensureRendered(others.map((slug) => this.current.bySlug.get(slug)!)), this.prepareComments(extra)]);
      jobs.push(...extra.filter((job) => !jobs.some((j) => jobId(j) === jobId(job))));
    }
    // dist/ files are derived: the atomic rename keeps each whole, and the data they
    // come from (comments, views) was fsynced before.
    await this.manifest.markDirty();
    const sink = new OutputSink(this.manifest, { hashLimit: HASH_LIMIT, syncBelow: 64 * 1024 });
    for (const job of jobs) await sink.add(jobId(job), null, () => this.emit(job));
    const result = await sink.finish(false);
    // No manifest save here: at 10,000 posts it blocks the event loop for over a second.
    // It is saved at close; until then the dirty marker makes a build after a crash
    // emit everything once instead of trusting stale hashes.
    this.commentHtml.trim(COMMENT_HTML_KEPT);
    return result;
  }

  /**
   * Render (off the main thread) the comments these jobs show, so `ctx.commentHtml`
   * only reads the cache. Comments that cannot be rendered are dropped from the model,
   * as if hidden (the site-wide lists follow at the next `flushAggregates`); returns
   * the slugs that lost a comment.
   */
  private async prepareComments(jobs: readonly Job[]): Promise<Set<string>> {
    const dropped = new Set<string>();
    if (this.current.comments.size === 0 || !showsComments(jobs)) return dropped;
    const failed = await this.commentHtml.prepare(commentsShownBy(this.current, jobs));
    for (const comment of failed) {
      const list = this.current.comments.get(comment.slug)?.filter((c) => c.id !== comment.id) ?? [];
      if (list.length > 0) this.current.comments.set(comment.slug, list);
      else this.current.comments.delete(comment.slug);
      commentsChanged();
      this.recordCache.delete(comment.slug);
      this.pendingComments.add(comment.slug);
      dropped.add(comment.slug);
    }
    return dropped;
  }

  /** Make renderings of these posts available: memory, then the cache, then render. Returns how many were rendered. */
  private async ensureRendered(posts: readonly Post[], pool?: RenderPool, workers?: number, onReady?: (bodyHash: string) => void): Promise<number> {
    const missing = new Map<string, string>();
    for (const p of posts) {
      const key = p.bodyHash;
      if (!this.rendered.has(key)) missing.set(key, p.content);
    }
    if (missing.size === 0) return 0;
    const hits = await this.cache.getMany(missing.keys());
    const misses = new Map<string, string>();
    for (const [key, content] of missing) {
      const hit = hits.get(key);
      if (hit) {
        this.rendered.set(key, hit);
        onReady?.(key);
      } else misses.set(key, content);
    }
    if (misses.size === 0) return 0;
    const own = pool && misses.size >= POOL_THRESHOLD ? null : misses.size >= POOL_THRESHOLD ? RenderPool.start(workers) : RenderPool.inline();
    const fresh: [string, RenderedPost][] = [];
    try {
      await (own ?? pool!).render([...misses], (key, value) => {
        this.rendered.set(key, value);
        fresh.push([key, value]);
        onReady?.(key);
      });
    } finally {
      await own?.close();
    }
    for (const [key, value] of fresh) await this.cache.set(key, value);
    return misses.size;
  }
}

/** Build the whole site into `config.distDir`, writing only changed files. */
export function build(config: AgoraConfig, options: BuildOptions = {}): Promise<{ result: BuildResult; state: SiteBuild }> {
  return SiteBuild.build(config, options);
}

/** Validate all content and render every post (through the cache) for its style notes. */
export async function checkContent(config: AgoraConfig): Promise<{ messages: Message[]; files: number }> {
  const content = await readContent(config);
  const { posts, messages } = contentMessages(content);
  const cache = await RenderCache.open(config.cacheDir);
  const misses = new Map<string, string>();
  for (const post of posts) if (!cache.notes(post.bodyHash)) misses.set(post.bodyHash, post.content);
  const pool = misses.size >= POOL_THRESHOLD ? RenderPool.start() : RenderPool.inline();
  try {
    for (const [key, value] of await pool.render([...misses])) await cache.set(key, value);
  } finally {
    await pool.close();
  }
  await cache.save();
  for (const post of posts) {
    for (const n of cache.notes(post.bodyHash) ?? []) {
      messages.push({ file: post.file, line: post.bodyLine + n.line - 1, column: n.column, severity: 'warning', ruleId: n.ruleId, message: n.message, fix: n.fix });
    }
  }
  return { messages: sortMessages(messages), files: content.parsed.size };
}
