/**
 * Comment latency of writer settings, alternated: `node --import tsx
 * --conditions=agora-source bench/latency-pairs.ts <root> K=V,K=V K=V … [--samples 200]` starts the
 * writer (compiled) on an existing site (e.g. `bench/.corpus/writer-10000`) once per
 * configuration, three rounds in turn, posts `--samples` comments (200) one at a time to random posts
 * (the same posts in each round's configurations) and prints comment → page + mirror
 * p50 / p99 / max and the RSS after a full collection. The p99 of 200 samples moves
 * by ±20 ms between runs: compare configurations within a round. Changes the site's store.
 */
import { resolve } from 'node:path';
import { startServerChild } from './server-handle.ts';
import { measureCommentLatency } from './comments.ts';
import { prng, readSitePosts } from './corpus.ts';
import { envList, flag } from './report.ts';
const root = resolve(process.argv[2]!);
const posts = await readSitePosts(root);
// Each configuration is a `K=V,…` argument; flags and their values are not.
const configs = process.argv.slice(3).filter((a) => !a.startsWith('--') && a.includes('=')).map(envList);
const SAMPLES = Number(flag('samples') ?? 200);
for (const round of [1, 2, 3]) {
  for (const env of configs) {
    const server = await startServerChild('agora', root, { env });
    const l = await measureCommentLatency([{ url: server.url, root }], posts, SAMPLES, 0, prng(round * 7));
    const u = await server.usage(true);
    console.log(`round ${round} ${JSON.stringify(env)}: page+mirror p50 ${l.diskP50Ms} p99 ${l.diskP99Ms} max ${l.diskMaxMs} (201 p99 ${l.ackP99Ms} max ${l.ackMaxMs}); rss after gc ${Math.round(u.rssMB)}`);
    await server.close();
  }
}
