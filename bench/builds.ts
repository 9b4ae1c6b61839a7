/**
 * Build figures for one corpus: cold (empty dist/ and .cache/), warm (nothing changed)
 * and one post edited, each a fresh `build-child.ts` process running the real `build()`.
 */
import { appendFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { cpuWatch, runChild, syncDisks, waitForQuiet } from './child.ts';
import type { BuildFigures } from './build-child.ts';
import type { Corpus } from './corpus.ts';
import { round } from './stats.ts';

export interface BuildRun {
  /** Spawn to exit of the child process (tsx startup and imports included), ms. */
  wallMs: number;
  /** Inside `build()`, ms. */
  buildMs: number;
  cpuMs: number;
  maxRssMB: number;
  msPerPost: number;
  written: number;
  outputs: number;
  rendered: number;
  warnings: number;
  /** Render workers used: 'default' (the build's own choice) or a forced count. */
  workers: string;
  /** CPU other processes used during the build, % of all cores (should be ~0). */
  foreignCpuPct: number;
}

/** Set when the default (multi-threaded) build failed and a retry with one worker was used. */
export const fallback: { workers: number | null; reason: string | null } = { workers: null, reason: null };

/** `benchDir`: build with another checkout (its bench/build-child.ts and its generator), e.g. a baseline. */
export async function runBuild(root: string, execArgv: string[] = [], benchDir?: string): Promise<BuildRun> {
  const attempt = async (workers: number | null) => {
    syncDisks();
    await waitForQuiet();
    const watch = await cpuWatch();
    const run = await runChild<BuildFigures>('build-child.ts', workers === null ? [root] : [root, '--workers', String(workers)], { execArgv, benchDir });
    return { ...run, foreignCpuPct: await watch(run.json ? run.json.userMs + run.json.sysMs : 0) };
  };
  let run = await attempt(fallback.workers);
  if (!run.json?.ok && fallback.workers === null) {
    fallback.workers = 1;
    fallback.reason = run.json?.error ?? run.stderr.trim().split('\n').pop() ?? `exit ${run.code}`;
    console.error(`  ! default build failed (${fallback.reason}); retrying this and later builds with workers: 1`);
    run = await attempt(1);
  }
  const f = run.json;
  if (!f?.ok) throw new Error(`build of ${root} failed: ${f?.error ?? run.stderr}`);
  return {
    wallMs: round(run.wallMs, 0), buildMs: round(f.buildMs, 0), cpuMs: round(f.userMs + f.sysMs, 0), maxRssMB: round(f.maxRssMB, 0),
    msPerPost: round(run.wallMs / f.posts, 2), written: f.written, outputs: f.outputs, rendered: f.rendered, warnings: f.warnings,
    workers: fallback.workers === null ? 'default' : String(fallback.workers), foreignCpuPct: run.foreignCpuPct,
  };
}

export async function cleanBuildState(root: string): Promise<void> {
  await Promise.all([rm(join(root, 'dist'), { recursive: true, force: true }), rm(join(root, '.cache'), { recursive: true, force: true })]);
}

export interface SizeFigures {
  posts: number;
  corpusKB: number;
  cold: BuildRun;
  warm: BuildRun;
  edit: BuildRun;
  /** One post edited in a running `agora dev` (in-process `updateSources`). */
  devEdit: DevEditRun;
}

export interface DevEditKind {
  /** Edit → the post's own files in `dist/` (the first half of the rebuild): median and max of the timed edits, ms. */
  pageMedianMs: number;
  pageMaxMs: number;
  /** Edit → every output written (lists, feeds, site-wide files), ms. */
  medianMs: number;
  maxMs: number;
  written: number;
}

export interface DevEditRun {
  /** Median of the timed body edits (the first one warms the JIT and is left out), ms: until every output is written. */
  medianMs: number;
  maxMs: number;
  written: number;
  rendered: number;
  /** Issue 21: each kind of edit. */
  kinds: Record<'body' | 'frontMatter' | 'newPost' | 'deletedPost', DevEditKind>;
  /** Body edits through `agora dev`'s own watcher: the file's write → the page in dist/ (ms); edits never seen within 5 s. */
  watched: { pageMedianMs: number; pageMaxMs: number; pageRuns: number[]; missed: number };
  /** Pagefind: the first build's full index and the background runs after the edits. */
  search: {
    full: { ms: number; shards: number; pages: number; peakMB: number } | null;
    edits: { runs: number; medianMs: number; shardsPerRun: number[]; maxLagMs: number; peakMB: number };
  };
}

/** Edits in a long-lived `SiteBuild`, as `agora dev` does them, in a child process. */
export async function runDevEdit(root: string): Promise<DevEditRun> {
  syncDisks();
  await waitForQuiet();
  const run = await runChild<DevEditRun & { ok: boolean }>('dev-edit-child.ts', [root]);
  if (!run.json?.ok) throw new Error(`dev edit of ${root} failed: ${run.stderr}`);
  const kinds = Object.fromEntries(Object.entries(run.json.kinds).map(([k, v]) => [k, { pageMedianMs: round(v.pageMedianMs, 0), pageMaxMs: round(v.pageMaxMs, 0), medianMs: round(v.medianMs, 0), maxMs: round(v.maxMs, 0), written: v.written }])) as DevEditRun['kinds'];
  const w = run.json.watched;
  const watched = { pageMedianMs: round(w.pageMedianMs, 0), pageMaxMs: round(w.pageMaxMs, 0), pageRuns: w.pageRuns, missed: w.missed };
  return { medianMs: round(run.json.medianMs, 0), maxMs: round(run.json.maxMs, 0), written: run.json.written, rendered: run.json.rendered, kinds, watched, search: run.json.search };
}

/** Cold, warm and one-post-edited builds of a generated corpus. */
export async function buildFigures(corpus: Corpus): Promise<SizeFigures> {
  await cleanBuildState(corpus.dir);
  const cold = await runBuild(corpus.dir);
  const warm = await runBuild(corpus.dir);
  const post = corpus.posts[Math.floor(corpus.posts.length / 2)];
  if (post) await appendFile(join(corpus.dir, post.file), '\nOne more sentence, appended by the benchmark.\n');
  const edit = await runBuild(corpus.dir);
  const devEdit = await runDevEdit(corpus.dir);
  return { posts: corpus.posts.length, corpusKB: round(corpus.bytes / 1024, 0), cold, warm, edit, devEdit };
}
