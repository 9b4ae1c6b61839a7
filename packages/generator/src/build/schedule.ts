/**
 * Carrying out a plan: renderings are found in memory, then in the render cache, then
 * rendered (on worker threads when there are many); jobs go to the output sink in an
 * order that keeps every core busy. In a full build workers render while the main
 * thread emits everything that needs no rendering, then each page as soon as its
 * rendering arrives, then the feeds (which show rendered bodies of many posts); the
 * workers stop once the last body is rendered, and (unless the state is long-lived)
 * renderings are dropped once the last page or feed showing them is written.
 */
import type { Post } from '../types.ts';
import { POOL_THRESHOLD, RenderPool } from '../render/pool.ts';
import { postsRenderedBy } from '../model/feeds.ts';
import type { OutputSink } from '../emit/write-outputs.ts';
import type { Job } from '../model/jobs.ts';
import type { BuildPlan, PlannedJob } from './plan.ts';
import type { BuildState } from './state.ts';

/**
 * Make renderings of these posts available in `state.renderings`: memory, then the
 * cache, then render (on `pool`, a pool of its own, or inline). `onReady` is told each
 * body hash as its rendering becomes available. Returns how many were rendered.
 */
export async function ensureRendered(state: BuildState, posts: readonly Post[], pool?: RenderPool, workers?: number, onReady?: (bodyHash: string) => void): Promise<number> {
  const missing = new Map<string, string>();
  for (const p of posts) if (!state.renderings.has(p.bodyHash)) missing.set(p.bodyHash, p.content);
  if (missing.size === 0) return 0;
  const hits = await state.cache.getMany(missing.keys());
  const misses = new Map<string, string>();
  for (const [key, content] of missing) {
    const hit = hits.get(key);
    if (hit) {
      state.renderings.set(key, hit);
      onReady?.(key);
    } else misses.set(key, content);
  }
  if (misses.size === 0) return 0;
  const own = pool && misses.size >= POOL_THRESHOLD ? null : RenderPool.forItems(misses.size, workers);
  try {
    // Each rendering goes to the render cache (which writes it out as it comes) and to
    // memory at once; the pool keeps none.
    await (own ?? pool!).render([...misses], (key, value) => {
      state.cache.set(key, value);
      state.renderings.set(key, value);
      onReady?.(key);
    });
  } finally {
    await own?.close();
  }
  return misses.size;
}

/** The posts whose rendered bodies a job shows: a post page its own, a post feed its entries'. */
function postsShownBy(state: BuildState, job: Job): Post[] {
  return job.kind === 'post-page' ? [state.site.bySlug.get(job.slug)!] : postsRenderedBy(state.site, job);
}

/**
 * Emit the jobs of a full plan while its bodies render. Skipped jobs' files are kept;
 * jobs that need no rendering go first, post pages as their renderings arrive (in
 * batches between the others), feeds last. `options.pool` (started early by a cold
 * build) is closed as soon as the last body is rendered, so its workers' memory is
 * free for the rest of the build. Unless the state is long-lived, each rendering is
 * dropped once the last job showing it is emitted, and the post records once the JSON
 * mirrors are, so a cold build never holds every body's HTML at once. Returns how
 * many bodies were rendered.
 */
export async function emitWhileRendering(state: BuildState, plan: BuildPlan, sink: OutputSink, options: { pool?: RenderPool; workers?: number } = {}): Promise<number> {
  for (const { paths } of plan.skip) sink.keep(paths);
  // Jobs still to emit that show each body (by body hash), when renderings are dropped after use.
  const uses = new Map<string, number>();
  if (!state.longLived) for (const { job } of plan.emit) for (const { bodyHash } of postsShownBy(state, job)) uses.set(bodyHash, (uses.get(bodyHash) ?? 0) + 1);
  const emit = async ({ job, id, key }: PlannedJob) => {
    await sink.emit(id, key, () => state.emit(job));
    if (state.longLived) return;
    for (const { bodyHash } of postsShownBy(state, job)) {
      const left = uses.get(bodyHash)! - 1;
      if (left > 0) uses.set(bodyHash, left);
      else {
        uses.delete(bodyHash);
        state.renderings.delete(bodyHash);
      }
    }
  };
  // Feeds carry rendered bodies too: they wait, like pages, until rendering is done.
  const feeds = new Set(plan.emit.filter(({ job }) => postsRenderedBy(state.site, job).length > 0));
  const pages = new Map<string, PlannedJob[]>();
  const rest: PlannedJob[] = [];
  for (const entry of plan.emit) {
    if (feeds.has(entry)) continue;
    if (entry.job.kind !== 'post-page') rest.push(entry);
    else {
      const bodyHash = state.site.bySlug.get(entry.job.slug)!.bodyHash;
      pages.set(bodyHash, [...(pages.get(bodyHash) ?? []), entry]);
    }
  }
  const ready: PlannedJob[] = [];
  let wake: (() => void) | null = null;
  const onReady = (bodyHash: string) => {
    ready.push(...(pages.get(bodyHash) ?? []));
    pages.delete(bodyHash);
    // Rendered for its style notes only: no job shows it.
    if (!state.longLived && !uses.has(bodyHash)) state.renderings.delete(bodyHash);
    wake?.();
  };
  let renderingDone = false;
  const rendering = ensureRendered(state, plan.render.map((r) => r.post), options.pool, options.workers, onReady).finally(async () => {
    renderingDone = true;
    wake?.();
    await options.pool?.close();
  });
  const drainReady = async () => {
    while (ready.length > 0) await emit(ready.shift()!);
  };
  for (const entry of rest) {
    await emit(entry);
    if (ready.length > 64) await drainReady();
  }
  // Post records are read by the JSON mirrors only, all of them among `rest`.
  if (!state.longLived) state.releaseRecords();
  while (!renderingDone) {
    await drainReady();
    if (!renderingDone) await new Promise<void>((resolve) => (wake = resolve));
    wake = null;
  }
  const rendered = await rendering;
  await drainReady();
  // Pages whose rendering was already in memory or in the cache.
  for (const list of pages.values()) for (const entry of list) await emit(entry);
  for (const entry of feeds) await emit(entry);
  return rendered;
}

/** Work a site-wide flush does between two turns of the post rebuilds and the event loop (ms). */
const FLUSH_SLICE_MS = 8;

/** How a site-wide flush emits its jobs in slices (`emitInOrder`). */
export interface Slices {
  /** Runs after each slice (the post rebuilds that arrived meanwhile, the requests it gives way to). */
  between: () => Promise<void>;
  /** Asked after each job: end the run early. */
  stop?: () => boolean;
  /** The shortest slice, ms (default `FLUSH_SLICE_MS`; a test passes 0 to end the first slice after one job). */
  sliceMs?: number;
}

/**
 * Emit the jobs of a comment or views rebuild, in order, once their bodies are
 * rendered; in `slices` for a site-wide flush. Returns the ids emitted.
 */
export async function emitInOrder(state: BuildState, plan: BuildPlan, sink: OutputSink, slices?: Slices): Promise<string[]> {
  const shortest = slices?.sliceMs ?? FLUSH_SLICE_MS;
  let slice = performance.now();
  let budget = shortest;
  const emitted: string[] = [];
  for (const { job, id, key } of plan.emit) {
    // A flush's post rebuilds run beside it: one may have changed what a job shows (a
    // post's comments on `/debates/` or `/comments/`) after the flush prepared it, with
    // text that was dropped. So a flush makes sure of each job's comments just before it
    // (in memory: no cost). A rebuild's own jobs were prepared with it.
    const release = slices ? await state.prepareComments([job]) : null;
    try {
      await sink.emit(id, key, () => state.emit(job));
    } finally {
      release?.();
    }
    emitted.push(id);
    if (slices?.stop?.()) break;
    if (!slices || performance.now() - slice < budget) continue;
    // A site-wide flush gives way after each slice of its jobs: the post rebuilds waiting
    // then run, and the event loop serves requests and worker messages. So nothing waits
    // behind the flush for much longer than a slice; and the next slice is at least half
    // as long as what ran meanwhile, so the flush keeps a third of the thread and moves
    // on however many comments keep arriving. (Capped at 25 ms, the flush fell behind
    // under a flood: `/api/posts` p99 4.7 s instead of 2.3 s at 10,000 posts.)
    const away = performance.now();
    await slices.between();
    await new Promise((resolve) => setImmediate(resolve));
    slice = performance.now();
    budget = Math.max(shortest, (slice - away) / 2);
  }
  return emitted;
}
