/**
 * Pagefind's Node API, loaded on demand, with one repair: its service (a child process
 * speaking over stdin/stdout) answers pending calls only when a pipe errors, not when
 * the process exits. When the binary panics (a full disk: "No space left on device"),
 * `writeFiles` never settled: the index stayed "indexing" forever and its temporary
 * folder stayed in `dist/`. So the first call of each service also watches its process,
 * and its exit ends every call under way with an error (`service.close`, its own way).
 * The library's `exports` hide `lib/service.js`, so it is loaded by file path; if its
 * shape ever changes, the repair is skipped (a later Pagefind may fix it itself).
 */
import type { ChildProcess } from 'node:child_process';

type PagefindApi = typeof import('pagefind');

interface ServiceShape {
  backend: ChildProcess | null;
  close(err?: Error | null): void;
  sendMessage(...args: unknown[]): unknown;
}

let loading: Promise<PagefindApi> | null = null;

/** The Pagefind API, its service repaired (see the module comment). */
export function loadPagefind(): Promise<PagefindApi> {
  return (loading ??= (async () => {
    const api = await import('pagefind');
    await watchServiceExits().catch(() => {});
    return api;
  })());
}

async function watchServiceExits(): Promise<void> {
  // `lib/index.js`, the one entry `exports` allows; the service is its neighbour.
  const url = new URL('service.js', import.meta.resolve('pagefind')).href;
  const { PagefindService } = (await import(url)) as { PagefindService?: { prototype: ServiceShape } };
  const proto = PagefindService?.prototype;
  if (!proto || typeof proto.sendMessage !== 'function' || typeof proto.close !== 'function') return;
  const send = proto.sendMessage;
  const watched = new WeakSet<ChildProcess>();
  proto.sendMessage = function (this: ServiceShape, ...args: unknown[]) {
    const child = this.backend;
    if (child && !watched.has(child)) {
      watched.add(child);
      child.once('exit', (code, signal) => {
        if (this.backend === child) this.close(new Error(`Pagefind's process exited (${signal ?? `code ${code}`})`));
      });
    }
    return send.apply(this, args);
  };
}
