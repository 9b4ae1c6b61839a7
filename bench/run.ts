/**
 * `npm run bench [-- --sizes 1000,4000,10000] [--quick]` (or BENCH_SIZES, BENCH_QUICK=1):
 * builds generated corpora cold, warm and after one edit (each in a child process), once
 * more on a RAM disk, then the writer at scale on the largest size (writer-scale.ts:
 * CLI build and import of 10 comments per post, comment latency on an empty and a full
 * store, view PUTs against a bare Express baseline, concurrent comment POSTs with
 * visibility checks, RSS, the start-up migration). Prints a table and writes
 * bench/results.json. `--store postgres --nodes 2` (DATABASE_URL = an empty database)
 * runs the writer part on PostgreSQL with two writer nodes. `--samples N` (BENCH_COMMENT_SAMPLES):
 * comments one at a time per latency run (1,000; 20 with `--quick`).
 */
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateCorpus, SEED } from './corpus.ts';
import { BENCH_DIR, REPO_ROOT, contention, cpuWatch, quiet, waitForQuiet } from './child.ts';
import { buildFigures, cleanBuildState, fallback, runBuild, type SizeFigures } from './builds.ts';
import { runWriterScale } from './writer-scale.ts';
import { machine, flag, codeFingerprint } from './report.ts';
import { printResults, type BenchResults } from './run-report.ts';

const sizes = (flag('sizes', 'BENCH_SIZES') ?? '1000,4000,10000').split(',').map(Number).filter((n) => n > 0);
const quick = flag('quick') === 'true' || process.env.BENCH_QUICK === '1';
const seconds = quick ? 2 : 10;
if (quick && process.env.BENCH_QUIET_WAIT_MS === undefined) quiet.maxMs = 10_000;
// Comments one at a time for the comment → page + mirror latency: with 200, the p99 was
// the second slowest and moved 45–88 ms between identical runs; 1,000 give it ten.
const commentSamples = Number(flag('samples', 'BENCH_COMMENT_SAMPLES') ?? (quick ? 20 : 1000));
const connections = Number(flag('connections', 'BENCH_CONNECTIONS') ?? 50);
const corpusRoot = flag('dir', 'BENCH_CORPUS_DIR') ?? join(BENCH_DIR, '.corpus');
const commentsPerPost = Number(flag('comments-per-post', 'BENCH_COMMENTS_PER_POST') ?? 10);
// The store engine of every product process; postgres needs DATABASE_URL naming an empty database.
const engine = flag('store', 'BENCH_STORE') ?? 'files';
const storeEnv: Record<string, string> = engine === 'files' ? {} : { AGORA_STORE: engine, DATABASE_URL: process.env.DATABASE_URL ?? '' };
const nodes = Number(flag('nodes', 'BENCH_NODES') ?? 1);
if (engine === 'files' && nodes !== 1) throw new Error('--nodes needs a shared store (--store postgres): the embedded store allows one writer');
// Only the writer part (for iterating on it; no build figures).
const writerOnly = flag('writer-only') === 'true';
const largest = Math.max(...sizes);
const shmSize = sizes.includes(4000) ? 4000 : Math.min(...sizes);

const codeAtStart = codeFingerprint(REPO_ROOT);
const log = (line: string) => console.error(`[bench] ${line}`);

// 1. Builds: cold, warm, one edit, per size.
await mkdir(corpusRoot, { recursive: true });
log('warm-up build (tsx transpile cache)');
await runBuild((await generateCorpus(join(corpusRoot, 'warmup'), 20)).dir);
const builds: SizeFigures[] = [];
for (const n of writerOnly ? [] : sizes) {
  log(`corpus of ${n} posts`);
  const corpus = await generateCorpus(join(corpusRoot, String(n)), n);
  log(`builds of ${n} posts: cold, warm, one edit`);
  builds.push(await buildFigures(corpus));
}

// 2. The same cold build on a RAM disk (/dev/shm is tmpfs).
let ramDisk: BenchResults['ramDisk'] = { skipped: 'no /dev/shm' };
if (writerOnly) ramDisk = { skipped: '--writer-only' };
else if (existsSync('/dev/shm')) {
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

// 3. The writer at scale on the largest size (issue 8).
const writer = await runWriterScale({
  dir: join(corpusRoot, `writer-${largest}`), posts: largest, comments: largest * commentsPerPost,
  samples: commentSamples, probes: quick ? 2 : 5, seconds, connections, restAfterLoadSeconds: quick ? 2 : 75, storeEnv, nodes, log,
});

const results: BenchResults = {
  machine: machine(),
  code: { ...codeAtStart, changedDuringRun: codeFingerprint(REPO_ROOT).sha1 !== codeAtStart.sha1 },
  options: { sizes, writerOnly, quick, seconds, commentSamples, connections, commentsPerPost, store: storeEnv.AGORA_STORE ?? 'files', nodes, seed: SEED, corpusRoot },
  builds, ramDisk, buildWorkers: fallback, contention, writer,
};
await writeFile(join(BENCH_DIR, 'results.json'), JSON.stringify(results, null, 2) + '\n');
printResults(results);
console.log(`\nwrote ${join(BENCH_DIR, 'results.json')}`);
