/**
 * The writer under comment load, profiled: `node --import tsx --conditions=agora-source
 * bench/writer-profile.ts <root> [--seconds 10] [--connections 50] [--latency 0] [--wait 0] [--top 30] [--long 40]` starts
 * the writer on an existing site (e.g. `bench/.corpus/writer-10000` after `npm run
 * bench`, with its comments imported) under `--cpu-prof`, posts comments from
 * `connections` clients to random posts (after `--latency N` comments one at a time,
 * timed to their page and mirror; `--wait S` seconds after the start first: a settled writer), and prints the rate and self time by function
 * and module for the main thread and the render workers, then the main thread's busy
 * stretches longer than `--long` ms with the repository functions they spent it in
 * (`BENCH_SERVER_LOG=debug` adds the writer's log, with each comment's render, store
 * and publish times). `--views` sends `PUT /api/views/{slug}` to random posts instead of
 * comments (the figure `npm run bench` compares with bare Express). Changes the site's
 * store (the comments it posts and the views it counts stay).
 */
import { mkdir, readdir, rm } from 'node:fs/promises';
import { measureCommentLatency } from './comments.ts';
import { basename, join, resolve } from 'node:path';
import { startServerChild } from './server-handle.ts';
import { loadComments, loadViews } from './load.ts';
import { VisibilityWatch } from './visibility.ts';
import { prng, readSitePosts } from './corpus.ts';
import { longTasks, ranked, summarizeProfiles } from './cpu-profile.ts';
import { envList, flag, ms, printTable } from './report.ts';

const root = resolve(process.argv[2] ?? '');
const seconds = Number(flag('seconds') ?? 10);
const connections = Number(flag('connections') ?? 50);
const top = Number(flag('top') ?? 30);
const outDir = join(root, '.profile');
await rm(outDir, { recursive: true, force: true });
await mkdir(outDir, { recursive: true });

const latencySamples = Number(flag('latency') ?? 0);
const posts = await readSitePosts(root);
// The main thread from caught-up to close (`BENCH_PROFILE_FILE`, read by server-child.ts); the workers' whole life.
process.env.BENCH_PROFILE_FILE = join(outDir, 'main.cpuprofile');
// `--env KEY=VALUE,…`: settings for the writer (it sees no others), e.g. AGORA_SEARCH_INDEX=0.
const env = envList(flag('env'));
const server = await startServerChild('agora', root, { env, execArgv: ['--cpu-prof', `--cpu-prof-dir=${join(outDir, 'threads')}`] });
console.error(`[profile] writer listening after ${ms(server.listenMs)}, caught up after ${ms(server.startMs)}; ${connections} clients for ${seconds} s`);
if (latencySamples > 0) {
  await new Promise((r) => setTimeout(r, Number(flag('wait') ?? 0) * 1000));
  const l = await measureCommentLatency([{ url: server.url, root }], posts, latencySamples, 0, prng(11));
  console.log(`comment → page + mirror, ${l.samples} one at a time: p50 ${l.diskP50Ms} ms, p99 ${l.diskP99Ms} ms, max ${l.diskMaxMs} ms (failed ${l.failed}); → 201 p50 ${l.ackP50Ms} / p99 ${l.ackP99Ms} ms`);
}
let summary: string;
if (process.argv.includes('--views')) {
  const { figures: f } = await loadViews(server.url, posts.map((p) => p.slug), seconds, connections, prng(7));
  summary = `${f.requestsPerSec} PUT views/s (p50 ${f.p50Ms} ms, p99 ${f.p99Ms} ms; ${f.ok} ok, ${f.non2xx} not 2xx, ${f.errors} errors)`;
} else {
  const watch = new VisibilityWatch([{ url: server.url, root }]);
  await watch.start();
  const load = await loadComments(server.url, posts, seconds, connections, prng(7), (ack, post) => watch.acked(ack, post));
  const seen = await watch.finish();
  console.log(`visibility of the 201'd comments: ${JSON.stringify(seen)}`);
  summary = `${load.commentsPerSec} comments/s (p50 ${load.figures.p50Ms} ms, p99 ${load.figures.p99Ms} ms; statuses ${JSON.stringify(load.statuses)})`;
}
const usage = await server.close();
console.log(`\n${summary}; writer CPU user ${ms(usage.userMs)} sys ${ms(usage.sysMs)}, RSS ${Math.round(usage.rssMB)} MB`);
const threads = (await readdir(join(outDir, 'threads'))).filter((f) => f.endsWith('.cpuprofile') && !/\.0\.001\./.test(f)).sort();
for (const file of [join(outDir, 'main.cpuprofile'), ...threads.map((f) => join(outDir, 'threads', f))]) {
  const s = await summarizeProfiles([file]);
  if (s.busyMs < 200) continue;
  const pct = (v: number) => `${((v / s.busyMs) * 100).toFixed(1)}%`;
  console.log(`\n## ${basename(file)}: ${ms(s.busyMs)} busy, ${ms(s.idleMs)} idle`);
  printTable('Self time by module', ranked(s.byModule, 12).map(([k, v]) => [k, ms(v), pct(v)]), ['module', 'self', 'share']);
  printTable('Self time by function', ranked(s.byFunction, top).map(([k, v]) => [k, ms(v), pct(v)]), ['function module:line', 'self', 'share']);
}
const long = await longTasks(join(outDir, 'main.cpuprofile'), Number(flag('long') ?? 40));
console.log(`\n## main thread: ${long.length} busy stretches over ${flag('long') ?? 40} ms (the event loop got no turn)`);
for (const t of long.slice(0, top)) console.log(`${ms(t.atMs)} +${ms(t.ms)}: ${t.frames.map(([f, v]) => `${f} ${ms(v)}`).join(' · ')}`);
