/**
 * What the calm release costs the next comment: `node --import tsx bench/after-calm.ts
 * <site> [--rounds 20] [--calm-ms 2000]` starts the writer twice on an existing site
 * (e.g. `bench/.corpus/writer-10000`), once letting go of its kept data after
 * `--calm-ms` without a comment (`AGORA_RELEASE_AFTER_MS`) and once never (`0`). Each
 * round posts a comment to a post (its text, rendering and lists are then in memory),
 * waits a second longer than the calm spell, and times a second comment to the same
 * post until its 201 (which comes once the post's page and mirror are rewritten).
 * Changes the site's store (the comments stay: the second writer's posts hold one more
 * comment each than the first's did, ~0.1 ms of its read-back).
 */
import { resolve } from 'node:path';
import { startServerChild } from './server-handle.ts';
import { postComment } from './comments.ts';
import { prng, readSitePosts } from './corpus.ts';
import { flag } from './report.ts';
import { median, percentile, round, sleep } from './stats.ts';

const root = resolve(process.argv[2] ?? '');
const rounds = Number(flag('rounds') ?? 20);
const calmMs = Number(flag('calm-ms') ?? 2000);
const posts = await readSitePosts(root);

async function run(releaseAfterMs: number, seed: number): Promise<number[]> {
  const server = await startServerChild('agora', root, { env: { AGORA_RELEASE_AFTER_MS: String(releaseAfterMs) } });
  const rand = prng(seed);
  const times: number[] = [];
  try {
    for (let i = 0; i < rounds; i++) {
      const post = posts[Math.floor(rand() * posts.length)]!;
      const first = await postComment(server.url, post.slug, `A first comment of round ${i}, to bring the post into memory.`);
      if (first.status !== 201) throw new Error(`first comment answered ${first.status}`);
      await sleep(calmMs + 1000);
      const t0 = performance.now();
      const second = await postComment(server.url, post.slug, `A second comment of round ${i}, after a calm spell.`);
      times.push(performance.now() - t0);
      if (second.status !== 201) throw new Error(`second comment answered ${second.status}`);
    }
  } finally {
    await server.close();
  }
  return times;
}

const line = (label: string, t: number[]) => `| ${label} | ${round(median(t), 1)} ms | ${round(percentile(t, 90), 1)} ms | ${round(Math.max(...t), 1)} ms |`;
// The same posts in the same order for both writers.
const released = await run(calmMs, 7);
const kept = await run(0, 7);
console.log(`writer on ${root} (${posts.length} posts): ${rounds} rounds, a second comment ${calmMs + 1000} ms after the first on the same post, time to its 201`);
console.log(['', '| writer | p50 | p90 | max |', '| --- | --- | --- | --- |', line(`lets go after ${calmMs} ms calm`, released), line('keeps (AGORA_RELEASE_AFTER_MS=0)', kept)].join('\n'));
