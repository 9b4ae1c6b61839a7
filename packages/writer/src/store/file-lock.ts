/**
 * A lock file shared by the server and the `agora comments` commands, so a moderator
 * and the writer never overwrite each other's changes to `comments.json`. The lock is
 * `<file>.lock`, created exclusively and holding the owner's pid; a lock whose owner
 * is gone is taken over.
 */
import { open, readFile, rm } from 'node:fs/promises';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function acquire(lockPath: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let delay = 2; ; delay = Math.min(delay * 2, 50)) {
    try {
      const handle = await open(lockPath, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = Number(await readFile(lockPath, 'utf8').catch(() => ''));
    if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && !isAlive(owner)) {
      await rm(lockPath, { force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`Cannot lock \`${lockPath}\`: held by pid ${owner || 'unknown'}; if no agora process runs, delete the file`);
    await new Promise((r) => setTimeout(r, delay));
  }
}

/** Run `fn` while holding the lock of `path`. */
export async function withFileLock<T>(path: string, fn: () => Promise<T>, timeoutMs = 10_000): Promise<T> {
  const lockPath = `${path}.lock`;
  await acquire(lockPath, timeoutMs);
  try {
    return await fn();
  } finally {
    await rm(lockPath, { force: true });
  }
}
