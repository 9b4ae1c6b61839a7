/**
 * Peak memory of the Pagefind processes a build or `agora dev` starts (Linux /proc): every
 * `pagefind` or `pagefind_extended` process that descends from `root` is sampled every
 * `everyMs`; the largest VmHWM (its lifetime peak) of any one of them is the figure, as
 * the target of issue 21 is per process.
 */
import { readdir, readFile } from 'node:fs/promises';
import { procMemory } from './rss.ts';

async function children(pid: number): Promise<number[]> {
  const tasks = await readdir(`/proc/${pid}/task`).catch(() => [] as string[]);
  const lists = await Promise.all(tasks.map((t) => readFile(`/proc/${pid}/task/${t}/children`, 'utf8').catch(() => '')));
  return lists.flatMap((l) => l.split(/\s+/).filter(Boolean).map(Number));
}

async function pagefindProcesses(root: number): Promise<number[]> {
  const found: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    for (const child of await children(pid)) {
      const comm = (await readFile(`/proc/${child}/comm`, 'utf8').catch(() => '')).trim();
      if (comm.startsWith('pagefind')) found.push(child);
      queue.push(child);
    }
  }
  return found;
}

export interface PagefindPeak {
  /** Largest lifetime peak RSS of one Pagefind process, MB (0 when none ran). */
  peakMB: number;
  /** Pagefind processes seen. */
  processes: number;
}

/** Sample until the returned function is called. */
export function samplePagefind(root: number = process.pid, everyMs = 50): () => Promise<PagefindPeak> {
  const peak: PagefindPeak = { peakMB: 0, processes: 0 };
  const seen = new Set<number>();
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      for (const pid of await pagefindProcesses(root)) {
        seen.add(pid);
        const m = await procMemory(pid);
        if (m) peak.peakMB = Math.max(peak.peakMB, m.hwmMB);
      }
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return async () => {
    stopped = true;
    await loop;
    peak.processes = seen.size;
    return { peakMB: Math.round(peak.peakMB), processes: peak.processes };
  };
}
