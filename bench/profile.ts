/**
 * `node --import tsx --conditions=agora-source bench/profile.ts [--posts 4000] [--top 25]`: one cold build under
 * `node --cpu-prof` (every thread writes a profile), then self time by function and by
 * module, summed over all threads. Profiles and summary.json go to bench/.corpus/profile/.
 */
import { readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateCorpus } from './corpus.ts';
import { BENCH_DIR } from './child.ts';
import { ranked as rankedBy, summarizeProfiles } from './cpu-profile.ts';
import { cleanBuildState, fallback, runBuild } from './builds.ts';
import { flag, printTable, ms } from './report.ts';

const posts = Number(flag('posts', 'BENCH_PROFILE_POSTS') ?? 4000);
const top = Number(flag('top') ?? 25);
const outDir = join(BENCH_DIR, '.corpus', 'profile');

await rm(outDir, { recursive: true, force: true });
const corpus = await generateCorpus(join(BENCH_DIR, '.corpus', `profile-${posts}`), posts);
await cleanBuildState(corpus.dir);
console.error(`[profile] cold build of ${posts} posts under --cpu-prof`);
const run = await runBuild(corpus.dir, ['--cpu-prof', `--cpu-prof-dir=${outDir}`]);
// A fallback retry leaves the failed attempt's profile behind: keep only the newest main-thread profile set.
const files = (await readdir(outDir)).filter((f) => f.endsWith('.cpuprofile')).sort();
const pidOf = (f: string) => f.split('.')[3];
const lastPid = pidOf(files.at(-1) ?? '');
const threadFiles = files.filter((f) => pidOf(f) === lastPid);
const { busyMs: total, idleMs: idle, byFunction, byModule, perThread: threadsBusy } = await summarizeProfiles(threadFiles.map((f) => join(outDir, f)));
const threads = threadFiles.length;
const perThread = threadsBusy.map((t): [string, string, string] => [`thread ${t.file.split('.')[4]}`, ms(t.busyMs), `busy of ${ms(t.aliveMs)} alive`]);
const ranked = (m: Map<string, number>) => rankedBy(m, top);
const pct = (v: number) => `${((v / total) * 100).toFixed(1)}%`;
console.log(`\nCold build of ${posts} posts: ${(run.wallMs / 1000).toFixed(2)} s wall, ${threads} thread profile(s), ${ms(total)} busy (+${ms(idle)} idle) sampled${fallback.workers !== null ? `, workers: ${fallback.workers} (fallback)` : ''}`);
printTable('Threads (main = 0; tsx runs a loader thread per JS thread)', perThread, ['thread', 'busy', '']);
printTable('Self time by module', ranked(byModule).map(([k, v]) => [k, ms(v), pct(v)]), ['module', 'self', 'share']);
printTable('Self time by function', ranked(byFunction).map(([k, v]) => [k, ms(v), pct(v)]), ['function module:line', 'self', 'share']);
await writeFile(join(outDir, 'summary.json'), JSON.stringify({ posts, run, busyMs: total, idleMs: idle, perThread, byModule: ranked(byModule), byFunction: ranked(byFunction) }, null, 2) + '\n');
