/**
 * `npm run bench:compare [-- --posts 4000] [--runs 3] [--where disk,ram] [--baseline <checkout>]`:
 * builds the same generated corpus with Agora (cold: empty dist/ and .cache/, child
 * process; then warm: the same build again with nothing changed, which must write 0
 * files),
 * Eleventy 3 (installed into bench/compare/ by this script) and Hugo when `hugo` is on
 * PATH, each with and without syntax highlighting where it has a switch, all in one
 * run: on the disk (bench/compare/.work/) and on a RAM disk (/dev/shm). Prints wall
 * times and ratios, writes bench/compare-results.json. `--baseline <dir>`: also build
 * with another checkout of Agora (its own bench/build-child.ts and generator, e.g. the
 * last commit before a change, with node_modules linked), alternated with the rest, so
 * before and after are measured under the same load.
 */
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateCorpus } from './corpus.ts';
import { BENCH_DIR, REPO_ROOT, contention, syncDisks, waitForQuiet } from './child.ts';
import { cleanBuildState, fallback, runBuild } from './builds.ts';
import { COMPARE_DIR, WORK_DIR, hugoVersion, installEleventy, timed, writeEleventySite, writeHugoSite } from './compare-sites.ts';
import { codeFingerprint, flag, machine, printTable, s, x, type Row } from './report.ts';
import { median, round } from './stats.ts';

const posts = Number(flag('posts', 'BENCH_COMPARE_POSTS') ?? 4000);
const runs = Math.max(1, Number(flag('runs', 'BENCH_RUNS') ?? 3));
const where = (flag('where', 'BENCH_WHERE') ?? 'disk,ram').split(',').filter((w) => w === 'disk' || (w === 'ram' && existsSync('/dev/shm')));
const log = (line: string) => console.error(`[compare] ${line}`);
const eleventyCli = join(COMPARE_DIR, 'node_modules', '@11ty', 'eleventy', 'cmd.cjs');
const hugo = hugoVersion();
const codeAtStart = codeFingerprint(REPO_ROOT);
const baselineFlag = flag('baseline');
const baseline = baselineFlag ? resolve(baselineFlag) : undefined;

/** Files written by each warm build, per Agora checkout (must be 0). */
const warmWritten: Record<string, number[]> = {};

/** Wall time of a command started once the disks are synced and the machine is quiet. */
async function quietTimed(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<number> {
  syncDisks();
  await waitForQuiet();
  return timed(command, args, cwd, env);
}

interface Tool {
  name: string;
  highlighting: string;
  run: () => Promise<number>;
}

async function tools(workDir: string): Promise<{ list: Tool[]; corpusKB: number }> {
  await mkdir(workDir, { recursive: true });
  log(`corpus of ${posts} posts in ${workDir}`);
  const corpus = await generateCorpus(join(workDir, 'corpus'), posts);
  const eleventyDir = await writeEleventySite(corpus.dir, workDir);
  const hugoDir = hugo ? await writeHugoSite(corpus.dir, workDir) : null;
  const agora = (name: string, benchDir?: string): Tool[] => [
    {
      name, highlighting: 'highlight.js (lowlight), always on',
      run: async () => {
        await cleanBuildState(corpus.dir);
        return (await runBuild(corpus.dir, [], benchDir)).wallMs;
      },
    },
    {
      // Right after the cold build of the same checkout: nothing changed.
      name: `${name} warm`, highlighting: 'nothing to render',
      run: async () => {
        const run = await runBuild(corpus.dir, [], benchDir);
        (warmWritten[name] ??= []).push(run.written);
        return run.wallMs;
      },
    },
  ];
  // `agora build` exactly as a user runs it: the compiled CLI (`npm ci` compiled it;
  // this script refuses to time a stale one, which would silently measure tsx).
  const cli = join(REPO_ROOT, 'bin', 'agora');
  // An empty store: the same work as the in-process build (and Eleventy), no comments.
  const noComments = { AGORA_DATA_DIR: join(workDir, 'no-comments') };
  const agoraCli = (warm: boolean): Tool => ({
    name: warm ? 'agora cli warm' : 'agora cli', highlighting: warm ? 'node bin/agora build, nothing changed' : 'node bin/agora build, compiled, with its Pagefind index',
    run: async () => {
      if (!warm) await cleanBuildState(corpus.dir);
      return quietTimed(process.execPath, [cli, 'build'], corpus.dir, noComments);
    },
  });
  // Eleventy builds no search index: this is the same work as its cold build.
  const agoraCliNoSearch: Tool = {
    name: 'agora cli no search', highlighting: 'node bin/agora build, AGORA_SEARCH_INDEX=0',
    run: async () => {
      await cleanBuildState(corpus.dir);
      return quietTimed(process.execPath, [cli, 'build'], corpus.dir, { ...noComments, AGORA_SEARCH_INDEX: '0' });
    },
  };
  // Eleventy's documented way to search: Pagefind over the built site, after the build.
  const pagefindCli = join(REPO_ROOT, 'node_modules', 'pagefind', 'lib', 'runner', 'bin.cjs');
  const eleventyPagefind: Tool = {
    name: 'eleventy+highlight+pagefind', highlighting: 'Prism, then `pagefind --site _site`',
    run: async () => {
      await rm(join(eleventyDir, '_site'), { recursive: true, force: true });
      const script = `"${process.execPath}" "${eleventyCli}" --config=eleventy.config.mjs --quiet && "${process.execPath}" "${pagefindCli}" --site _site --silent`;
      return quietTimed('sh', ['-c', script], eleventyDir, { BENCH_HIGHLIGHT: '1' });
    },
  };
  const list: Tool[] = [
    agoraCli(false),
    agoraCli(true),
    agoraCliNoSearch,
    ...agora('agora'),
    ...(baseline ? agora('agora baseline', join(baseline, 'bench')) : []),
    ...[false, true].map((hl): Tool => ({
      name: hl ? 'eleventy+highlight' : 'eleventy', highlighting: hl ? 'Prism (@11ty/eleventy-plugin-syntaxhighlight)' : 'none (markdown-it defaults)',
      run: async () => {
        await rm(join(eleventyDir, '_site'), { recursive: true, force: true });
        return quietTimed(process.execPath, [eleventyCli, '--config=eleventy.config.mjs', '--quiet'], eleventyDir, { BENCH_HIGHLIGHT: hl ? '1' : '0' });
      },
    })),
    ...(hugoDir ? [false, true].map((hl): Tool => ({
      name: hl ? 'hugo+highlight' : 'hugo', highlighting: hl ? 'Chroma (codeFences = true)' : 'none (codeFences = false)',
      run: async () => {
        for (const d of ['public', 'resources', '.hugo-cache']) await rm(join(hugoDir, d), { recursive: true, force: true });
        return quietTimed('hugo', ['--quiet', '--config', hl ? 'highlight.toml' : 'plain.toml', '--destination', 'public', '--cacheDir', join(hugoDir, '.hugo-cache')], hugoDir);
      },
    })) : []),
    eleventyPagefind,
  ];
  return { list, corpusKB: round(corpus.bytes / 1024, 0) };
}

/** Every tool `runs` times, interleaved, so a slow spell of the machine hits all of them. */
async function measure(label: string, workDir: string) {
  const { list, corpusKB } = await tools(workDir);
  const times = new Map<string, number[]>();
  for (let r = 0; r < runs; r++) {
    for (const tool of list) {
      log(`${label}: ${tool.name} (run ${r + 1} of ${runs})`);
      times.set(tool.name, [...(times.get(tool.name) ?? []), round(await tool.run(), 0)]);
    }
  }
  const wall = (name: string) => median(times.get(name) ?? []);
  const agora = wall('agora');
  return {
    where: label, workDir, corpusKB,
    tools: list.map((t) => ({ name: t.name, highlighting: t.highlighting, wallMs: wall(t.name), runsMs: times.get(t.name) ?? [], agoraRatio: round(agora / wall(t.name), 2) })),
  };
}

const { compiledState } = (await import(pathToFileURL(join(REPO_ROOT, 'bin', 'freshness.mjs')).href)) as { compiledState: (root: string) => { state: string; changed?: string } };
const compiled = compiledState(REPO_ROOT);
if (compiled.state !== 'current') throw new Error(`The compiled CLI is ${compiled.state}${compiled.changed ? ` (${compiled.changed} changed)` : ''}: run \`npm run compile\` first, so \`agora cli\` times what users run`);
installEleventy();
const sections = [];
for (const w of where) {
  const workDir = w === 'ram' ? join('/dev/shm', `agora-bench-compare-${process.pid}`) : WORK_DIR;
  try {
    sections.push(await measure(w === 'ram' ? 'RAM disk (/dev/shm)' : 'disk (bench/compare/.work)', workDir));
  } finally {
    if (w === 'ram') await rm(workDir, { recursive: true, force: true });
  }
}

const results = {
  machine: machine(), code: { ...codeAtStart, changedDuringRun: codeFingerprint(REPO_ROOT).sha1 !== codeAtStart.sha1 }, baseline: baseline ? { dir: baseline, code: codeFingerprint(baseline) } : null,
  posts, runs, agoraBuildWorkers: fallback, contention, warmWritten,
  hugo: hugo ?? 'skipped: `hugo` is not on PATH (Debian package `hugo`)',
  sections,
};
await writeFile(join(BENCH_DIR, 'compare-results.json'), JSON.stringify(results, null, 2) + '\n');

const m = results.machine;
console.log(`\n${posts} posts, cold builds (process wall time, median of ${runs}) — ${m.date.slice(0, 10)} — ${m.cpu}, ${m.cores} cores, Node ${m.node}`);
if (fallback.workers !== null) console.log(`NOTE: Agora's default multi-threaded build failed (${fallback.reason}); it ran with workers: ${fallback.workers}`);
if (contention.gaveUp > 0) console.log(`NOTE: ${contention.gaveUp} of ${contention.checks} timed runs started while other processes kept the CPUs busy`);
if (results.code.changedDuringRun) console.log('NOTE: the product sources changed during this run; figures may mix two versions');
if (!hugo) console.log('Hugo: skipped (`hugo` is not on PATH; Debian package `hugo`)');
for (const section of sections) {
  const wall = (name: string) => section.tools.find((t) => t.name === name)?.wallMs ?? NaN;
  const rows: Row[] = section.tools.map((t) => [`${t.name} — ${t.highlighting}`, s(t.wallMs), t.name.startsWith('agora') ? `runs: ${t.runsMs.map((v) => s(v)).join(', ')}` : `agora/${t.name} = ${x(wall('agora') / t.wallMs)}  (runs: ${t.runsMs.map((v) => s(v)).join(', ')})`]);
  printTable(`On the ${section.where}`, rows, ['tool — highlighting', 'wall', 'ratio']);
  // The targets of issue 13: cold ≤ 1.5× highlighting Eleventy; warm ≤ 0.25× plain Eleventy's cold build, 0 files.
  const targets: Row[] = [];
  // Like for like: both with a search index, both without.
  targets.push(['agora cli: cold ÷ eleventy+highlight+pagefind', x(wall('agora cli') / wall('eleventy+highlight+pagefind')), '≤ 1.50× (both build a search index)']);
  targets.push(['agora cli no search: cold ÷ eleventy+highlight', x(wall('agora cli no search') / wall('eleventy+highlight')), '≤ 1.50× (neither builds one)']);
  for (const name of ['agora cli', 'agora', ...(baseline ? ['agora baseline'] : [])]) {
    targets.push([`${name}: cold ÷ eleventy+highlight`, x(wall(name) / wall('eleventy+highlight')), '≤ 1.50× (goal 1.00×)']);
    targets.push([`${name}: warm ÷ eleventy (cold)`, x(wall(`${name} warm`) / wall('eleventy')), name === 'agora cli' ? '≤ 0.25×' : `≤ 0.25×; files written: ${(warmWritten[name] ?? []).join(', ')} (target 0)`]);
  }
  printTable(`Issue 13 targets, ${section.where}`, targets, ['ratio', 'value', 'target']);
}
console.log(`\nwrote ${join(BENCH_DIR, 'compare-results.json')}`);
