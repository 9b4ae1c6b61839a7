/**
 * `SiteBuild`: a built site kept in memory, so a long-lived process (the writer,
 * `agora dev`) rebuilds a handful of outputs after a comment, a view flush or an edit
 * without reloading anything. It runs one update at a time: each makes a plan
 * (`plan.ts`) and carries it out (`run.ts`, `schedule.ts`) through the output sink;
 * every cache is in the build state (`state.ts`).
 */
import { rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { AgoraConfig } from '../config.ts';
import type { Comment, Post, SiteModel } from '../types.ts';
import { listPostFiles, sourceName } from '../load/posts.ts';
import { checkChanges, readChanges, readValidContent } from '../content.ts';
import { ContentError, sortMessages, type Message } from '../messages.ts';
import { SiteChecks } from '../validate/site.ts';
import { ParseCache } from '../parse-cache.ts';
import { TokenCache } from '../emit/token-cache.ts';
import { RenderCache } from '../render/cache.ts';
import { POOL_THRESHOLD, RenderPool } from '../render/pool.ts';
import { buildSiteModel, commentsWithoutPost, compareComments, postsByModel, updateSiteModel } from '../model/site.ts';
import { postsByTag } from '../model/tags.ts';
import { withKeyStatus, type MissingKeys } from '../catalog/key-status.ts';
import { listJobsOf, type Job } from '../model/jobs.ts';
import { jobId } from '../model/job-keys.ts';
import type { EmitContext } from '../emit/context.ts';
import { Manifest, type WriteResult } from '../emit/write-outputs.ts';
import { BuildState, type Held } from './state.ts';
import { runChange, runFull } from './run.ts';
import { postPages, SearchIndexer, type SearchIndexListener, type SearchIndexStatus } from './search-indexer.ts';
import type { BuildOptions, BuildResult, PagesWritten } from './types.ts';
import { saveDerived } from './derived-saves.ts';

export type { BuildOptions, BuildResult, PagesWritten, StoreSnapshot } from './types.ts';

/**
 * One warning per post that has stored comments but no content file now, placed where
 * the post's file would be: the comments stay in the store, shown nowhere until a post
 * with that slug exists again.
 */
function withoutPostMessages(config: AgoraConfig, counts: ReadonlyMap<string, number>): Message[] {
  return [...counts].map(([slug, n]) => ({
    file: relative(config.root, join(config.contentDir, 'posts', `${slug}.md`)),
    line: 1,
    column: 1,
    severity: 'warning' as const,
    ruleId: 'comments-without-post',
    message: `${n} stored comment${n === 1 ? '' : 's'} belong${n === 1 ? 's' : ''} to the post \`${slug}\`, which no file under content/posts/ has now: kept in the store, shown nowhere`,
    fix: `if the post was renamed, give it its old file name back (a post's slug is its file name); if it was removed on purpose, hide or delete its comments (agora comments list --slug ${slug})`,
  }));
}

export class SiteBuild {
  /** Posts whose comments or views changed since the last `flushAggregates`. */
  private readonly pendingComments = new Set<string>();
  private readonly pendingViews = new Set<string>();
  /** Posts whose category, model and tag mirrors wait for a flush with `lists` (by what changed). */
  private readonly pendingListComments = new Set<string>();
  private readonly pendingListViews = new Set<string>();
  /** Category, model and tag mirrors a flush with `lists` has still to write, by job id (and whether comments changed them). */
  private readonly pendingListJobs = new Map<string, { job: Job; comments: boolean }>();
  /** Posts whose comment feeds wait for a flush (in arrival order). */
  private readonly pendingFeeds = new Set<string>();
  /**
   * Updates run one at a time, so two rebuilds never interleave their writes; except
   * comment rebuilds of different posts (disjoint files), which run side by side with
   * each other and with a site-wide flush (`shared`; writes of one path keep their order
   * through `Manifest.claimWrite`), and each caller keeps one post in one rebuild.
   */
  private lock: Promise<unknown> = Promise.resolve();
  /** Comment rebuilds running beside each other and the flush (outside the lock). */
  private readonly shared = new Set<Promise<unknown>>();
  /** Updates queued or running under the lock: comment rebuilds queue behind them, but for flushes. */
  private exclusivePending = 0;
  private flushes = 0;
  /** The comment text of posts rebuilt while a site-wide flush runs, held until it ends. */
  private heldForFlush: Promise<() => void>[] | null = null;
  /**
   * Post files read by `updateSources` since the site model last matched the content: an
   * edit with errors leaves the model as it was, and the next edit that passes brings
   * every one of them in.
   */
  private readonly unsynced = new Set<string>();
  private catalogUnsynced = false;

  /** The static search index, kept up to date beside the builds. */
  private readonly search: SearchIndexer;

  private constructor(
    readonly config: AgoraConfig,
    private readonly state: BuildState,
    /** Entries shown as `pending_key` because this process lacks their key (fixed for its life). */
    private readonly missingKeys: MissingKeys | undefined,
  ) {
    this.search = new SearchIndexer(config.distDir, config.searchIndex, { shardPages: config.searchShardPages });
  }

  /** Build the whole site into `config.distDir`; the state stays usable for rebuilds. */
  static async build(config: AgoraConfig, options: BuildOptions = {}): Promise<{ state: SiteBuild; result: BuildResult }> {
    const started = performance.now();
    if (options.force) await Promise.all([rm(config.distDir, { recursive: true, force: true }), rm(config.cacheDir, { recursive: true, force: true })]);
    const [cache, manifest, parsed, tokens] = await Promise.all([RenderCache.open(config.cacheDir), Manifest.open(config.cacheDir, config.distDir), ParseCache.open(config.cacheDir), TokenCache.open(config.cacheDir)]);
    // A cold build of a big site renders everything: start the workers now, so their
    // start-up overlaps with reading the content.
    const paths = await listPostFiles(join(config.contentDir, 'posts'));
    const pool = cache.size === 0 && paths.length >= POOL_THRESHOLD ? RenderPool.start(options.workers) : undefined;
    try {
      let read: Awaited<ReturnType<typeof readValidContent>>;
      let parseUnsaved: Message | null;
      try {
        read = await readValidContent(config, { paths, cache: parsed });
      } finally {
        parseUnsaved = await saveDerived('parsed front matter', () => parsed.save());
      }
      const { content, posts, messages } = read;
      if (parseUnsaved) messages.push(parseUnsaved);
      const site = buildSiteModel({ config: config.site, posts, comments: options.store?.comments ?? [], views: options.store?.views ?? new Map(), catalog: withKeyStatus(content.catalog, options.missingKeys) });
      messages.push(...withoutPostMessages(config, commentsWithoutPost(options.store?.comments ?? [], site.bySlug)));
      const state = new BuildState(site, content, cache, manifest, { budgetMs: options.commentBudgetMs, onRendered: options.onCommentRendered, onPlain: options.onCommentPlain, longLived: options.longLived, tokens, loadComments: options.longLived ? options.store?.loadComments : undefined, commentTextPosts: options.commentTextPosts });
      const built = new SiteBuild(config, state, options.missingKeys);
      // A build that fails (a full disk) lets go of its threads: the writer tries again.
      const result = await runFull(state, built.prepare, messages, { pool, workers: options.workers }).catch(async (error: unknown) => {
        await built.close().catch(() => {});
        throw error;
      });
      // The text of the comments of every post beyond the ones used last goes now, also
      // when the build emitted nothing (a restart with nothing changed).
      state.texts.evict(state.site);
      built.search.note(postPages(state.site), [...result.written, ...result.removed]);
      if (options.searchIndexInBackground) {
        // The writer: caught up without waiting for Pagefind; the index follows.
        built.search.schedule();
        return { state: built, result: { ...result, ms: Math.round(performance.now() - started) } };
      }
      // The first index is written before the build returns (a one-off build exits next).
      const indexed = await built.search.runNow();
      return { state: built, result: { ...result, ...(indexed.search ? { search: indexed.search } : {}), messages: [...result.messages, ...indexed.messages], ms: Math.round(performance.now() - started) } };
    } finally {
      await pool?.close();
    }
  }

  /** What emitters read (the model and the memoised pieces of the build state). */
  get ctx(): EmitContext {
    return this.state.ctx;
  }

  get manifest(): Manifest {
    return this.state.manifest;
  }

  /**
   * Start the comment render worker now (a writer, after its start-up build), so the
   * first comment is not answered a second late. A failure here is not fatal: the
   * worker is started again when a comment needs it.
   */
  warmCommentRenderer(): Promise<void> {
    return this.state.commentHtml.warm().catch(() => {});
  }

  /**
   * How much the state holds in memory: renderings and post records (when long-lived,
   * every record and the renderings used since the last `shrink`; else none after a
   * build), renderings not yet written to the render cache (none after a build), posts
   * whose comments hold their text, bytes of kept comment lists. For tests and benches.
   */
  get held(): Held {
    return this.state.held;
  }

  /**
   * Let go of what is kept only to make the next comment on a post cheaper (its body's
   * rendering, its comments' text, its kept lists: `BuildState.shrink`), once the
   * updates queued now have run, and only if `still()` says so then. The writer calls
   * it when comments have been calm for a while. Resolves with what was held before, or
   * null when it did not shrink.
   */
  shrink(still: () => boolean = () => true): Promise<Held | null> {
    return this.exclusive(async () => (still() ? this.state.shrink() : null));
  }

  /**
   * Make what an edit's checks read (the site checks' indexes: `SiteChecks`) now, so the
   * first edit in `agora dev` does not pay for them; otherwise the first edit makes them.
   */
  prepareEdits(): void {
    this.state.content.checks ??= SiteChecks.of(this.state.content.parsed);
  }

  /** The current site model. */
  get site(): SiteModel {
    return this.state.site;
  }

  hasPost(slug: string): boolean {
    return this.state.site.bySlug.has(slug);
  }

  /**
   * Re-read the changed content files (`agora dev`), then emit what they changed, in two
   * speeds (as the writer does for comments): first the edited posts' own outputs (their
   * pages are in `dist/` in milliseconds; a deleted post's files are gone), then the full
   * plan (the lists, feeds and site-wide files that show them). `onPages` is told when the
   * first half is written. Throws `ContentError` (and keeps the previous site model) when
   * the content has errors; the files with errors stay in the content, so a later edit of
   * another file still reports them.
   *
   * The first half grows with the edit, not the site: only the changed files are read and
   * parsed, checked against the site checks' kept indexes (`SiteChecks`: slugs, models and
   * tag spellings), and the model is derived from the last one (`updateSiteModel`).
   *
   * @param changed Paths of the files that changed.
   * @param onPages Called with the files the first half wrote or removed, and its time.
   */
  updateSources(changed: Iterable<string>, onPages?: (pages: PagesWritten) => void): Promise<BuildResult> {
    return this.exclusive(async () => {
      const started = performance.now();
      const { content, site } = this.state;
      // The changed files into the content (in place), and their checks against the
      // indexes kept from the last edit: the cost of an edit, not of the site.
      const read = await readChanges(this.config, content, changed);
      for (const path of read.paths) this.unsynced.add(path);
      if (read.catalog) this.catalogUnsynced = true;
      const messages = checkChanges(content);
      if (messages.some((m) => m.severity === 'error')) throw new ContentError(sortMessages(messages));
      // The model follows every file read since it last matched the content (an edit that
      // failed leaves its files for the next one), without going over the other posts.
      const remove: string[] = [];
      const add: Post[] = [];
      for (const path of this.unsynced) {
        const post = content.parsed.get(path)?.result.post;
        if (post) add.push(post);
        else {
          // Gone or invalid before: its slug goes, if the model's post of that slug is this file's.
          const name = sourceName(path, this.config.root);
          if (site.bySlug.get(name.slug)?.file === name.file) remove.push(name.slug);
        }
      }
      // What the model had of these slugs (`updateSiteModel` uses the old model up).
      const before = new Map([...remove, ...add.map((p) => p.slug)].map((slug) => [slug, site.bySlug.get(slug)?.hash]));
      const catalog = this.catalogUnsynced ? withKeyStatus(content.catalog, this.missingKeys) : undefined;
      this.state.replaceSite(updateSiteModel(site, { remove, add, catalog }), content, before.keys());
      this.unsynced.clear();
      this.catalogUnsynced = false;
      // The posts whose source changed, appeared or went away.
      const now = this.state.site;
      const edited = [...before].filter(([s, hash]) => now.bySlug.has(s) && now.bySlug.get(s)!.hash !== hash).map(([s]) => s);
      const deleted = [...before].filter(([s, hash]) => !now.bySlug.has(s) && hash !== undefined).map(([s]) => s);
      const appeared = [...before].filter(([s, hash]) => now.bySlug.has(s) && hash === undefined).map(([s]) => s);
      let pages: PagesWritten | undefined;
      let rendered = 0;
      if (edited.length + deleted.length > 0) {
        const fast = await runChange(this.state, this.prepare, { kind: 'post-sources', slugs: [...edited, ...deleted] });
        pages = { written: fast.written, removed: fast.removed, ms: Math.round(performance.now() - started) };
        rendered = fast.rendered;
        onPages?.(pages);
      }
      const result = await runFull(this.state, this.prepare, messages, { lazySave: true });
      // The edit does not wait for the search index: it follows in the background.
      const touched = [...(pages?.written ?? []), ...(pages?.removed ?? []), ...result.written, ...result.removed];
      this.search.note(postPages(this.state.site), touched);
      this.search.schedule();
      // One result for the whole edit: both halves' files and renderings.
      // A file both halves wrote (dist/ written whole again after it was deleted) counts once.
      const written = pages ? [...new Set([...pages.written, ...result.written])] : result.written;
      const removed = pages ? [...pages.removed, ...result.removed] : result.removed;
      return { ...result, written, removed, rendered: result.rendered + rendered, fromCache: Math.max(0, result.fromCache - rendered), ...(pages ? { pages } : {}), ...(appeared.length > 0 ? { appeared } : {}), ms: Math.round(performance.now() - started) };
    });
  }

  /**
   * Replace the comments of some posts (any order; hidden ones are left out) and rewrite
   * each post's own outputs now: its page, `/api/post/{slug}` and `/api/comments/{slug}`.
   * The site-wide outputs that count or list comments wait for `flushAggregates`.
   */
  updateComments(bySlug: ReadonlyMap<string, readonly Comment[]>): Promise<WriteResult> {
    const work = async () => {
      const slugs: string[] = [];
      for (const [slug, list] of bySlug) {
        if (!this.hasPost(slug)) continue;
        this.state.setComments(slug, list.filter((c) => !c.hidden).sort(compareComments));
        this.pendingComments.add(slug);
        slugs.push(slug);
      }
      // Beside a flush: the flush prepared the comment text its jobs show before these
      // comments came, and its jobs that show the newest comments (`/comments/`, the
      // site's comment feed) show them all the same. Their text stays until it ends; else,
      // with few posts' text kept (`AGORA_COMMENT_TEXT_POSTS`) and many rebuilds meanwhile,
      // it was dropped and the flush failed. (A read that fails here fails the rebuild's
      // own `prepare` too, which deals with it.)
      this.heldForFlush?.push(this.state.texts.hold(this.state.site, slugs).catch(() => () => {}));
      return runChange(this.state, this.prepare, { kind: 'post-comments', slugs });
    };
    // Beside a site-wide flush; behind an edit of the content or the close.
    if (this.updateQueued) return this.exclusive(work);
    // Side by side with other posts' comment rebuilds (callers never pass one post to two at once).
    const run = work();
    const tracked = run.catch(() => {});
    this.shared.add(tracked);
    void tracked.finally(() => this.shared.delete(tracked));
    return run;
  }

  /** Set view counts; the mirrors that carry them are rewritten by `flushAggregates`. */
  updateViews(views: ReadonlyMap<string, number>): Promise<number> {
    const work = async () => {
      let changed = 0;
      for (const [slug, n] of views) {
        if (!this.hasPost(slug) || !this.state.setViews(slug, n)) continue;
        this.pendingViews.add(slug);
        changed++;
      }
      return changed;
    };
    // Counts only: beside a site-wide flush (its mirrors follow in the next), as a post's
    // rebuild runs; behind an edit of the content or the close. Under the lock it held
    // every post rebuild queued after it behind the whole flush.
    return this.updateQueued ? this.exclusive(work) : work();
  }

  /** Whether site-wide outputs wait for `flushAggregates`. */
  get aggregatesPending(): boolean {
    return this.pendingComments.size + this.pendingViews.size + this.listsPending + this.pendingFeeds.size > 0;
  }

  /** A round of category, model and tag mirrors was begun and not finished (a flush with `lists` ended it early). */
  get listsUnderWay(): boolean {
    return this.pendingListJobs.size > 0;
  }

  /** How many category, model and tag mirrors (or posts whose mirrors) wait for a flush with `lists`. */
  get listsPending(): number {
    return this.pendingListComments.size + this.pendingListViews.size + this.pendingListJobs.size;
  }

  /**
   * Rewrite the site-wide outputs behind every comment and view change since the last
   * call, once: `/api/posts`, `/api/comments/count`, `/api/views`, `/comments/`,
   * `/debates/`, the site's comment feed, the records of posts whose views changed, the
   * comment feeds of at most `feeds` posts (the oldest waiting; the rest wait for the
   * next flush, so a flush under a flood of comments stays short and `/api/posts`
   * follows every second) and, unless `lists` is false, the category, model and tag
   * mirrors (with `lists: false` they wait for a later flush). The mirrors come last, as
   * a rebuild of their own that ends early once `stopLists` says so (asked after each
   * mirror; the writer: when a newer change has waited half the aggregate delay): the
   * mirrors not written by then wait for the next flush with `lists`, after its
   * `/api/posts`, so ~140 MB of mirrors at 10,000 posts never hold `/api/posts` back.
   * `giveWay` is awaited between the flush's slices: the writer holds the flush there
   * while comments are being answered. `sliceMs`: the shortest slice (default 8 ms;
   * a test passes 0 to end the first slice after one job).
   */
  flushAggregates(options: { lists?: boolean; feeds?: number; giveWay?: () => Promise<void>; stopLists?: () => boolean; sliceMs?: number } = {}): Promise<WriteResult> {
    this.flushes++;
    return this.exclusive(async () => {
      this.heldForFlush = [];
      const comments = [...this.pendingComments];
      const views = [...this.pendingViews];
      this.pendingComments.clear();
      this.pendingViews.clear();
      for (const s of comments) this.pendingListComments.add(s);
      for (const s of views) this.pendingListViews.add(s);
      const withLists = options.lists !== false;
      // A round of mirrors is finished before the next begins (each mirror once per
      // round, however many changes come meanwhile); a flush that may not stop early
      // takes the changes since into the round it finishes.
      if (withLists && (this.pendingListJobs.size === 0 || !options.stopLists)) this.takeListJobs();
      for (const s of comments) this.pendingFeeds.add(s);
      const feeds = [...this.pendingFeeds].slice(0, options.feeds ?? Infinity);
      for (const s of feeds) this.pendingFeeds.delete(s);
      const none = { comments: [], views: [] };
      try {
        // Post rebuilds run beside the flush (`updateComments`); between its slices the flush
        // waits while requests it must not delay are under way (`giveWay`: comments being
        // answered), and the event loop serves requests and worker messages.
        const between = options.giveWay ?? (async () => {});
        const result = await runChange(this.state, this.prepare, { kind: 'aggregates', comments, views, lists: none, feeds }, { between, sliceMs: options.sliceMs });
        if (!withLists || this.pendingListJobs.size === 0) return result;
        for (const [id, { job }] of this.pendingListJobs) if (!this.listed(job)) this.pendingListJobs.delete(id);
        const jobs = [...this.pendingListJobs.values()];
        const lists = await runChange(this.state, this.prepare, { kind: 'lists', comments: jobs.filter((j) => j.comments).map((j) => j.job), views: jobs.filter((j) => !j.comments).map((j) => j.job) }, { between, stop: options.stopLists, sliceMs: options.sliceMs });
        for (const id of lists.emitted) this.pendingListJobs.delete(id);
        return { written: [...result.written, ...lists.written], unchanged: result.unchanged + lists.unchanged, removed: [...result.removed, ...lists.removed] };
      } catch (error) {
        // Not lost: the next flush writes them (mirrors not written stay in `pendingListJobs`).
        for (const s of comments) this.pendingComments.add(s);
        for (const s of views) this.pendingViews.add(s);
        for (const s of feeds) this.pendingFeeds.add(s);
        throw error;
      } finally {
        for (const held of this.heldForFlush ?? []) void held.then((release) => release());
        this.heldForFlush = null;
        this.flushes--;
      }
    });
  }

  /** Whether a mirror left waiting still lists posts (an edit may have taken its model's or tag's last one away). */
  private listed(job: Job): boolean {
    if (job.kind === 'api-model') return postsByModel(this.state.site).has(job.model);
    if (job.kind === 'api-tag') return postsByTag(this.state.site).has(job.tag);
    return true;
  }

  /** The mirrors of the posts waiting for a flush with `lists`, as jobs (each once; a comment change wins over views). */
  private takeListJobs(): void {
    const add = (slugs: Iterable<string>, comments: boolean) => {
      for (const job of listJobsOf([...slugs].flatMap((s) => this.state.site.bySlug.get(s) ?? []))) {
        const id = jobId(job);
        const had = this.pendingListJobs.get(id);
        this.pendingListJobs.set(id, { job, comments: comments || (had?.comments ?? false) });
      }
    };
    add(this.pendingListComments, true);
    add(this.pendingListViews, false);
    this.pendingListComments.clear();
    this.pendingListViews.clear();
  }

  /** How stale the static search index is (`/api/health`, the dev log). */
  get searchIndex(): SearchIndexStatus {
    return this.search.status;
  }

  /** Be told when a background run of the search index finishes or fails (the dev log). */
  onSearchIndexed(listener: SearchIndexListener): void {
    this.search.listener = listener;
  }

  /** Resolves when the search index has caught up with every edit so far (tests, benches). */
  searchIndexIdle(): Promise<void> {
    return this.search.idle();
  }

  /**
   * Make ahead what the first site-wide flush needs (a long-lived process, after its
   * start; see `BuildState.warm`), giving way between steps as `flushAggregates` does.
   */
  warm(giveWay?: () => Promise<void>): Promise<void> {
    // The write threads load now, not under the first comment (under two busy loops,
    // loading them and the store's file threads then took its answer to ~900 ms); they
    // stop again after a calm spell.
    this.state.writeThreads?.start();
    return this.state.warm(giveWay);
  }

  /** Persist pending state (the manifest) before the process exits; stop indexing. */
  close(): Promise<void> {
    return this.exclusive(() => Promise.all([this.state.manifest.flush(), this.state.commentHtml.close(), this.search.close(), this.state.writeThreads?.close()]).then(() => {}));
  }

  /**
   * Whether an update other than a site-wide flush (an edit of the content, a shrink,
   * the close) is queued or running under the lock: post rebuilds and views updates run
   * beside a flush, but behind those.
   */
  private get updateQueued(): boolean {
    return this.exclusivePending > this.flushes;
  }

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    this.exclusivePending++;
    // After the comment rebuilds already running beside each other.
    const start = () => Promise.all([...this.shared]).then(fn);
    const run = this.lock.then(start, start).finally(() => this.exclusivePending--);
    this.lock = run.catch(() => {});
    return run;
  }

  /** Give the comments these jobs show their HTML. */
  private readonly prepare = (jobs: readonly Job[]): Promise<() => void> => this.state.prepareComments(jobs);

  /**
   * Run `read` while the comments of these posts hold their text (read back from the
   * store where it was dropped): MCP's comment tools. `read` must not await.
   */
  async withCommentTexts<T>(slugs: Iterable<string>, read: () => T): Promise<T> {
    const release = await this.holdCommentTexts(slugs);
    try {
      return read();
    } finally {
      release();
    }
  }

  /**
   * Read back the comment text of these posts now and keep it until the function
   * returned is called: the writer, when a comment arrives, so its post's rebuild finds
   * the text in memory instead of reading it after the store step.
   */
  holdCommentTexts(slugs: Iterable<string>): Promise<() => void> {
    return this.state.texts.hold(this.state.site, slugs);
  }

  /** How many posts' comments hold their text in memory (tests, benches). */
  get commentTextPosts(): number {
    return this.state.held.textPosts;
  }
}
