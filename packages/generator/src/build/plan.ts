/**
 * What a build does, as one value: which bodies to render, which jobs to emit, which to
 * skip and which files to remove, each with its reason. Every decision lives here: the
 * job list (`model/jobs.ts`), their input keys (`model/job-keys.ts`) against what the
 * manifest remembers, the bodies the emitted jobs show, and the files of jobs that are
 * gone. The output sink (`emit/write-outputs.ts`) then only writes and removes what it
 * is given.
 *
 * Removals come in two steps, because which files a job produces is known only once it
 * is emitted (a list may lose its last page): the plan lists the files of jobs that are
 * gone and files no job owns; after emitting, `settleRemovals` adds the files a
 * re-emitted job no longer produces (the sink reports them) and keeps every file this
 * build produced, whatever the plan thought.
 */
import type { Post, SiteModel } from '../types.ts';
import { listJobs, type Change, type Job } from '../model/jobs.ts';
import { changedPart, createJobKeyer, jobId, type KeyPart } from '../model/job-keys.ts';
import { postsRenderedBy } from '../model/feeds.ts';
import type { Manifest, ManifestLoss } from '../emit/manifest.ts';

export type EmitReason =
  | ManifestLoss
  /** The manifest has no record of the job (a new post, tag, model …). */
  | 'new job'
  /** The generator's code (templates, emitters) or the site config changed. */
  | 'template changed'
  | 'source changed'
  | 'comments changed'
  | 'views changed'
  | 'comments and views changed'
  /** Same key, but a file it wrote is not in the manifest (a failed write). */
  | 'output missing'
  /** A comment or views rebuild emitted it without keying it. */
  | 'key not recorded';

export type RenderReason = 'page emitted' | 'feed emitted' | 'style notes unknown';
export type RemoveReason = 'job gone' | 'no job' | 'no longer produced';

export interface PlannedJob {
  job: Job;
  id: string;
  /** Input key to record (null: none, the manifest then says `key not recorded`). */
  key: string | null;
  reason: EmitReason;
}

export interface Removal {
  path: string;
  reason: RemoveReason;
}

export interface BuildPlan {
  change: Change;
  /** Bodies that must be rendered (or found in the cache) before emitting. */
  render: { post: Post; reason: RenderReason }[];
  emit: PlannedJob[];
  /** Jobs whose key is what the manifest remembers: their files stay as they are. */
  skip: { id: string; reason: 'unchanged'; paths: readonly string[] }[];
  /** Files to remove, before `settleRemovals` adds what re-emitted jobs dropped. */
  remove: Removal[];
  /** Jobs that are no longer in the site: their manifest records go. */
  gone: string[];
}

export interface PlanOptions {
  /** Whether a body's style notes are known (from the render cache); unknown ones are rendered for their warnings. */
  notesKnown?: (bodyHash: string) => boolean;
  /** Stands for the generator's code in keys (tests play a template change with it). */
  fingerprint?: string;
  /** What the files published beside a post are now (size, time, inode): keys its `post-files` job. */
  fileStamp?: (slug: string) => string;
}

const PART_REASON: Record<KeyPart, EmitReason> = { template: 'template changed', source: 'source changed', comments: 'comments changed', views: 'views changed' };

/** The plan of a change against what the manifest remembers. */
export function planBuild(site: SiteModel, change: Change, manifest: Pick<Manifest, 'jobs' | 'outputs' | 'lost'>, options: PlanOptions = {}): BuildPlan {
  if (change.kind === 'full') return planFull(site, manifest, options);
  return change.kind === 'post-sources' ? planSources(site, change, manifest, options) : planRebuild(site, change, options);
}

/**
 * Edited posts' own outputs, keyed (so the full plan that follows skips them), and the
 * files of posts that are gone: the fast half of an edit in `agora dev`.
 */
function planSources(site: SiteModel, change: Extract<Change, { kind: 'post-sources' }>, manifest: Pick<Manifest, 'jobs' | 'outputs' | 'lost'>, options: PlanOptions): BuildPlan {
  const keyOf = createJobKeyer(site, options.fingerprint, options.fileStamp);
  const emit: PlannedJob[] = listJobs(site, change).map((job) => {
    const id = jobId(job);
    const previous = manifest.jobs.get(id);
    return { job, id, key: keyOf(job), reason: previous ? 'source changed' : 'new job' };
  });
  const plan: BuildPlan = { change, render: bodiesShown(site, emit), emit, skip: [], remove: [], gone: [] };
  for (const slug of change.slugs) {
    if (site.bySlug.has(slug)) continue;
    for (const kind of ['post-page', 'post-md', 'api-post', 'api-comments', 'post-comments-feed', 'post-files'] as const) {
      const id = jobId({ kind, slug });
      const record = manifest.jobs.get(id);
      if (!record) continue;
      plan.gone.push(id);
      for (const path of record.paths) plan.remove.push({ path, reason: 'job gone' });
    }
  }
  return plan;
}

function planFull(site: SiteModel, manifest: Pick<Manifest, 'jobs' | 'outputs' | 'lost'>, options: PlanOptions): BuildPlan {
  const plan: BuildPlan = { change: { kind: 'full' }, render: [], emit: [], skip: [], remove: [], gone: [] };
  const keyOf = createJobKeyer(site, options.fingerprint, options.fileStamp);
  const ids = new Set<string>();
  for (const job of listJobs(site, { kind: 'full' })) {
    const id = jobId(job);
    const key = keyOf(job);
    ids.add(id);
    const previous = manifest.jobs.get(id);
    if (previous?.key === key && previous.paths.every((p) => manifest.outputs.has(p))) {
      plan.skip.push({ id, reason: 'unchanged', paths: previous.paths });
      continue;
    }
    const reason: EmitReason =
      !previous ? (manifest.lost ?? 'new job')
      : previous.key === key ? 'output missing'
      : previous.key === '' ? 'key not recorded'
      : PART_REASON[changedPart(previous.key, key) ?? 'template'];
    plan.emit.push({ job, id, key, reason });
  }
  plan.render = bodiesShown(site, plan.emit);
  if (options.notesKnown) {
    const listed = new Set(plan.render.map((r) => r.post));
    for (const post of site.posts) if (!listed.has(post) && !options.notesKnown(post.bodyHash)) plan.render.push({ post, reason: 'style notes unknown' });
  }
  // Files of jobs that are gone, and files no job owns (left by an older manifest);
  // files a live job owns are settled after emitting.
  const owned = new Set<string>();
  for (const [id, record] of manifest.jobs) {
    if (ids.has(id)) for (const p of record.paths) owned.add(p);
    else plan.gone.push(id);
  }
  for (const id of plan.gone) {
    for (const path of manifest.jobs.get(id)!.paths) {
      if (owned.has(path)) continue;
      owned.add(path);
      plan.remove.push({ path, reason: 'job gone' });
    }
  }
  for (const path of manifest.outputs.keys()) if (!owned.has(path)) plan.remove.push({ path, reason: 'no job' });
  return plan;
}

/**
 * A comment or views rebuild: every listed job is emitted; nothing is removed. Each is
 * keyed as a full build would key it, so the next start finds it unchanged instead of
 * emitting every post that ever got a comment again.
 */
function planRebuild(site: SiteModel, change: Exclude<Change, { kind: 'full' | 'post-sources' }>, options: PlanOptions): BuildPlan {
  const keyOf = createJobKeyer(site, options.fingerprint, options.fileStamp);
  const reasons = new Map<string, { job: Job; reason: EmitReason }>();
  const add = (jobs: Job[], reason: EmitReason) => {
    for (const job of jobs) {
      const id = jobId(job);
      const had = reasons.get(id);
      reasons.set(id, { job, reason: had && had.reason !== reason ? 'comments and views changed' : reason });
    }
  };
  if (change.kind === 'post-comments') add(listJobs(site, change), 'comments changed');
  else if (change.kind === 'lists') {
    add(listJobs(site, { kind: 'lists', comments: change.comments, views: [] }), 'comments changed');
    add(listJobs(site, { kind: 'lists', comments: [], views: change.views }), 'views changed');
  } else {
    // Listed apart, to tell which change each job follows.
    const lists = change.lists ?? { comments: change.comments, views: change.views };
    add(listJobs(site, { kind: 'aggregates', comments: change.comments, views: [], lists: { comments: lists.comments, views: [] }, feeds: change.feeds ?? change.comments }), 'comments changed');
    add(listJobs(site, { kind: 'aggregates', comments: [], views: change.views, lists: { comments: [], views: lists.views }, feeds: [] }), 'views changed');
  }
  const emit = [...reasons].map(([id, { job, reason }]) => ({ job, id, key: keyOf(job), reason }));
  return { change, render: bodiesShown(site, emit), emit, skip: [], remove: [], gone: [] };
}

/** The bodies emitted jobs show: post pages, then the posts of feeds (each once, in job order). */
function bodiesShown(site: SiteModel, emit: readonly PlannedJob[]): BuildPlan['render'] {
  const out = new Map<Post, RenderReason>();
  for (const { job } of emit) {
    if (job.kind === 'post-page') {
      const post = site.bySlug.get(job.slug)!;
      if (!out.has(post)) out.set(post, 'page emitted');
    }
    for (const post of postsRenderedBy(site, job)) if (!out.has(post)) out.set(post, 'feed emitted');
  }
  return [...out].map(([post, reason]) => ({ post, reason }));
}

/**
 * The files to remove once the plan's jobs are emitted: the plan's list plus the files
 * re-emitted jobs no longer produce (`dropped`, reported by the sink), except any file
 * this build produced or kept.
 */
export function settleRemovals(plan: BuildPlan, produced: ReadonlySet<string>, dropped: readonly string[]): Removal[] {
  const kept = new Set(produced);
  for (const s of plan.skip) for (const p of s.paths) kept.add(p);
  const out = new Map<string, Removal>();
  for (const r of plan.remove) if (!kept.has(r.path)) out.set(r.path, r);
  for (const path of dropped) if (!kept.has(path) && !out.has(path)) out.set(path, { path, reason: 'no longer produced' });
  return [...out.values()];
}
