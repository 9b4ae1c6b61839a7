/**
 * `node --import tsx bench/render-pool.ts [--posts 10000] [--dir <corpus>]`: the render
 * path alone, as a cold build runs it: every body of the corpus through `RenderPool`
 * (one worker per core), results kept in a Map as the build keeps them. Prints wall
 * time, peak RSS of the process (all threads) and the main thread's heap, as one JSON
 * line. Run it in a fresh process per setting tried (batch size, workers, resource limits
 * in render/pool.ts).
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { splitFrontMatter } from '@agora/generator';
import { generateCorpus } from './corpus.ts';
import { flag } from './report.ts';
import { RenderPool } from '../packages/generator/src/render/pool.ts';
import type { RenderedPost } from '../packages/generator/src/types.ts';

const posts = Number(flag('posts') ?? 10000);
const dir = flag('dir') ?? join(existsSync('/dev/shm') ? '/dev/shm' : join(import.meta.dirname, '.corpus'), `agora-render-pool-${posts}`);
if (!existsSync(join(dir, 'content', 'posts'))) await generateCorpus(dir, posts);
const postsDir = join(dir, 'content', 'posts');
const items = await Promise.all((await readdir(postsDir)).filter((f) => f.endsWith('.md')).sort().map(async (f): Promise<[string, string]> => [f, splitFrontMatter(await readFile(join(postsDir, f), 'utf8')).body]));
const rssAfterRead = process.memoryUsage().rss;
let peakRss = 0;
const timer = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
const started = performance.now();
const pool = RenderPool.start();
const out = new Map<string, RenderedPost>();
await pool.render(items, (key, rendered) => out.set(key, rendered));
const wallMs = performance.now() - started;
await pool.close();
clearInterval(timer);
const mb = (b: number) => Math.round(b / 1048576);
console.log(JSON.stringify({ posts: items.length, rendered: out.size, wallMs: Math.round(wallMs), maxRssMB: mb(process.resourceUsage().maxRSS * 1024), sampledPeakRssMB: mb(peakRss), rssAfterReadMB: mb(rssAfterRead), mainHeapUsedMB: mb(process.memoryUsage().heapUsed), htmlMB: mb([...out.values()].reduce((n, r) => n + r.html.length, 0)) }));
