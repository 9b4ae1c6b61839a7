/**
 * One process writes a site's `dist/` at a time. A writer holds `.dist.lock` (beside
 * `dist/`, named after it) for its whole life; `agora build` and the moderation and
 * import commands' own rebuild hold it for their run. A build beside a running writer
 * wrote pages from its own, older reading of the comments over the writer's newer
 * ones, and the writer, trusting what it had written, never wrote them again: comments
 * answered 201 vanished from their pages (and `--force` emptied `dist/` under it). Now
 * the build refuses, naming the writer, and a writer that starts during a build waits
 * for it. The lock is the operating system's (`os-lock.ts`): a killed holder leaves none.
 */
import { basename, dirname, join } from 'node:path';
import { mkdir } from 'node:fs/promises';
import { claimExclusive, readHolder, type HeldLock } from '../store/embedded/os-lock.ts';

/** The lock file of a `dist/` folder: `<parent>/.<name>.lock`. */
export function distLockPath(distDir: string): string {
  return join(dirname(distDir), `.${basename(distDir)}.lock`);
}

/** Another process writes `dist/`: its pid (when it wrote one). */
export class DistBusyError extends Error {
  constructor(
    readonly distDir: string,
    readonly pid: number | null,
  ) {
    super(`\`${distDir}\` is being written by another agora process${pid !== null ? ` (pid ${pid})` : ''}`);
    this.name = 'DistBusyError';
  }
}

/** Take `dist/` for this process, or throw `DistBusyError` when another holds it. */
export async function claimDist(distDir: string): Promise<HeldLock> {
  const path = distLockPath(distDir);
  await mkdir(dirname(path), { recursive: true });
  try {
    // Named as what must be writable: the lock file beside dist/, not dist/ itself (a
    // sandbox that allows only dist/, as systemd's ReadWritePaths may, refuses it).
    return await claimExclusive(path, `the lock file of \`${distDir}\` (beside it; under systemd's ProtectSystem list it in ReadWritePaths)`);
  } catch (error) {
    if ((error as { code?: string }).code !== 'locked') throw error;
    throw new DistBusyError(distDir, (await readHolder(path)).pid);
  }
}

/**
 * The writer that holds `dist/` and recorded where it listens (after its pid), or null
 * when nobody holds it or the holder recorded no address (`agora build`, a command's
 * rebuild: they end soon). `agora mcp` passes its requests to that writer.
 */
export async function distWriter(distDir: string): Promise<{ pid: number | null; url: string } | null> {
  try {
    await (await claimDist(distDir)).release();
    return null;
  } catch (error) {
    if (!(error instanceof DistBusyError)) throw error;
    const { pid, url } = await readHolder(distLockPath(distDir));
    return url ? { pid, url } : null;
  }
}

/**
 * Wait (every `pollMs`) while another process writes `dist/` (an `agora build`
 * finishing), telling `onWait` once who holds it; after `timeoutMs` throw its `DistBusyError`.
 */
export async function waitForDist(distDir: string, onWait: (busy: DistBusyError) => void, options: { pollMs?: number; timeoutMs?: number } = {}): Promise<HeldLock> {
  const deadline = Date.now() + (options.timeoutMs ?? Infinity);
  for (let told = false; ; told = true) {
    try {
      return await claimDist(distDir);
    } catch (error) {
      if (!(error instanceof DistBusyError) || Date.now() >= deadline) throw error;
      if (!told) onWait(error);
      await new Promise((r) => setTimeout(r, options.pollMs ?? 500));
    }
  }
}

/**
 * Run `fn` holding `dist/` (a command's own build), or refuse while a writer holds it:
 * it publishes comments and views itself, and keeps its pages from its own reading of them.
 */
export async function withDist<T>(distDir: string, fn: () => Promise<T>): Promise<T> {
  let held: HeldLock;
  try {
    held = await claimDist(distDir);
  } catch (error) {
    if (!(error instanceof DistBusyError)) throw error;
    throw new Error(
      `Cannot build: ${error.message}, most likely a running writer (\`agora start\`, \`serve\` or \`dev\`), which keeps dist/ current itself; a build beside it would write pages from an older reading of the comments. \`agora dev\` rebuilds on every edit by itself; to publish edited posts under \`agora start\`, restart it (its start rebuilds what changed), or stop it and build.`,
      { cause: error },
    );
  }
  try {
    return await fn();
  } finally {
    await held.release();
  }
}
