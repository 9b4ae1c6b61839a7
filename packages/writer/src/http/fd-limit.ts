/**
 * The connection cap against the process's limit on open files. Every connection holds
 * one descriptor; the store's files, the dist/ writes, the worker threads (loading their
 * modules) and Pagefind need more. With the cap at 1,000 and a limit of 1,024 (a soft limit some hosts keep
 * for services; Node raises the soft limit to the hard one at start, so it is the hard
 * one that counts), a thousand clients left no descriptor to store a comment: honest
 * comments failed with EMFILE. The cap is lowered to leave `FD_RESERVE`, and the log
 * says so and how to raise the limit.
 */
import { readFileSync } from 'node:fs';

/**
 * Descriptors kept for everything but connections (files, threads, pipes). A writer at
 * rest holds ~45; starting a comment renderer's worker opens its whole module graph at
 * once, and the writer peaked at 287 while its heavy renderer started. With 256 kept, a
 * long comment at the cap was refused with 503 every time (EMFILE loading the renderer).
 */
export const FD_RESERVE = 512;

/** The soft limit on open files of this process (Linux: /proc/self/limits), or null where unknown. */
export function openFilesLimit(limitsText?: string): number | null {
  let text = limitsText;
  if (text === undefined) {
    try {
      text = readFileSync('/proc/self/limits', 'utf8');
    } catch {
      return null;
    }
  }
  const soft = /^Max open files\s+(\d+|unlimited)\s/m.exec(text)?.[1];
  if (soft === undefined || soft === 'unlimited') return null;
  return Number(soft);
}

/**
 * The connection cap to use: `maxConnections` (0: none), lowered to leave `FD_RESERVE`
 * descriptors under `limit`, with the warning to log when it was lowered.
 */
export function capForOpenFiles(maxConnections: number, limit: number | null): { maxConnections: number; warning?: string } {
  if (limit === null) return { maxConnections };
  const room = Math.max(1, limit - FD_RESERVE);
  if (maxConnections > 0 && maxConnections <= room) return { maxConnections };
  const asked = maxConnections > 0 ? `maxConnections ${maxConnections}` : 'no maxConnections';
  return {
    maxConnections: room,
    warning: `The process may open at most ${limit} files, too few for ${asked} plus the ${FD_RESERVE} the writer needs for its files and threads: connections are capped at ${room}. Raise the limit (\`ulimit -n 65536\`, systemd \`LimitNOFILE=65536\`, Docker \`--ulimit nofile=65536\`) to accept more.`,
  };
}
