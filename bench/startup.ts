/**
 * `npm run bench:startup [-- --runs 10]`: how long `agora` takes to start, as a user runs
 * it (`node bin/agora --help`, a fresh process each time, wall time to exit): compiled
 * (what `npm ci` builds) and through tsx (`AGORA_TSX=1`, what runs when the compiled
 * output is stale or missing), next to a bare `node -e 0`; and the freshness check
 * `bin/agora` does at every start (bin/freshness.mjs), timed inside a fresh process.
 * Medians; figures are printed, never asserted (the machine may be busy).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from './child.ts';
import { flag, machine, printTable, type Row } from './report.ts';

const runs = Number(flag('runs') ?? 10);
const AGORA = join(REPO_ROOT, 'bin', 'agora');

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** Prints the process's CPU time (user + system, whole process since it started) on stderr as it exits. */
const CPU_AT_EXIT = `data:text/javascript,${encodeURIComponent("process.on('exit', () => { const u = process.cpuUsage(); process.stderr.write(`\\ncpu-us ${u.user + u.system}\\n`); });")}`;

/**
 * Medians over `runs` fresh processes of `node <args>`: wall time (spawn to exit, the
 * process as it is) and CPU time (other runs, with the preload above: it adds its own
 * cost, the same to every row; CPU time suffers less than wall time from a busy machine).
 */
function timed(args: string[], env: NodeJS.ProcessEnv = {}): { wall: number; cpu: number } {
  const wall: number[] = [];
  const cpu: number[] = [];
  const run = (argv: string[]) => {
    const child = spawnSync(process.execPath, argv, { cwd: REPO_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
    if (child.status !== 0) throw new Error(`node ${args.join(' ')} failed: ${child.stderr}`);
    return child.stderr;
  };
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    run(args);
    wall.push(performance.now() - started);
    cpu.push(Number(/cpu-us (\d+)/.exec(run(['--import', CPU_AT_EXIT, ...args]))?.[1] ?? NaN) / 1000);
  }
  return { wall: median(wall), cpu: median(cpu) };
}

const freshness = pathToFileURL(join(REPO_ROOT, 'bin', 'freshness.mjs')).href;
/** The check as bin/agora does it: first call in a fresh process (import included), ms. */
function freshnessCheck(): { ms: number; state: string; files: number } {
  const script = `
    const t = performance.now();
    const { compiledState } = await import(${JSON.stringify(freshness)});
    const { state } = compiledState(${JSON.stringify(REPO_ROOT)});
    const ms = performance.now() - t;
    const { readFileSync } = await import('node:fs');
    const stamp = JSON.parse(readFileSync(${JSON.stringify(join(REPO_ROOT, 'bin', 'lib', 'stamp.json'))}, 'utf8'));
    console.log(JSON.stringify({ ms, state, files: stamp.files.length + stamp.dirs.length }));
  `;
  const results: { ms: number; state: string; files: number }[] = [];
  for (let i = 0; i < runs; i++) {
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(`freshness check failed: ${child.stderr}`);
    results.push(JSON.parse(child.stdout) as { ms: number; state: string; files: number });
  }
  return { ms: median(results.map((r) => r.ms)), state: results[0]!.state, files: results[0]!.files };
}

const check = (() => {
  try {
    return freshnessCheck();
  } catch {
    return null;
  }
})();
if (check?.state !== 'current') {
  console.error(`bench:startup: the compiled output is ${check?.state ?? 'missing'}; run \`npm run compile\` first`);
  process.exit(1);
}

const bare = timed(['-e', '0']);
const compiled = timed([AGORA, '--help']);
const viaTsx = timed([AGORA, '--help'], { AGORA_TSX: '1' });
const both = (t: { wall: number; cpu: number }) => `${Math.round(t.wall)} ms wall, ${Math.round(t.cpu)} ms CPU`;
const rows: Row[] = [
  ['node -e 0 (Node itself)', both(bare)],
  ['agora --help, compiled', both(compiled), '≤ 150 ms'],
  ['agora --help, through tsx (stale or missing compiled output)', both(viaTsx)],
  [`freshness check (${check.files} stat calls, import included)`, `${check.ms.toFixed(1)} ms wall`],
];
const m = machine();
printTable(`Start-up, median of ${runs} fresh processes (${m.cpu}, ${m.cores} cores, Node ${m.node}, load average ${loadavg()[0]!.toFixed(1)})`, rows);
