/** Parent side of `server-child.ts`: start it, ask for its memory, close it. */
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { BENCH_DIR, REPO_ROOT } from './child.ts';
import type { ServerMessage, ServerUsage } from './server-child.ts';

export interface ServerHandle {
  url: string;
  startMs: number;
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

export async function startServerChild(mode: 'agora' | 'express', root = ''): Promise<ServerHandle> {
  const child = fork(join(BENCH_DIR, 'server-child.ts'), [mode, root], {
    cwd: REPO_ROOT,
    execArgv: ['--expose-gc', '--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await next(child, 'ready');
  const { type: _t, url, startMs, ...atStart } = ready;
  return {
    url,
    startMs,
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
