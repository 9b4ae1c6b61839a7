/**
 * The same comment load, several times back to back on one writer: `node --import tsx
 * bench/writer-phases.ts <root> [--phases 3] [--seconds 8] [--connections 50] [--rest 3] [--env K=V,…]` starts
 * the writer (compiled, as `npm start` runs it) on an existing site (e.g.
 * `bench/.corpus/writer-10000` after `npm run bench`), then runs `--phases` loads of
 * `--connections` clients posting to random posts, and prints each phase's rate and
 * latency, what its main thread did during it (its event loop busy, on a core, waiting
 * for a core: shares of the load's time) and the writer's CPU on all its threads, with
 * the writer's RSS and heap after it. `npm run bench` measures the first
 * phase only, right after the start; the later phases show what a writer that has run
 * for a while does (V8 has optimized the comment path by then). Memory at rest is
 * taken after a full collection. `BENCH_NODE_FLAGS="…"` passes Node flags to the writer. Changes the site's store (the comments stay).
 */
import { resolve } from 'node:path';
import { startServerChild } from './server-handle.ts';
import { procMemory } from './rss.ts';
import { loadComments } from './load.ts';
import { VisibilityWatch } from './visibility.ts';
import { prng, readSitePosts } from './corpus.ts';
import { envList, flag } from './report.ts';

const root = resolve(process.argv[2] ?? '');
const phases = Number(flag('phases') ?? 3);
const seconds = Number(flag('seconds') ?? 8);
const connections = Number(flag('connections') ?? 50);
// V8's memory reducer starts 8 s after the allocation rate drops: rest longer to see it.
const restSeconds = Number(flag('rest') ?? 3);
const posts = await readSitePosts(root);

// `BENCH_NODE_FLAGS="--heap-growing-percent=20"`: Node or V8 flags for the writer, to compare;
// `--env KEY=VALUE,…`: its settings (it sees no others), e.g. AGORA_COMMENT_TEXT_POSTS=0.
const env = envList(flag('env'));
const server = await startServerChild('agora', root, { env, execArgv: (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean) });
const memory = async (afterGc: boolean) => {
  const usage = await server.usage(afterGc);
  const rss = (await procMemory(server.pid))?.rssMB ?? usage.rssMB;
  return { rss: Math.round(rss), heap: `${Math.round(usage.heapUsedMB)} of ${Math.round(usage.heapTotalMB)}`, external: Math.round(usage.externalMB) };
};
const rows: string[][] = [];
const atRest = await memory(true);
rows.push(['at rest after the start', '', '', '', '', '', `${atRest.rss} MB`, `${atRest.heap} MB`, `${atRest.external} MB`]);
for (let phase = 1; phase <= phases; phase++) {
  let peak = 0;
  const sampler = setInterval(() => void procMemory(server.pid).then((m) => (peak = Math.max(peak, m?.rssMB ?? 0))), 100);
  // Each 201'd comment watched until its page shows it and /api/posts counts it.
  const watch = new VisibilityWatch([{ url: server.url, root }]);
  await watch.start();
  const before = await server.usage();
  const loadStarted = performance.now();
  const load = await loadComments(server.url, posts, seconds, connections, prng(100 + phase), (ack, post) => watch.acked(ack, post));
  const during = await server.usage();
  const loadMs = performance.now() - loadStarted;
  const seen = await watch.finish();
  clearInterval(sampler);
  console.error(`load ${phase}: 201'd comments in /api/posts p99 ${seen.postsP99Ms} ms (read by the watcher: ${seen.postsSeenP99Ms} ms), ${seen.postsOver2s} over 2 s; on their page p99 ${seen.pageP99Ms} ms`);
  const after = await memory(false);
  // Shares of the load's wall time: is the main thread the bottleneck, and does it get a core?
  const share = (key: keyof typeof before.mainThread) => Math.round((100 * (during.mainThread[key] - before.mainThread[key])) / loadMs);
  const processCpu = Math.round((100 * (during.userMs + during.sysMs - before.userMs - before.sysMs)) / loadMs);
  const main = `${share('loopBusyMs')} / ${share('onCpuMs')} / ${share('runQueueMs')} %`;
  rows.push([`load ${phase} (${seconds} s)`, `${load.commentsPerSec}`, `${load.figures.p50Ms} / ${load.figures.p99Ms} ms`, main, `${processCpu} %`, `${Math.round(peak)} MB`, `${after.rss} MB`, `${after.heap} MB`, `${after.external} MB`]);
}
await new Promise((r) => setTimeout(r, restSeconds * 1000));
const idle = await memory(false);
rows.push([`${restSeconds} s after the loads`, '', '', '', '', '', `${idle.rss} MB`, `${idle.heap} MB`, `${idle.external} MB`]);
const rest = await memory(true);
rows.push(['then after a full collection', '', '', '', '', '', `${rest.rss} MB`, `${rest.heap} MB`, `${rest.external} MB`]);
await server.close();
console.log(`writer on ${root} (${posts.length} posts), listening after ${Math.round(server.listenMs)} ms, caught up after ${Math.round(server.startMs)} ms; ${connections} clients`);
// A markdown table: docs/performance.md quotes it.
const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
console.log(['', line(['phase', 'comments/s', '201 p50 / p99', 'main thread: loop busy / on a core / waiting for one', 'writer CPU (all threads)', 'peak RSS', 'RSS after', 'main heap used of committed', 'external']), line(Array(9).fill('---')), ...rows.map(line)].join('\n'));
