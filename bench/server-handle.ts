/** Parent side of `server-child.ts`: start it, ask for its memory, close it. */
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { BENCH_DIR, ensureCompiled, REPO_ROOT } from './child.ts';
import type { ServerMessage, ServerUsage } from './server-child.ts';

export interface ServerHandle {
  url: string;
  /** For /proc/<pid>/status (see rss.ts). */
  pid: number;
  /** Until the writer had caught up (its start-up build done). */
  startMs: number;
  /** Until its port was open (serving the existing dist/, health `starting`). */
  listenMs: number;
  atStart: ServerUsage;
  /** Memory now; with `afterGc`, after a full garbage collection (steady state). */
  usage(afterGc?: boolean): Promise<ServerUsage>;
  close(): Promise<ServerUsage & { closeMs: number }>;
}

function next<T extends ServerMessage['type']>(child: ChildProcess, type: T): Promise<Extract<ServerMessage, { type: T }>> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: ServerMessage) => {
      if (m.type === 'failed') return done(() => reject(new Error(`server failed: ${m.error}`)));
      if (m.type === type) done(() => resolve(m as Extract<ServerMessage, { type: T }>));
    };
    const onExit = (code: number | null) => done(() => reject(new Error(`server exited with ${code} before \`${type}\``)));
    const done = (fn: () => void) => {
      child.off('message', onMessage);
      child.off('exit', onExit);
      fn();
    };
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

export interface ServerChildOptions {
  /** Settings for the product (e.g. `AGORA_STORE`, `DATABASE_URL`); the shell's are never passed. */
  env?: Record<string, string>;
  /** Port to listen on (0: any free one). Writer nodes of one PostgreSQL store each take their own. */
  port?: number;
  /** Extra Node flags, e.g. `--cpu-prof` to profile the server. */
  execArgv?: string[];
  /**
   * Run the product compiled, as `npm start` does (default; compiled first when stale,
   * `ensureCompiled`), or from its TypeScript sources through tsx (`false`).
   */
  compiled?: boolean;
}

/**
 * What `npm start` (package.json) sets for the writer's process, unless the shell set it:
 * glibc's fixed mmap threshold (README, "Deployment"). The writer is measured as it runs;
 * `BENCH_MALLOC=default` leaves glibc's own (dynamic) threshold, to compare.
 */
export const NPM_START_ENV = { MALLOC_MMAP_THRESHOLD_: '65536' };

export async function startServerChild(mode: 'agora' | 'express' | 'floor', root = '', options: ServerChildOptions = {}): Promise<ServerHandle> {
  // tsx runs the bench's own server-child.ts either way; the condition picks the product's sources or its compiled lib/.
  const compiled = options.compiled !== false && (await ensureCompiled());
  const child = fork(join(BENCH_DIR, 'server-child.ts'), [mode, root, String(options.port ?? 0)], {
    cwd: REPO_ROOT,
    env: { ...(mode === 'agora' && process.env.BENCH_MALLOC !== 'default' ? NPM_START_ENV : {}), ...process.env, BENCH_SERVER_ENV: JSON.stringify(options.env ?? {}) },
    execArgv: ['--expose-gc', ...(options.execArgv ?? []), '--import', 'tsx', ...(compiled ? [] : ['--conditions=agora-source'])],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await next(child, 'ready');
  const { type: _t, url, startMs, listenMs, ...atStart } = ready;
  return {
    url,
    pid: child.pid ?? -1,
    startMs,
    listenMs,
    atStart,
    async usage(afterGc = false) {
      const reply = next(child, 'usage');
      child.send({ type: afterGc ? 'usage-after-gc' : 'usage' });
      const { type: _u, ...u } = await reply;
      return u;
    },
    async close() {
      const reply = next(child, 'closed');
      child.send({ type: 'close' });
      const { type: _c, ...u } = await reply;
      await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r(null)));
      return u;
    },
  };
}
