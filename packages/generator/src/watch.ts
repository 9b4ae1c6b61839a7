/**
 * `agora dev`: watch `content/` with chokidar and rebuild on change. Rebuilds are
 * single-flight and coalesced; each re-reads only the changed files, renders only
 * bodies that changed, emits only jobs whose inputs changed and writes only files
 * whose bytes changed — all in the memory of one `SiteBuild`.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { watch as chokidarWatch } from 'chokidar';
import type { AgoraConfig } from './config.ts';
import { build, type BuildResult, type PagesWritten, type SiteBuild } from './build.ts';
import { ContentError, type Message } from './messages.ts';

export interface WatchOptions {
  /** The state to update (e.g. the running server's); built first when absent. */
  state?: SiteBuild;
  onBuild?: (result: BuildResult, changed: string[]) => void | Promise<void>;
  /** The edited posts' own files are in `dist/` (the first half of a rebuild; the lists follow). */
  onPages?: (pages: PagesWritten, changed: string[]) => void;
  onError?: (error: unknown, messages: Message[]) => void;
  /** Quiet period before a rebuild starts (ms, default 50). */
  debounceMs?: number;
}

export interface Watcher {
  state: SiteBuild;
  close(): Promise<void>;
  /** Resolves when the current and any queued rebuild are done. */
  idle(): Promise<void>;
}

/** How content/ is watched: changes only (not the files there at the start), once a write has settled. */
const WATCH_OPTIONS = { ignoreInitial: true, awaitWriteFinish: { stabilityThreshold: 30, pollInterval: 10 } };

export async function watch(config: AgoraConfig, options: WatchOptions = {}): Promise<Watcher> {
  const state = options.state ?? (await build(config, { longLived: true })).state;
  state.prepareEdits();
  const changed = new Set<string>();
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;

  const run = async (): Promise<void> => {
    const batch = [...changed];
    changed.clear();
    try {
      await options.onBuild?.(await state.updateSources(batch, (pages) => options.onPages?.(pages, batch)), batch);
    } catch (error) {
      options.onError?.(error, error instanceof ContentError ? error.messages : []);
    }
  };
  const schedule = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      if (running) return void running.then(schedule);
      running = run().finally(() => {
        running = null;
        if (changed.size > 0) schedule();
      });
    }, options.debounceMs ?? 50);
  };

  const watcher = chokidarWatch(config.contentDir, WATCH_OPTIONS);
  watcher.on('all', (_event, path) => {
    changed.add(path);
    schedule();
  });
  await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  return {
    state,
    close: async () => {
      if (timer) clearTimeout(timer);
      await watcher.close();
      await running;
    },
    idle: async () => {
      while (timer || running) await (running ?? new Promise((r) => setTimeout(r, 20)));
    },
  };
}

/**
 * Resolves at the next change under `content/` (after `debounceMs` of quiet), or at once
 * when a file there changed after `sinceMs` (`Date.now()` before the content was read:
 * an edit made before the watcher was ready is not missed). `agora dev` started on
 * content with errors waits for a fix this way, then starts.
 */
export async function nextContentChange(config: AgoraConfig, sinceMs = Date.now(), debounceMs = 100): Promise<void> {
  const watcher = chokidarWatch(config.contentDir, WATCH_OPTIONS);
  try {
    await new Promise<void>((resolve) => {
      let timer: NodeJS.Timeout | null = null;
      const soon = () => {
        if (timer) clearTimeout(timer);
        timer = setTimeout(resolve, debounceMs);
      };
      watcher.on('all', soon);
      watcher.once('ready', () => void changedSince(config.contentDir, sinceMs).then((changed) => changed && soon()));
    });
  } finally {
    await watcher.close();
  }
}

/** Whether a file below `dir` was modified after `sinceMs`. */
async function changedSince(dir: string, sinceMs: number): Promise<boolean> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  for (const e of entries) {
    if (!e.isFile()) continue;
    const { mtimeMs } = await stat(join(e.parentPath, e.name)).catch(() => ({ mtimeMs: 0 }));
    if (mtimeMs > sinceMs) return true;
  }
  return false;
}
