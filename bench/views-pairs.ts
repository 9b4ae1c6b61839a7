/**
 * View PUTs against the bare Express baseline, alternated (the load figures vary run to
 * run): `node --import tsx --conditions=agora-source bench/views-pairs.ts <site>
 * [--rounds 3] [--seconds 10] [--connections 50]` on a built site (e.g.
 * `bench/.corpus/writer-10000` after `npm run bench`). Prints each round's PUTs/s of
 * both and their ratio, the figure `npm run bench` holds to ≥ 0.9×. Counts views into
 * the site's store.
 */
import { resolve } from 'node:path';
import { startServerChild } from './server-handle.ts';
import { loadViews } from './load.ts';
import { prng, readSitePosts, SEED } from './corpus.ts';
import { flag } from './report.ts';

const root = resolve(process.argv[2] ?? '');
const rounds = Number(flag('rounds') ?? 3);
const seconds = Number(flag('seconds') ?? 10);
const connections = Number(flag('connections') ?? 50);
const slugs = (await readSitePosts(root)).map((p) => p.slug);

const rate = async (mode: 'express' | 'agora') => {
  const server = mode === 'express' ? await startServerChild('express') : await startServerChild('agora', root);
  try {
    return (await loadViews(server.url, slugs, seconds, connections, prng(SEED + 3))).figures;
  } finally {
    await server.close();
  }
};

for (let round = 1; round <= rounds; round++) {
  const base = await rate('express');
  const agora = await rate('agora');
  console.log(`round ${round}: Express ${base.requestsPerSec}/s (p99 ${base.p99Ms} ms), Agora ${agora.requestsPerSec}/s (p99 ${agora.p99Ms} ms, ${agora.non2xx} not 2xx): ${(agora.requestsPerSec / base.requestsPerSec).toFixed(2)}×`);
}
