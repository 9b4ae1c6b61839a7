/**
 * `npm run bench [-- --sizes 1000,4000,10000] [--quick]` (or BENCH_SIZES, BENCH_QUICK=1):
 * builds generated corpora cold, warm and after one edit (each in a child process), once
 * more on a RAM disk, then serves the largest one and measures comment-to-page latency
 * and writer throughput against a bare Express baseline. Prints a table and writes
 * bench/results.json.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateCorpus, prng, SEED, type Corpus } from './corpus.ts';
import { BENCH_DIR, REPO_ROOT, contention, cpuWatch, quiet, waitForQuiet } from './child.ts';
import { buildFigures, cleanBuildState, fallback, runBuild, type SizeFigures } from './builds.ts';
import { startServerChild, type ServerHandle } from './server-handle.ts';
import { measureCommentLatency } from './comments.ts';
import { checkComments, checkViews, loadComments, loadViews } from './load.ts';
import { machine, flag, codeFingerprint } from './report.ts';
import { printResults, type BenchResults } from './run-report.ts';
import { round } from './stats.ts';

const sizes = (flag('sizes', 'BENCH_SIZES') ?? '1000,4000,10000').split(',').map(Number).filter((n) => n > 0);
const quick = flag('quick') === 'true' || process.env.BENCH_QUICK === '1';
const seconds = quick ? 2 : 10;
if (quick && process.env.BENCH_QUIET_WAIT_MS === undefined) quiet.maxMs = 10_000;
const commentSamples = quick ? 20 : 200;
const connections = Number(flag('connections', 'BENCH_CONNECTIONS') ?? 50);
const corpusRoot = flag('dir', 'BENCH_CORPUS_DIR') ?? join(BENCH_DIR, '.corpus');
const largest = Math.max(...sizes);
const shmSize = sizes.includes(4000) ? 4000 : Math.min(...sizes);

const codeAtStart = codeFingerprint(REPO_ROOT);
const log = (line: string) => console.error(`[bench] ${line}`);

// 1. Builds: cold, warm, one edit, per size.
await mkdir(corpusRoot, { recursive: true });
log('warm-up build (tsx transpile cache)');
await runBuild((await generateCorpus(join(corpusRoot, 'warmup'), 20)).dir);
const builds: SizeFigures[] = [];
let serverCorpus: Corpus | null = null;
for (const n of sizes) {
  log(`corpus of ${n} posts`);
  const corpus = await generateCorpus(join(corpusRoot, String(n)), n);
  log(`builds of ${n} posts: cold, warm, one edit`);
  builds.push(await buildFigures(corpus));
  if (n === largest) serverCorpus = corpus;
}

// 2. The same cold build on a RAM disk (/dev/shm is tmpfs).
let ramDisk: BenchResults['ramDisk'] = { skipped: 'no /dev/shm' };
if (existsSync('/dev/shm')) {
  log(`cold build of ${shmSize} posts on /dev/shm`);
  const dir = join('/dev/shm', `agora-bench-${process.pid}`);
  try {
    const corpus = await generateCorpus(dir, shmSize);
    await cleanBuildState(dir);
    ramDisk = { posts: shmSize, path: '/dev/shm', cold: await runBuild(corpus.dir) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Run a timed phase after the machine is quiet; also returns other processes' CPU share during it (%). */
async function phase<T>(server: ServerHandle, fn: () => Promise<T>): Promise<[T, number]> {
  await waitForQuiet();
  const before = await server.usage();
  const stop = await cpuWatch();
  const out = await fn();
  const after = await server.usage();
  return [out, await stop(after.userMs + after.sysMs - before.userMs - before.sysMs)];
}

// 3. The server on the largest site: comment latency, then load.
const corpus = serverCorpus as Corpus;
const rand = prng(SEED + 1);
const slugs = corpus.posts.map((p) => p.slug);
log(`Express baseline: PUT for ${seconds} s, ${connections} connections`);
const baseline = await startServerChild('express');
const [base, baseForeign] = await phase(baseline, () => loadViews(baseline.url, slugs, seconds, connections, rand));
await baseline.close();

log(`Agora server on ${corpus.posts.length} posts`);
const server = await startServerChild('agora', corpus.dir);
const atStart = server.atStart;
const idleAfterGc = await server.usage(true);
log(`${commentSamples} comments one at a time`);
const [latency, latencyForeign] = await phase(server, () => measureCommentLatency(server.url, corpus.dir, corpus.posts, commentSamples, quick ? 2 : 5, rand));
const afterComments = await server.usage();

log(`PUT /api/views for ${seconds} s`);
const viewsBefore = (JSON.parse(await readFile(join(corpus.dir, 'data', 'views.json'), 'utf8')) as { views: Record<string, number> }).views;
const [views, viewsForeign] = await phase(server, () => loadViews(server.url, slugs, seconds, connections, rand));
const viewsCheck = await checkViews(corpus.dir, viewsBefore, views.acked);
const afterViews = await server.usage();

log(`POST comments for ${seconds} s`);
const [posting, postingForeign] = await phase(server, () => loadComments(server.url, corpus.posts, seconds, connections, rand));
const commentsCheck = await checkComments(corpus.dir, posting.acks, performance.now());
const afterCommentLoad = await server.usage();
const atClose = await server.close();

const results: BenchResults = {
  machine: machine(),
  code: { ...codeAtStart, changedDuringRun: codeFingerprint(REPO_ROOT).sha1 !== codeAtStart.sha1 },
  options: { sizes, quick, seconds, commentSamples, connections, seed: SEED, corpusRoot },
  builds, ramDisk, buildWorkers: fallback, contention,
  commentLatency: { ...latency, posts: corpus.posts.length, foreignCpuPct: latencyForeign },
  writer: {
    baselinePut: { ...base.figures, foreignCpuPct: baseForeign },
    viewsPut: { ...views.figures, ...viewsCheck, foreignCpuPct: viewsForeign, ratioToBaseline: round(views.figures.requestsPerSec / base.figures.requestsPerSec, 2) },
    commentsPost: { ...posting.figures, statuses: posting.statuses, ...commentsCheck, foreignCpuPct: postingForeign },
    serving: { posts: corpus.posts.length, startMs: round(server.startMs, 0), atStart, idleAfterGc, afterComments, afterViews, afterCommentLoad, atClose },
  },
};
await writeFile(join(BENCH_DIR, 'results.json'), JSON.stringify(results, null, 2) + '\n');
printResults(results);
console.log(`\nwrote ${join(BENCH_DIR, 'results.json')}`);
