/**
 * `npm run bench:search [-- --posts 10000]`: the writer's search index (issue 11) on the
 * generated corpus — index build time, heap it holds, and query latency (p50/p99 over
 * 1,000 queries: title words, two-word phrases, filtered, Korean). A benchmark, not a test.
 */
import { join } from 'node:path';
import { loadConfig } from '@agora/generator';
import { readContent, contentMessages } from '../packages/generator/src/content.ts';
import { buildSiteModel } from '../packages/generator/src/model/site.ts';
import { PostSearch } from '../packages/writer/src/search/search-index.ts';
import { generateCorpus, prng, SEED } from './corpus.ts';
import { BENCH_DIR } from './child.ts';
import { flag } from './report.ts';
import { percentile } from './stats.ts';

const posts = Number(flag('posts', 'BENCH_SEARCH_POSTS') ?? 10_000);
const corpus = await generateCorpus(join(BENCH_DIR, '.corpus', `search-${posts}`), posts);
const config = loadConfig({ root: corpus.dir, env: {} });
const content = await readContent(config);
const site = buildSiteModel({ config: config.site, posts: contentMessages(content).posts, comments: [], views: new Map(), catalog: null });

global.gc?.();
const heapBefore = process.memoryUsage().heapUsed;
const search = new PostSearch({ site });
let started = performance.now();
search.warm();
const buildMs = performance.now() - started;
global.gc?.();
const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;

const random = prng(SEED);
const words = site.posts.flatMap((p) => p.title.split(/\s+/).filter((w) => w.length > 3));
const queries: { q: string; category?: (typeof site.posts)[number]['category'] }[] = [];
for (let i = 0; i < 1000; i++) {
  const word = () => words[Math.floor(random() * words.length)]!.toLowerCase().replace(/[^\p{L}\p{N}-]/gu, '');
  const kind = i % 4;
  if (kind === 0) queries.push({ q: word() });
  else if (kind === 1) queries.push({ q: `${word()} ${word()}` });
  else if (kind === 2) queries.push({ q: word(), category: site.posts[i % site.posts.length]!.category });
  else queries.push({ q: ['형태소 분석기', '한국어', '비교', '데이터베이스 성능'][i % 4]! });
}
for (const q of queries.slice(0, 50)) search.search({ ...q, limit: 10 }); // warm the JIT
const times: number[] = [];
for (const q of queries) {
  started = performance.now();
  search.search({ ...q, limit: 10 });
  times.push(performance.now() - started);
}
times.sort((a, b) => a - b);
const row = (name: string, value: string, target = '') => console.log(`${name.padEnd(44)} ${value.padStart(18)}  ${target}`);
row(`search index of ${posts} posts: build`, `${buildMs.toFixed(0)} ms`);
row('search index heap (after GC)', `${heapMb.toFixed(0)} MB`);
row('search p50 / p99 over 1,000 queries', `${percentile(times, 50).toFixed(2)} / ${percentile(times, 99).toFixed(2)} ms`, `p99 ≤ 20 ms: ${percentile(times, 99) <= 20 ? 'MET' : 'MISSED'}`);
