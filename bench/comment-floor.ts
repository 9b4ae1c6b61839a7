/**
 * Comments per second against the comment floor (comment-floor-server.ts: the least
 * work a durable, published 201 needs, on a bare Express route) and against the
 * writer, alternated: `node --import tsx --conditions=agora-source bench/comment-floor.ts
 * <site> [--rounds 2] [--seconds 10] [--connections 50] [--only floor]` on a built site
 * with its comments (e.g. `bench/.corpus/writer-10000` after `npm run bench`). The same
 * load as `npm run bench`'s "50 clients" figure (load.ts). The floor tells what this
 * machine allows at all, with the load generator on the same cores; the writer's
 * rate is at most the floor's. Posts comments into the site's store (the writer's run).
 */
import { resolve } from 'node:path';
import { startServerChild } from './server-handle.ts';
import { loadComments } from './load.ts';
import { prng, readSitePosts, SEED } from './corpus.ts';
import { flag } from './report.ts';

const root = resolve(process.argv[2] ?? '');
const rounds = Number(flag('rounds') ?? 2);
const seconds = Number(flag('seconds') ?? 10);
const connections = Number(flag('connections') ?? 50);
const only = flag('only');
const posts = await readSitePosts(root);

const rate = async (mode: 'floor' | 'agora') => {
  const server = await startServerChild(mode, root);
  const load = await loadComments(server.url, posts, seconds, connections, prng(SEED + 5));
  const usage = await server.close();
  return `${mode}: ${load.commentsPerSec} comments/s (201 p50 ${load.figures.p50Ms} ms, p99 ${load.figures.p99Ms} ms; statuses ${JSON.stringify(load.statuses)}; CPU user ${Math.round(usage.userMs)} ms sys ${Math.round(usage.sysMs)} ms)`;
};

for (let round = 1; round <= rounds; round++) {
  const results: string[] = [];
  if (only !== 'agora') results.push(await rate('floor'));
  if (only !== 'floor') results.push(await rate('agora'));
  console.log(`round ${round}: ${results.join('; ')}`);
}
