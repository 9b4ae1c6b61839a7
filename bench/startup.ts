/**
 * `npm run bench:startup [-- --runs 20] [--baseline <checkout>]`: how long `agora` takes to start, as a user runs
 * it (`node bin/agora --help`, a fresh process each time, wall time to exit): compiled
 * (what `npm ci` builds) and through tsx (`AGORA_TSX=1`, what runs when the compiled
 * output is stale or missing), next to a bare `node -e 0`; and the freshness check
 * `bin/agora` does at every start (bin/freshness.mjs), timed inside a fresh process.
 *
 * The three commands run in turn in every round (node, compiled, tsx, node, …), so a
 * busy spell of the machine falls on all of them alike. Wall time: median and fastest
 * of `runs`; what agora adds to Node: the median over the rounds of (agora − node) in
 * the same round. CPU time (user + system of the whole process, read at exit by a
 * CommonJS preload, which costs every row the same and, unlike an `--import`, does not
 * start Node's ES module loader for `node -e 0`): separate runs, median. Figures are
 * printed, never asserted (the machine may be busy). `--baseline <dir>`: also time that
 * checkout's compiled `bin/agora --help` in every round (compile it there first), e.g.
 * main before a change.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadavg, tmpdir } from 'node:os';
import { REPO_ROOT } from './child.ts';
import { flag, machine, printTable, type Row } from './report.ts';

const runs = Number(flag('runs') ?? 20);
const AGORA = join(REPO_ROOT, 'bin', 'agora');
const baselineFlag = flag('baseline');
const baseline = baselineFlag ? resolve(baselineFlag) : undefined;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** Prints the process's CPU time (user + system, whole process since it started) on stderr as it exits. */
const scratch = mkdtempSync(join(tmpdir(), 'agora-startup-'));
const CPU_AT_EXIT = join(scratch, 'cpu-at-exit.cjs');
writeFileSync(CPU_AT_EXIT, "process.on('exit', () => { const u = process.cpuUsage(); process.stderr.write(`\\ncpu-us ${u.user + u.system}\\n`); });\n");

interface Subject {
  label: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  wall: number[];
  cpu: number[];
}

function run(subject: Subject, preload: string[] = []): string {
  const child = spawnSync(process.execPath, [...preload, ...subject.args], { cwd: REPO_ROOT, env: { ...process.env, ...subject.env }, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`node ${subject.args.join(' ')} failed: ${child.stderr}`);
  // A stale compiled output would time tsx instead, silently but for this notice.
  if (/changed since the last `npm run compile`/.test(child.stderr)) throw new Error(`node ${subject.args.join(' ')}: ${child.stderr.trim()}`);
  return child.stderr;
}

/** The check as bin/agora does it: first call in a fresh process, require() of the module included, ms. */
function freshnessCheck(): { ms: number; fastest: number; state: string; files: number } {
  const script = `
    const t = performance.now();
    const { compiledState } = require(${JSON.stringify(join(REPO_ROOT, 'bin', 'freshness.mjs'))});
    const { state } = compiledState(${JSON.stringify(REPO_ROOT)});
    const ms = performance.now() - t;
    const stamp = JSON.parse(require('node:fs').readFileSync(${JSON.stringify(join(REPO_ROOT, 'bin', 'lib', 'stamp.json'))}, 'utf8'));
    console.log(JSON.stringify({ ms, state, files: stamp.files.length + stamp.dirs.length }));
  `;
  const results: { ms: number; state: string; files: number }[] = [];
  for (let i = 0; i < runs; i++) {
    const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(`freshness check failed: ${child.stderr}`);
    results.push(JSON.parse(child.stdout) as { ms: number; state: string; files: number });
  }
  const times = results.map((r) => r.ms);
  return { ms: median(times), fastest: Math.min(...times), state: results[0]!.state, files: results[0]!.files };
}

try {
  const check = (() => {
    try {
      return freshnessCheck();
    } catch {
      return null;
    }
  })();
  if (check?.state !== 'current') {
    console.error(`bench:startup: the compiled output is ${check?.state ?? 'missing'}; run \`npm run compile\` first`);
    process.exitCode = 1;
  } else {
    const bare: Subject = { label: 'node -e 0 (Node itself)', args: ['-e', '0'], wall: [], cpu: [] };
    const compiled: Subject = { label: 'agora --help, compiled', args: [AGORA, '--help'], wall: [], cpu: [] };
    const viaTsx: Subject = { label: 'agora --help, through tsx (stale or missing compiled output)', args: [AGORA, '--help'], env: { AGORA_TSX: '1' }, wall: [], cpu: [] };
    const before: Subject | undefined = baseline ? { label: `agora --help, compiled, baseline ${baseline}`, args: [join(baseline, 'bin', 'agora'), '--help'], wall: [], cpu: [] } : undefined;
    const subjects = [bare, compiled, ...(before ? [before] : []), viaTsx];
    const load = [loadavg()[0]!];
    for (let i = 0; i < runs; i++) {
      for (const subject of subjects) {
        const started = performance.now();
        run(subject);
        subject.wall.push(performance.now() - started);
      }
      for (const subject of subjects) subject.cpu.push(Number(/cpu-us (\d+)/.exec(run(subject, ['--require', CPU_AT_EXIT]))?.[1] ?? NaN) / 1000);
    }
    load.push(loadavg()[0]!);
    const figures = (s: Subject) => `median ${Math.round(median(s.wall))} ms, fastest ${Math.round(Math.min(...s.wall))} ms wall; ${Math.round(median(s.cpu))} ms CPU`;
    const added = (s: Subject) => {
      const wall = median(s.wall.map((t, i) => t - bare.wall[i]!));
      const cpu = median(s.cpu.map((t, i) => t - bare.cpu[i]!));
      return `${Math.round(wall)} ms wall, ${Math.round(cpu)} ms CPU`;
    };
    const rows: Row[] = [
      [bare.label, figures(bare)],
      [compiled.label, figures(compiled), '≤ 150 ms'],
      ['  what it adds to Node (median of the per-round differences)', added(compiled)],
      ...(before ? [[before.label, figures(before)], ['  what it adds to Node (median of the per-round differences)', added(before)]] as Row[] : []),
      [viaTsx.label, figures(viaTsx)],
      [`freshness check (${check.files} stat calls, require of the module included)`, `median ${check.ms.toFixed(1)} ms, fastest ${check.fastest.toFixed(1)} ms wall`],
    ];
    const m = machine();
    printTable(`Start-up, ${runs} rounds of fresh processes, alternated (${m.cpu}, ${m.cores} cores, Node ${m.node}, load average ${load.map((l) => l.toFixed(1)).join(' → ')})`, rows);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
