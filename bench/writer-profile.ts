/**
 * The writer under comment load, profiled: `node --import tsx --conditions=agora-source
 * bench/writer-profile.ts <root> [--seconds 10] [--connections 50] [--top 30]` starts
 * the writer on an existing site (e.g. `bench/.corpus/writer-10000` after `npm run
 * bench`, with its comments imported) under `--cpu-prof`, posts comments from
 * `connections` clients to random posts, and prints the rate and self time by function
 * and module for the main thread and the render workers. Changes the site's store (the
 * comments it posts stay).
 */
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { startServerChild } from './server-handle.ts';
import { loadComments } from './load.ts';
import { prng, type CorpusPost } from './corpus.ts';
import { ranked, summarizeProfiles } from './cpu-profile.ts';
import { flag, ms, printTable } from './report.ts';

const root = resolve(process.argv[2] ?? '');
const seconds = Number(flag('seconds') ?? 10);
const connections = Number(flag('connections') ?? 50);
const top = Number(flag('top') ?? 30);
const outDir = join(root, '.profile');
await rm(outDir, { recursive: true, force: true });
await mkdir(outDir, { recursive: true });

const slugs = (await readdir(join(root, 'content', 'posts'))).filter((f) => f.endsWith('.md')).map((f) => f.slice(0, -3));
const posts: CorpusPost[] = slugs.map((slug) => ({ slug, category: '', model: '', date: '', file: '' }));
const server = await startServerChild('agora', root, { execArgv: ['--cpu-prof', `--cpu-prof-dir=${outDir}`] });
console.error(`[profile] writer listening after ${ms(server.listenMs)}, caught up after ${ms(server.startMs)}; ${connections} clients for ${seconds} s`);
const load = await loadComments(server.url, posts, seconds, connections, prng(7));
const usage = await server.close();
console.log(`\n${load.commentsPerSec} comments/s (p50 ${load.figures.p50Ms} ms, p99 ${load.figures.p99Ms} ms; statuses ${JSON.stringify(load.statuses)}); writer CPU user ${ms(usage.userMs)} sys ${ms(usage.sysMs)}, RSS ${Math.round(usage.rssMB)} MB`);
const files = (await readdir(outDir)).filter((f) => f.endsWith('.cpuprofile')).sort();
for (const file of files) {
  const s = await summarizeProfiles([join(outDir, file)]);
  if (s.busyMs < 200) continue;
  const pct = (v: number) => `${((v / s.busyMs) * 100).toFixed(1)}%`;
  console.log(`\n## ${file}: ${ms(s.busyMs)} busy, ${ms(s.idleMs)} idle`);
  printTable('Self time by module', ranked(s.byModule, 12).map(([k, v]) => [k, ms(v), pct(v)]), ['module', 'self', 'share']);
  printTable('Self time by function', ranked(s.byFunction, top).map(([k, v]) => [k, ms(v), pct(v)]), ['function module:line', 'self', 'share']);
}
