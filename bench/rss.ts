/**
 * Memory of another process from /proc/<pid>/status (Linux): VmRSS now and VmHWM, the
 * peak since it started. A sampler keeps the largest VmRSS seen in a window (a load
 * phase), which VmHWM cannot give once start-up has set the lifetime peak.
 */
import { readFile } from 'node:fs/promises';

export interface ProcMemory {
  rssMB: number;
  hwmMB: number;
}

/** Null when the process is gone or /proc is not there. */
export async function procMemory(pid: number): Promise<ProcMemory | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kB = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    const rss = kB('VmRSS');
    const hwm = kB('VmHWM');
    // A zombie (exited, not yet reaped) has a status without memory lines.
    return Number.isNaN(rss) || Number.isNaN(hwm) ? null : { rssMB: rss / 1024, hwmMB: hwm / 1024 };
  } catch {
    return null;
  }
}

export interface RssWindow {
  /** Largest VmRSS sampled in the window, MB. */
  maxRssMB: number;
  /** VmHWM at the last successful sample (lifetime peak), MB. */
  hwmMB: number;
  samples: number;
}

/** Sample every `everyMs` until the returned stop function is called (or the process exits). */
export function sampleRss(pid: number, everyMs = 100): () => Promise<RssWindow> {
  const window: RssWindow = { maxRssMB: 0, hwmMB: 0, samples: 0 };
  let stopped = false;
  const tick = async (): Promise<void> => {
    const m = await procMemory(pid);
    if (m) {
      window.maxRssMB = Math.max(window.maxRssMB, m.rssMB);
      window.hwmMB = Math.max(window.hwmMB, m.hwmMB);
      window.samples++;
    }
  };
  const loop = (async () => {
    while (!stopped) {
      await tick();
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return async () => {
    stopped = true;
    await loop;
    await tick();
    return { ...window, maxRssMB: Math.round(window.maxRssMB), hwmMB: Math.round(window.hwmMB) };
  };
}
