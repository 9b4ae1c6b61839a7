/**
 * A server in its own process, so its RSS is its own and the load generator runs on
 * the other core: `server-child.ts agora <root> [port]` (the real `startServer`) or
 * `server-child.ts express` (a bare Express 5 route that only increments a Map), or
 * `server-child.ts floor <root>` (the least work a comment's 201 needs, comment-floor-server.ts).
 * Talks over IPC: sends `ready`, answers `usage` (and `usage-after-gc`, run with
 * --expose-gc), and `close` stops it.
 */
import type { AddressInfo } from 'node:net';
import { Session } from 'node:inspector/promises';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { writeFile } from 'node:fs/promises';
import express from 'express';
import { pino } from 'pino';
import { limitHeapGrowth, loadConfig, WRITER_HEAP_GROWING_PERCENT } from '@agora/generator';
import { startServer } from '@agora/writer';
import { startCommentFloor } from './comment-floor-server.ts';

export interface ServerUsage {
  rssMB: number;
  heapUsedMB: number;
  /** What V8 holds for the main thread's heap (used or not) and outside it (buffers). */
  heapTotalMB: number;
  externalMB: number;
  maxRssMB: number;
  userMs: number;
  sysMs: number;
  /**
   * The main thread since the process started, cumulative (ms): time its event loop was
   * busy (not waiting for events), time it ran on a core, and time it was ready to run
   * but waited for one (Linux `schedstat`; NaN elsewhere). Differences between two
   * readings tell whether the main thread is the bottleneck of a load.
   */
  mainThread: { loopBusyMs: number; onCpuMs: number; runQueueMs: number };
}
export type ServerMessage =
  | ({ type: 'ready'; url: string; startMs: number; listenMs: number } & ServerUsage)
  | ({ type: 'usage' } & ServerUsage)
  | ({ type: 'closed'; closeMs: number } & ServerUsage)
  | { type: 'failed'; error: string };

const send = (m: ServerMessage) => process.send?.(m);
const mb = (bytes: number) => bytes / 1024 / 1024;

/** The main thread's time on a core and waiting for one, from `/proc/self/task/<pid>/schedstat` (ns). */
function schedstat(): { onCpuMs: number; runQueueMs: number } {
  try {
    const [onCpu, waiting] = readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ').map(Number);
    return { onCpuMs: (onCpu ?? NaN) / 1e6, runQueueMs: (waiting ?? NaN) / 1e6 };
  } catch {
    return { onCpuMs: NaN, runQueueMs: NaN };
  }
}

function usage(): ServerUsage {
  const ru = process.resourceUsage();
  const mem = process.memoryUsage();
  const mainThread = { loopBusyMs: performance.eventLoopUtilization().active, ...schedstat() };
  return { rssMB: mb(mem.rss), heapUsedMB: mb(mem.heapUsed), heapTotalMB: mb(mem.heapTotal), externalMB: mb(mem.external), maxRssMB: ru.maxRSS / 1024, userMs: ru.userCPUTime / 1000, sysMs: ru.systemCPUTime / 1000, mainThread };
}

async function startExpress(): Promise<{ url: string; close: () => Promise<void> }> {
  const app = express();
  const counts = new Map<string, number>();
  app.put('/api/views/:slug', (req, res) => {
    const n = (counts.get(req.params.slug) ?? 0) + 1;
    counts.set(req.params.slug, n);
    res.json({ views: n });
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((r) => { server.close(() => r()); server.closeAllConnections(); }) };
}

/**
 * The product sees only the settings the bench passed (`BENCH_SERVER_ENV`, JSON), never
 * the shell's: `AGORA_STORE=postgres` + `DATABASE_URL` select the engine, and nothing
 * else leaks in.
 */
/** When the writer's port was open (it listens before its start-up build), ms after the process started (module loading included). */
let listenMs = NaN;

async function startAgora(root: string, port: number, env: Record<string, string>): Promise<{ url: string; close: () => Promise<void> }> {
  // As `agora start` does (heap-growth.ts); the bench's settings decide, not the shell's.
  limitHeapGrowth(env, WRITER_HEAP_GROWING_PERCENT);
  const config = loadConfig({ root, env, overrides: { port, host: '127.0.0.1', site: { baseUrl: 'https://agora.example' } } });
  const running = await startServer({ config, env, logger: pino({ level: process.env.BENCH_SERVER_LOG ?? 'silent' }), handleSignals: false, onListening: () => (listenMs = performance.now()) });
  return { url: running.url, close: () => { running.server.closeAllConnections(); return running.close(); } };
}

/** Profile the main thread with the inspector (unlike `--cpu-prof`, it can start after the start-up). */
async function startProfile(): Promise<{ stop: (file: string) => Promise<void> }> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return {
    async stop(file) {
      const { profile } = await session.post('Profiler.stop');
      await writeFile(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
}

/**
 * Sample what the main thread allocates, garbage included (the inspector's sampling heap
 * profiler; `--heap-prof` keeps only what is still live at the end): where the
 * collector's work comes from.
 */
async function startAllocationSampling(): Promise<{ stop: (file: string) => Promise<void> }> {
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.startSampling', { samplingInterval: 32 * 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  return {
    async stop(file) {
      const { profile } = await session.post('HeapProfiler.stopSampling');
      await writeFile(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
}

const [mode, root, port] = process.argv.slice(2);
try {
  const env = JSON.parse(process.env.BENCH_SERVER_ENV ?? '{}') as Record<string, string>;
  const server = mode === 'express' ? await startExpress() : mode === 'floor' ? await startCommentFloor(root ?? '.') : await startAgora(root ?? '.', Number(port ?? 0), env);
  // Since the process started (performance.now() counts from it): module loading included, as `npm start` pays it.
  const startMs = performance.now();
  send({ type: 'ready', url: server.url, startMs, listenMs: Number.isNaN(listenMs) ? startMs : listenMs, ...usage() });
  // `BENCH_PROFILE_FILE`: a CPU profile of the main thread from here (caught up) to `close`.
  const profile = process.env.BENCH_PROFILE_FILE ? await startProfile() : null;
  // `BENCH_ALLOC_FILE`: a sampled allocation profile of the main thread, the same stretch.
  const allocations = process.env.BENCH_ALLOC_FILE ? await startAllocationSampling() : null;
  process.on('message', (m: { type: string }) => {
    if (m.type === 'usage') send({ type: 'usage', ...usage() });
    if (m.type === 'usage-after-gc') {
      (globalThis as { gc?: () => void }).gc?.();
      send({ type: 'usage', ...usage() });
    }
    if (m.type === 'close') {
      const t = performance.now();
      void Promise.all([profile?.stop(process.env.BENCH_PROFILE_FILE!), allocations?.stop(process.env.BENCH_ALLOC_FILE!)]).then(() => server.close()).then(() => {
        send({ type: 'closed', closeMs: performance.now() - t, ...usage() });
        process.disconnect();
      });
    }
  });
} catch (error) {
  send({ type: 'failed', error: (error as Error).stack ?? String(error) });
  process.exitCode = 1;
  process.disconnect();
}
