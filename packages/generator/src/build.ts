/**
 * The build pipeline: load → validate → render (cached, on every core) → model →
 * plan → emit → write only what changed. `createBuild` keeps the state in memory so a
 * long-lived process (the writer, `agora dev`) can rebuild a handful of outputs
 * after a comment or a view flush without reloading anything.
 */
import { rm } from 'node:fs/promises';
import type { AgoraConfig } from './config.ts';
import type { Comment, Post, RenderedPost, SiteModel } from './types.ts';
import { type Message, ContentError, sortMessages } from './messages.ts';
import { loadContent } from './load/content.ts';
import { loadStoreSnapshot } from './load/store-snapshot.ts';
import { RenderCache } from './render/cache.ts';
import { RenderPool } from './render/pool.ts';
import { renderCommentMarkdown } from './render/comment-markdown.ts';
import { buildSiteModel } from './model/site.ts';
import { toPostRecord } from './model/records.ts';
import { planBuild, type Change } from './model/plan.ts';
import { runJobs } from './emit/index.ts';
import type { EmitContext } from './emit/context.ts';
import { Manifest, writeOutputs, type WriteResult } from './emit/write-outputs.ts';
import { hashText } from './load/posts.ts';

export interface BuildOptions {
  /** Ignore the render cache and the manifest: render and write everything. */
  force?: boolean;
  /** Worker threads for rendering besides the main thread (default: cores − 1). */
  workers?: number;
}

export interface BuildResult extends WriteResult {
  /** Every message (errors would have thrown `ContentError`). */
  messages: Message[];
  posts: number;
  rendered: number;
  outputs: number;
  ms: number;
}

/** The in-memory state of a site between rebuilds. */
export class SiteBuild {
  private readonly recordCache = new Map<string, string>();
  private readonly commentHtmlCache = new Map<string, string>();
  /** Updates run one at a time, so two rebuilds never interleave their writes. */
  private lock: Promise<unknown> = Promise.resolve();
  readonly ctx: EmitContext;

  constructor(
    readonly config: AgoraConfig,
    private current: SiteModel,
    private renderedBySlug: Map<string, RenderedPost>,
    readonly manifest: Manifest,
  ) {
    const self = this;
    this.ctx = {
      get site() {
        return self.current;
      },
      recordJson: (slug) => {
        let json = this.recordCache.get(slug);
        if (json === undefined) {
          const post = this.current.bySlug.get(slug);
          if (!post) throw new Error(`Cannot \`recordJson\` without post \`${slug}\``);
          json = JSON.stringify(toPostRecord(this.current, post));
          this.recordCache.set(slug, json);
        }
        return json;
      },
      rendered: (slug) => {
        const r = this.renderedBySlug.get(slug);
        if (!r) throw new Error(`Cannot \`rendered\` without a rendering of \`${slug}\``);
        return r;
      },
      commentHtml: (c) => {
        const key = `${c.id}:${hashText(c.body)}`;
        let out = this.commentHtmlCache.get(key);
        if (out === undefined) {
          out = renderCommentMarkdown(c.body);
          this.commentHtmlCache.set(key, out);
        }
        return out;
      },
    };
  }

  /** The current site model. */
  get site(): SiteModel {
    return this.current;
  }

  /** Take over a freshly built state (after `agora dev` rebuilt the site from changed content). */
  replace(next: SiteBuild): Promise<void> {
    return this.exclusive(async () => {
      this.current = next.current;
      this.renderedBySlug = next.renderedBySlug;
      this.recordCache.clear();
      for (const [path, hash] of next.manifest.outputs) this.manifest.outputs.set(path, hash);
      for (const path of [...this.manifest.outputs.keys()]) if (!next.manifest.outputs.has(path)) this.manifest.outputs.delete(path);
    });
  }

  /** Persist pending state (the manifest) before the process exits. */
  close(): Promise<void> {
    return this.exclusive(() => this.manifest.flush());
  }

  /** Whether a post exists. */
  hasPost(slug: string): boolean {
    return this.current.bySlug.has(slug);
  }

  post(slug: string): Post | undefined {
    return this.current.bySlug.get(slug);
  }

  /** Replace the comments of some posts (visible ones, any order) and rewrite what shows them. */
  updateComments(bySlug: Map<string, readonly Comment[]>): Promise<WriteResult> {
    return this.exclusive(() => this.applyComments(bySlug));
  }

  private async applyComments(bySlug: Map<string, readonly Comment[]>): Promise<WriteResult> {
    for (const [slug, list] of bySlug) {
      if (!this.current.bySlug.has(slug)) continue;
      const visible = list.filter((c) => !c.hidden);
      const sorted = [...visible].sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : 1));
      if (sorted.length > 0) this.current.comments.set(slug, sorted);
      else this.current.comments.delete(slug);
      this.recordCache.delete(slug);
    }
    return this.apply({ kind: 'comments', slugs: [...bySlug.keys()] });
  }

  /** Set view counts and rewrite the mirrors that carry them. */
  updateViews(views: Map<string, number>): Promise<WriteResult> {
    return this.exclusive(() => this.applyViews(views));
  }

  private async applyViews(views: Map<string, number>): Promise<WriteResult> {
    const changed: string[] = [];
    for (const [slug, n] of views) {
      if (!this.current.bySlug.has(slug) || this.current.views.get(slug) === n) continue;
      this.current.views.set(slug, n);
      this.recordCache.delete(slug);
      changed.push(slug);
    }
    if (changed.length === 0) return { written: [], unchanged: 0, removed: [] };
    return this.apply({ kind: 'views', slugs: changed });
  }

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.lock.then(fn, fn);
    this.lock = run.catch(() => {});
    return run;
  }

  /** Emit and write the outputs a change touches, each fsynced. */
  private async apply(change: Change): Promise<WriteResult> {
    const outputs = runJobs(this.ctx, planBuild(this.site, change));
    // dist/ files are derived: atomic rename keeps each whole; the data they come
    // from (comments, views) was fsynced before. The manifest is saved lazily.
    await this.manifest.markDirty();
    const result = await writeOutputs(this.manifest, outputs, { durable: false, prune: false, hashLimit: 1 << 20 });
    this.manifest.scheduleSave(1000);
    return result;
  }
}

/**
 * Render posts through the cache; misses go to the pool (or this thread for a few).
 * Also returns the renderer's style notes, positioned in the source files.
 */
export async function renderPosts(config: AgoraConfig, posts: readonly Post[], options: BuildOptions & { cache?: RenderCache; pool?: RenderPool } = {}) {
  const cache = options.cache ?? (await RenderCache.open(options.force ? null : config.cacheDir));
  const renderedBySlug = new Map<string, RenderedPost>();
  const misses = new Map<string, string>();
  const keyBySlug = new Map<string, string>();
  for (const post of posts) {
    const key = RenderCache.keyOf(post.content);
    keyBySlug.set(post.slug, key);
    const hit = cache.get(key);
    if (hit) renderedBySlug.set(post.slug, hit);
    else misses.set(key, post.content);
  }
  const pool = options.pool ?? (misses.size >= 200 ? RenderPool.start(options.workers) : RenderPool.inline());
  try {
    const fresh = await pool.render([...misses]);
    for (const [key, rendered] of fresh) cache.set(key, rendered);
    for (const post of posts) {
      if (!renderedBySlug.has(post.slug)) renderedBySlug.set(post.slug, fresh.get(keyBySlug.get(post.slug)!)!);
    }
  } finally {
    if (pool !== options.pool) await pool.close();
  }
  return { renderedBySlug, cache, notes: renderNotes(posts, renderedBySlug), rendered: misses.size };
}

/** Load, validate and render a site without writing anything; throws `ContentError` on content errors. */
export async function prepareSite(config: AgoraConfig, options: BuildOptions = {}) {
  // A cold build (no render cache) will render everything: start the workers now, so
  // their start-up overlaps with reading the content.
  const cache = await RenderCache.open(options.force ? null : config.cacheDir);
  const pool = cache.size === 0 ? RenderPool.start(options.workers) : undefined;
  let content;
  try {
    content = await loadContent(config.root, config.contentDir, config.site);
  } catch (error) {
    await pool?.close();
    throw error;
  }
  if (content.messages.some((m) => m.severity === 'error')) {
    await pool?.close();
    throw new ContentError(sortMessages(content.messages));
  }
  const small = content.posts.length < 200;
  if (pool && small) await pool.close();
  const { renderedBySlug, notes, rendered } = await renderPosts(config, content.posts, { ...options, cache, pool: pool && !small ? pool : undefined }).finally(() => pool?.close());
  const store = await loadStoreSnapshot(config.dataDir);
  const site = buildSiteModel({ config: config.site, posts: content.posts, comments: store.comments, views: store.views, catalog: content.catalog });
  return { site, renderedBySlug, cache, messages: sortMessages([...content.messages, ...notes]), rendered };
}

/** Style warnings the renderer noticed, positioned in the source file. */
function renderNotes(posts: readonly Post[], rendered: Map<string, RenderedPost>): Message[] {
  const out: Message[] = [];
  for (const post of posts) {
    for (const n of rendered.get(post.slug)?.notes ?? []) {
      out.push({ file: post.file, line: post.bodyLine + n.line - 1, column: n.column, severity: 'warning', ruleId: n.ruleId, message: n.message, fix: n.fix });
    }
  }
  return out;
}

/** Build the whole site into `config.distDir`, writing only changed files. */
export async function build(config: AgoraConfig, options: BuildOptions = {}): Promise<{ result: BuildResult; state: SiteBuild }> {
  const started = performance.now();
  const prepared = await prepareSite(config, options);
  // --force starts from an empty dist/: nothing stale can survive, everything is written.
  if (options.force) await rm(config.distDir, { recursive: true, force: true });
  const manifest = await Manifest.open(config.cacheDir, config.distDir);
  const state = new SiteBuild(config, prepared.site, prepared.renderedBySlug, manifest);
  const outputs = runJobs(state.ctx, planBuild(prepared.site, { kind: 'full' }));
  const write = await writeOutputs(manifest, outputs, { prune: true });
  await Promise.all([manifest.save(), prepared.cache.save()]);
  return {
    result: {
      ...write,
      messages: prepared.messages,
      posts: prepared.site.posts.length,
      rendered: prepared.rendered,
      outputs: outputs.length,
      ms: Math.round(performance.now() - started),
    },
    state,
  };
}
