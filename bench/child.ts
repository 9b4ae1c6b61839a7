/**
 * Run a bench script in a fresh Node process (`node --import tsx`), so its CPU time and
 * peak RSS are its own. The child prints one JSON line on stdout as its last line.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = join(BENCH_DIR, '..');

export interface ChildRun<T> {
  /** Spawn to exit, ms. */
  wallMs: number;
  code: number | null;
  json: T | null;
  stderr: string;
}

/** `benchDir`: run the script of another checkout's bench/ (e.g. a baseline), from that checkout's root. */
export function runChild<T>(script: string, args: string[], options: { execArgv?: string[]; env?: NodeJS.ProcessEnv; benchDir?: string } = {}): Promise<ChildRun<T>> {
  const started = performance.now();
  const benchDir = options.benchDir ?? BENCH_DIR;
  const child = spawn(process.execPath, [...(options.execArgv ?? []), '--import', 'tsx', '--conditions=agora-source', join(benchDir, script), ...args], {
    cwd: join(benchDir, '..'),
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      const wallMs = performance.now() - started;
      const last = stdout.trim().split('\n').pop() ?? '';
      let json: T | null = null;
      try {
        json = JSON.parse(last) as T;
      } catch {
        json = null;
      }
      resolve({ wallMs, code, json, stderr });
    });
  });
}

/** Flush dirty pages (`sync`) so one timed run does not pay for the write-back of the previous one. */
export function syncDisks(): void {
  spawnSync('sync', { stdio: 'ignore' });
}

/** Longest wait for an idle machine before a timed step (ms); `--quick` lowers it. */
export const quiet = { maxMs: Number(process.env.BENCH_QUIET_WAIT_MS ?? 180_000) };

/** How often the bench waited for other processes to leave the CPUs alone. */
export const contention = { checks: 0, waitedMs: 0, gaveUp: 0, lastBusy: 0 };

async function cpuTimes(): Promise<[busy: number, total: number] | null> {
  try {
    const line = (await readFile('/proc/stat', 'utf8')).split('\n')[0] ?? '';
    const v = line.trim().split(/\s+/).slice(1).map(Number);
    const total = v.reduce((a, b) => a + b, 0);
    return [total - (v[3] ?? 0) - (v[4] ?? 0), total];
  } catch {
    return null;
  }
}

/**
 * Wait until the machine is quiet (CPU busy below `threshold` over one second), at most
 * `maxMs`: other processes (a test run next door) would otherwise skew a timed run.
 */
export async function waitForQuiet(threshold = 0.15, maxMs = quiet.maxMs): Promise<void> {
  const started = performance.now();
  contention.checks++;
  for (;;) {
    const a = await cpuTimes();
    if (!a) return;
    await new Promise((r) => setTimeout(r, 1000));
    const b = await cpuTimes();
    if (!b) return;
    contention.lastBusy = (b[0] - a[0]) / Math.max(1, b[1] - a[1]);
    if (contention.lastBusy < threshold) break;
    if (performance.now() - started > maxMs) {
      contention.gaveUp++;
      console.error(`  ! machine still busy (${Math.round(contention.lastBusy * 100)}% CPU) after ${maxMs / 1000} s; measuring anyway`);
      break;
    }
  }
  contention.waitedMs += Math.max(0, performance.now() - started - 1000);
}

/**
 * Machine-wide CPU time during a measurement minus our own (the bench process plus the
 * child's reported CPU): what other processes took, as a share of all cores.
 */
export async function cpuWatch(): Promise<(childCpuMs: number) => Promise<number>> {
  const before = await cpuTimes();
  const ownBefore = process.cpuUsage();
  const started = performance.now();
  return async (childCpuMs) => {
    const after = await cpuTimes();
    if (!before || !after) return NaN;
    const hz = 100; // USER_HZ on Linux
    const busyMs = ((after[0] - before[0]) / hz) * 1000;
    const own = process.cpuUsage(ownBefore);
    const ownMs = (own.user + own.system) / 1000 + childCpuMs;
    const capacityMs = (performance.now() - started) * availableParallelism();
    return Math.max(0, Math.round(((busyMs - ownMs) / capacityMs) * 100));
  };
}

/**
 * Compile (`bin/compile.mjs`) unless the compiled output is current, so the bench's
 * writer runs the same code as `npm start` and as the CLI builds it follows (a writer
 * on the sources after a compiled build would see another code fingerprint and emit
 * every file once). Returns whether the compiled output is usable.
 */
export async function ensureCompiled(): Promise<boolean> {
  const { compiledState } = (await import(join(REPO_ROOT, 'bin', 'freshness.mjs'))) as { compiledState: (root: string) => { state: string } };
  if (compiledState(REPO_ROOT).state === 'current') return true;
  const run = spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'compile.mjs')], { cwd: REPO_ROOT, stdio: 'inherit' });
  return run.status === 0 && compiledState(REPO_ROOT).state === 'current';
}
