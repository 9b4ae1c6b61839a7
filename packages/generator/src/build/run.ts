/**
 * One build or rebuild, start to end: plan it, prepare the comments it shows (render
 * those without stored HTML), render and emit it
 * (`schedule.ts`), settle and apply its removals, save what must be saved.
 */
import { type Message, sortMessages } from '../messages.ts';
import { styleWarnings } from '../render/cache.ts';
import { deadLinkWarnings } from '../validate/dead-link.ts';
import { siteTargets } from '../emit/site-files.ts';
import type { RenderPool } from '../render/pool.ts';
import type { Change, Job } from '../model/jobs.ts';
import { OutputSink, type SinkResult, type WriteResult } from '../emit/write-outputs.ts';
import { startWriting } from '../emit/interrupted-writes.ts';
import { planBuild, settleRemovals, type BuildPlan } from './plan.ts';
import { emitInOrder, emitWhileRendering, ensureRendered, type Slices } from './schedule.ts';
import type { BuildState } from './state.ts';
import type { BuildResult } from './types.ts';
import { saveDerived } from './derived-saves.ts';

/**
 * Outputs of comment and views rebuilds larger than this (the big JSON lists,
 * llms-full.txt) are written without hashing: they have changed, and hashing tens of
 * megabytes costs more than writing them.
 */
const HASH_LIMIT = 1 << 20;

/**
 * Writes a site-wide flush (or an edit's rebuild) keeps in flight through the thread
 * pool, whose 4 threads it shares with the comments answered meanwhile: each write is
 * a chain of calls (open, write, sync every MB, close, rename), so with 64 in flight
 * a comment's own files queued behind dozens of them, and its publish step took 20–45
 * ms instead of 3 during every flush. With 2, half the pool is always free for them:
 * comment → page + mirror p99 at 10,000 posts and 100,200 comments went from 55–79 ms
 * to 41–46 ms (alternated runs, `bench/writer-profile.ts --latency 200`). The slower
 * rewrite of the list mirrors then held `/api/posts` back past 2 s under 50 clients,
 * until the mirrors became rounds that stop for it (`SiteBuild.flushAggregates`).
 */
const FLUSH_WRITES_IN_FLIGHT = 2;

/** What a rebuild wrote, and the ids of the jobs it emitted (all of them unless `stop` ended it early). */
export type ChangeResult = WriteResult & { rendered: number; emitted: string[] };

/**
 * Gives every comment the jobs show its text and HTML (never leaves one out); the
 * function it resolves with lets go of the text once the jobs are emitted.
 */
export type PrepareComments = (jobs: readonly Job[]) => Promise<() => void>;

export interface FullOptions {
  pool?: RenderPool;
  workers?: number;
  /** A long-lived process (agora dev): write asynchronously, save the manifest lazily. */
  lazySave?: boolean;
}

/**
 * Plan the whole site against the manifest, emit what changed, remove what is gone.
 * The search index follows apart (`search-indexer.ts`).
 */
export async function runFull(state: BuildState, prepareComments: PrepareComments, contentMessages: Message[], options: FullOptions = {}): Promise<Omit<BuildResult, 'ms'>> {
  await state.manifest.checkDist();
  // Before the plan clears `manifest.lost`: a crash marker also means a sweep.
  const writing = await startWriting(state.manifest);
  try {
    return await fullRun(state, prepareComments, contentMessages, options);
  } finally {
    await writing.done();
  }
}

async function fullRun(state: BuildState, prepareComments: PrepareComments, contentMessages: Message[], options: FullOptions): Promise<Omit<BuildResult, 'ms'>> {
  const { cache, manifest } = state;
  const plan = () => planBuild(state.site, { kind: 'full' }, manifest, { notesKnown: (hash) => cache.notes(hash) !== undefined, fileStamp: state.fileStamp });
  const planned = plan();
  const release = await prepareComments(planned.emit.map((e) => e.job));
  let rendered: number;
  let result: SinkResult;
  try {
    if (options.lazySave) await manifest.markDirty();
    // A one-off build writes synchronously; a long-lived process (agora dev) must not block.
    const sink = new OutputSink(manifest, { sync: !options.lazySave });
    rendered = await emitWhileRendering(state, planned, sink, options);
    result = await finish(sink, planned);
  } finally {
    release();
  }
  manifest.lost = null;
  await manifest.matchDist();
  state.trim(true);
  const changed = result.emittedJobs > 0 || result.removed.length > 0;
  if (options.lazySave) manifest.scheduleSave(1000);
  const unsaved = await Promise.all([
    options.lazySave || !changed ? null : saveDerived('the build manifest', () => manifest.save()),
    saveDerived('rendered bodies', () => cache.save()),
    saveDerived('token counts', () => state.tokens.save()),
  ]);
  const messages = sortMessages([...contentMessages, ...styleWarnings(state.site.posts, cache), ...deadLinkWarnings(state.site, () => siteTargets(state.site), (hash) => cache.links(hash)), ...unsaved.filter((m) => m !== null)]);
  return { ...result, messages, posts: state.site.posts.length, rendered, fromCache: planned.render.length - rendered };
}

/**
 * Emit the jobs of a comment or views change or of edited posts (keyed, and the files
 * of deleted posts removed): fsync-free, manifest saved lazily. A site-wide flush passes
 * `slices` (`emitInOrder`): its post rebuilds that arrived meanwhile go first between
 * slices (`SiteBuild.flushAggregates`), and it may end early (the jobs not emitted keep
 * their manifest records: a later rebuild emits them).
 */
export async function runChange(state: BuildState, prepareComments: PrepareComments, change: Exclude<Change, { kind: 'full' }>, slices?: Slices): Promise<ChangeResult> {
  const plan = planBuild(state.site, change, state.manifest, { fileStamp: state.fileStamp });
  if (plan.emit.length === 0 && plan.remove.length === 0) return { written: [], unchanged: 0, removed: [], rendered: 0, emitted: [] };
  const prepared = prepareComments(plan.emit.map((e) => e.job));
  const [rendered, release] = await Promise.all([
    // A failed rendering still lets go of the comment text prepared beside it.
    ensureRendered(state, plan.render.map((r) => r.post)).catch(async (error: unknown) => {
      (await prepared.catch(() => null))?.();
      throw error;
    }),
    prepared,
  ]);
  try {
    return await emitChange(state, plan, change, rendered, slices);
  } finally {
    release();
  }
}

async function emitChange(state: BuildState, plan: BuildPlan, change: Exclude<Change, { kind: 'full' }>, rendered: number, slices?: Slices): Promise<ChangeResult> {
  // dist/ files are derived: the atomic rename keeps each whole, and the data they
  // come from (comments, views) was fsynced before.
  await state.manifest.markDirty();
  // Small files (< 64 KB: the records, a comment's page and mirror on most posts) are
  // written synchronously, in runs between yields, big ones through the thread pool.
  // Through the pool, a file is four calls (open, write, close, rename), each waiting for
  // a turn of the main thread, which is ~5 ms under 50 clients: a comment's three files
  // took ~20–30 ms that way, and its rebuild's lane was held meanwhile. Written at once,
  // 50 clients on the 10,000-post site on disk got 131–154 comments/s against 116–139
  // (three alternated pairs), and comment → page + mirror p99 44–61 ms against 51–84
  // (docs/performance.md, tenth session). A write of a path another rebuild is still
  // writing waits for it (`OutputSink`: the content made last lands last).
  const comment = change.kind === 'post-comments';
  const sink = new OutputSink(state.manifest, { hashLimit: HASH_LIMIT, syncBelow: 64 * 1024, writeThread: comment ? state.writeThreads?.rebuilds : state.writeThreads?.flushes, concurrency: comment ? undefined : FLUSH_WRITES_IN_FLIGHT });
  const emitted = await emitInOrder(state, plan, sink, slices);
  const result = await finish(sink, plan);
  // No manifest save here: at 10,000 posts it blocks the event loop for over a second.
  // It is saved at close; until then the dirty marker makes a build after a crash
  // emit everything once instead of trusting stale hashes.
  state.trim(false);
  // Only when a count was made: a post edited in `agora dev`, not a comment. A full
  // cache disk costs a count made again, never the rebuild.
  await saveDerived('token counts', () => state.tokens.save());
  return { ...result, rendered, emitted };
}

/** Wait for the sink's writes, then remove what the settled plan lists. */
async function finish(sink: OutputSink, plan: BuildPlan): Promise<SinkResult> {
  await sink.finish();
  await sink.remove(settleRemovals(plan, sink.produced, sink.dropped), plan.gone);
  return sink.result;
}
