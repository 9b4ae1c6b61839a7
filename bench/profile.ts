/**
 * `node --import tsx --conditions=agora-source bench/profile.ts [--posts 4000] [--top 25]`: one cold build under
 * `node --cpu-prof` (every thread writes a profile), then self time by function and by
 * module, summed over all threads. Profiles and summary.json go to bench/.corpus/profile/.
 */
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateCorpus } from './corpus.ts';
import { BENCH_DIR, REPO_ROOT } from './child.ts';
import { cleanBuildState, fallback, runBuild } from './builds.ts';
import { flag, printTable, ms } from './report.ts';

interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }
interface CpuProfile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number }

const posts = Number(flag('posts', 'BENCH_PROFILE_POSTS') ?? 4000);
const top = Number(flag('top') ?? 25);
const outDir = join(BENCH_DIR, '.corpus', 'profile');

/** Group a script URL: a package under node_modules, a repo file, or a Node/V8 bucket. */
export function moduleOf(url: string, fn: string): string {
  if (!url) return fn.startsWith('(') ? fn : '(native)';
  if (url.startsWith('node:')) return 'node:' + url.slice(5).split('/').slice(0, 2).join('/');
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const parts = url.slice(nm + 14).split('/');
    return (parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]) ?? url;
  }
  const path = url.replace('file://', '').replace(REPO_ROOT + '/', '');
  return path.split('/').slice(0, path.startsWith('packages/') ? 5 : 2).join('/');
}

await rm(outDir, { recursive: true, force: true });
const corpus = await generateCorpus(join(BENCH_DIR, '.corpus', `profile-${posts}`), posts);
await cleanBuildState(corpus.dir);
console.error(`[profile] cold build of ${posts} posts under --cpu-prof`);
const run = await runBuild(corpus.dir, ['--cpu-prof', `--cpu-prof-dir=${outDir}`]);
// A fallback retry leaves the failed attempt's profile behind: keep only the newest main-thread profile set.
const files = (await readdir(outDir)).filter((f) => f.endsWith('.cpuprofile')).sort();
const pidOf = (f: string) => f.split('.')[3];
const lastPid = pidOf(files.at(-1) ?? '');
const byFunction = new Map<string, number>();
const byModule = new Map<string, number>();
let total = 0;
let idle = 0;
const perThread: [string, string, string][] = [];
let threads = 0;
for (const file of files.filter((f) => pidOf(f) === lastPid)) {
  threads++;
  const profile = JSON.parse(await readFile(join(outDir, file), 'utf8')) as CpuProfile;
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const busyBefore = total;
  for (let i = 0; i < profile.samples.length; i++) {
    const node = nodes.get(profile.samples[i] as number);
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    if (!node) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)') {
      idle += dt;
      continue;
    }
    const mod = moduleOf(url, functionName);
    const name = `${functionName || '(anonymous)'} ${mod}${url ? ':' + (lineNumber + 1) : ''}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + dt);
    byModule.set(mod, (byModule.get(mod) ?? 0) + dt);
    total += dt;
  }
  const span = (profile.endTime - profile.startTime) / 1000;
  perThread.push([`thread ${file.split('.')[4]}`, ms(total - busyBefore), `busy of ${ms(span)} alive`]);
}
const ranked = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top);
const pct = (v: number) => `${((v / total) * 100).toFixed(1)}%`;
console.log(`\nCold build of ${posts} posts: ${(run.wallMs / 1000).toFixed(2)} s wall, ${threads} thread profile(s), ${ms(total)} busy (+${ms(idle)} idle) sampled${fallback.workers !== null ? `, workers: ${fallback.workers} (fallback)` : ''}`);
printTable('Threads (main = 0; tsx runs a loader thread per JS thread)', perThread, ['thread', 'busy', '']);
printTable('Self time by module', ranked(byModule).map(([k, v]) => [k, ms(v), pct(v)]), ['module', 'self', 'share']);
printTable('Self time by function', ranked(byFunction).map(([k, v]) => [k, ms(v), pct(v)]), ['function module:line', 'self', 'share']);
await writeFile(join(outDir, 'summary.json'), JSON.stringify({ posts, run, busyMs: total, idleMs: idle, perThread, byModule: ranked(byModule), byFunction: ranked(byFunction) }, null, 2) + '\n');
