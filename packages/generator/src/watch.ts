/**
 * `agora dev`: watch `content/` with chokidar and rebuild on change. Rebuilds are
 * single-flight and coalesced; each re-reads only the changed files, renders only
 * bodies that changed, emits only jobs whose inputs changed and writes only files
 * whose bytes changed — all in the memory of one `SiteBuild`.
 */
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { watch as chokidarWatch, type ChokidarOptions, type FSWatcher } from 'chokidar';
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
  /** Quiet period before a rebuild starts (ms, default `DEBOUNCE_MS`). */
  debounceMs?: number;
  /** A problem of the watching itself, not of the content (default: `console.warn`). */
  onWarning?: (message: string) => void;
  /**
   * `Date.now()` before `state` read the content: files modified after it are rebuilt
   * once the watcher is ready (an edit saved during the start, or just after `agora dev`
   * said it serves, came before the watcher and was never built).
   */
  since?: number;
}

export interface Watcher {
  state: SiteBuild;
  close(): Promise<void>;
  /** Resolves when the current and any queued rebuild are done. */
  idle(): Promise<void>;
}

/**
 * How content/ is watched: changes only (not the files there at the start). No waiting
 * for a write to settle (chokidar's `awaitWriteFinish` polls until the size has held for
 * its threshold): with it and a 50 ms quiet period, a save took ~90 ms before the rebuild
 * even began, against a target of 100 ms from save to page. Editors replace a file by
 * rename or write it in one go; a save that comes in pieces (truncate, then write) lands
 * within the quiet period below, or waits while its file is empty (`EMPTY_WAITS`).
 *
 * Unlinks as they happen (`atomic: false`): chokidar's default holds each unlink back
 * 100 ms (to report a delete-and-recreate as one change), while the add of a renamed
 * file's new name comes at once, so the rebuild after the quiet period saw both names: a
 * post moved to another folder was a duplicate slug (an error shown in every open page),
 * a renamed one was published twice, until a second rebuild. A rebuild reads what is on
 * disk, so an unlink and an add of one path in one batch are a change. Editors' swap and
 * backup files, which the atomic mode also left out, stay left out (`EDITOR_TEMP`).
 */
const EDITOR_TEMP = /\..*\.(sw[px])$|~$|\.subl.*\.tmp/;
const WATCH_OPTIONS = { ignoreInitial: true, atomic: false, ignored: (path: string) => EDITOR_TEMP.test(path) };
/** Quiet period after a change before the rebuild: the events of one save (or a save-all) make one rebuild. */
const DEBOUNCE_MS = 15;
/**
 * How many more quiet periods a batch waits while one of its files is empty. A save in
 * place truncates, then writes: on a busy machine the two came more than the quiet period
 * apart, and the empty file was built: the page flashed a front-matter error, then
 * reloaded twice. A file left empty on purpose is reported ~half a second later (33
 * periods: 10 left ~150 ms, and a loaded machine can fire a timer ~100 ms late).
 */
const EMPTY_WAITS = 33;
/** How often content/ is checked when the system cannot watch it (ms). */
const POLL_MS = 100;
/** Where a problem of the watching goes unless the caller takes it. */
const warnOnConsole = (message: string) => console.warn(`agora dev: ${message}`);

/**
 * Watch `dir`, calling `onChange` with each path that changed; resolves once watching.
 * When the system's limits on file watches are reached (`EMFILE`: inotify instances,
 * `ENOSPC`: inotify watches, both per user on Linux) chokidar cannot watch, and the
 * process died of an unhandled error event with a bare stack: then `dir` is polled
 * instead, and `warn` says so and how to raise the limit. Any other watch error is
 * said and the watching goes on. When `dir` itself is removed (a folder moved away and
 * back, a restore from a backup), the watch went with it and later edits were never
 * seen: `dir` is then looked for every `POLL_MS` and watched again once it is back,
 * which counts as a change of `dir`.
 */
export async function watchContent(dir: string, onChange: (path: string) => void, warn: (message: string) => void, open: (dir: string, options: ChokidarOptions) => FSWatcher = chokidarWatch): Promise<{ close(): Promise<void> }> {
  let current: FSWatcher;
  let polling = false;
  let closed = false;
  let awaitingReturn = false;
  const comeBack = async () => {
    if (awaitingReturn) return;
    awaitingReturn = true;
    warn(`${dir} was removed: the site has no content until it is back; watching for it`);
    // Closed after chokidar has handled the removal: closed from within its event, it left its own watches open.
    await new Promise((r) => setTimeout(r, POLL_MS));
    await current.close();
    while (!closed && !(await stat(dir).then((s) => s.isDirectory(), () => false))) await new Promise((r) => setTimeout(r, POLL_MS));
    awaitingReturn = false;
    if (closed) return;
    current = start(polling);
    // Once watching: every file there is a change (the folder alone rebuilt nothing: its
    // posts were gone from the site since the removal), edits made meanwhile too.
    await new Promise<void>((r) => current.once('ready', () => r()));
    if (closed) return;
    const files = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
    for (const entry of files) if (entry.isFile()) onChange(join(entry.parentPath, entry.name));
    onChange(dir);
  };
  let ready: () => void;
  const watching = new Promise<void>((resolve) => (ready = resolve));
  const start = (poll: boolean): FSWatcher => {
    const watcher = open(dir, poll ? { ...WATCH_OPTIONS, usePolling: true, interval: POLL_MS, binaryInterval: POLL_MS } : WATCH_OPTIONS);
    watcher.on('all', (event, path) => {
      onChange(path);
      if (event === 'unlinkDir' && watcher === current && resolve(path) === resolve(dir)) void comeBack();
    });
    watcher.once('ready', () => watcher === current && ready());
    watcher.on('error', (error: unknown) => {
      if (watcher !== current) return;
      const code = (error as NodeJS.ErrnoException)?.code;
      if (!polling && (code === 'EMFILE' || code === 'ENOSPC')) {
        polling = true;
        warn(`Cannot watch ${dir} for edits: the system's limit on file watches is reached (${code}: ${code === 'EMFILE' ? 'fs.inotify.max_user_instances' : 'fs.inotify.max_user_watches'} on Linux). Checking it every ${POLL_MS} ms instead; raise the limit (e.g. \`sysctl ${code === 'EMFILE' ? 'fs.inotify.max_user_instances=512' : 'fs.inotify.max_user_watches=524288'}\`) and restart for instant reloads.`);
        void watcher.close();
        current = start(true);
        return;
      }
      warn(`Watching ${dir} for edits: ${(error as Error)?.message ?? String(error)}`);
    });
    return watcher;
  };
  current = start(false);
  await watching;
  return {
    close: () => {
      closed = true;
      return current.close();
    },
  };
}

/** Whether any of `paths` is an empty file now (one deleted or unreadable is not). */
async function someEmpty(paths: readonly string[]): Promise<boolean> {
  const sizes = await Promise.all(paths.map((path) => stat(path).then((s) => (s.isFile() ? s.size : -1), () => -1)));
  return sizes.includes(0);
}

export async function watch(config: AgoraConfig, options: WatchOptions = {}): Promise<Watcher> {
  const state = options.state ?? (await build(config, { longLived: true })).state;
  state.prepareEdits();
  const changed = new Set<string>();
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let emptyWaits = 0;

  const run = async (): Promise<void> => {
    const batch = [...changed];
    changed.clear();
    if (emptyWaits < EMPTY_WAITS && (await someEmpty(batch))) {
      // Most likely a save under way: the batch waits one more quiet period (`schedule` after this run).
      emptyWaits++;
      for (const path of batch) changed.add(path);
      return;
    }
    emptyWaits = 0;
    try {
      // Not inside `onBuild?.(…)`: an optional call skips its arguments when there is no
      // `onBuild`, and a watcher without one never rebuilt.
      const result = await state.updateSources(batch, (pages) => options.onPages?.(pages, batch));
      await options.onBuild?.(result, batch);
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
    }, options.debounceMs ?? DEBOUNCE_MS);
  };

  const watcher = await watchContent(config.contentDir, (path) => {
    changed.add(path);
    schedule();
  }, options.onWarning ?? warnOnConsole);
  if (options.since !== undefined) {
    for (const path of await filesChangedSince(config.contentDir, options.since)) changed.add(path);
    if (changed.size > 0) schedule();
  }
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
  let resolveChange: () => void;
  const change = new Promise<void>((resolve) => (resolveChange = resolve));
  let timer: NodeJS.Timeout | null = null;
  const soon = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(resolveChange, debounceMs);
  };
  const watcher = await watchContent(config.contentDir, soon, warnOnConsole);
  try {
    if (await changedSince(config.contentDir, sinceMs)) soon();
    await change;
  } finally {
    await watcher.close();
  }
}

/** Whether a file below `dir` was modified after `sinceMs`. */
async function changedSince(dir: string, sinceMs: number): Promise<boolean> {
  return (await filesChangedSince(dir, sinceMs, 1)).length > 0;
}

/** The files below `dir` modified after `sinceMs` (at most `most`). */
async function filesChangedSince(dir: string, sinceMs: number, most = Infinity): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  const found: string[] = [];
  for (const e of entries) {
    if (!e.isFile()) continue;
    const path = join(e.parentPath, e.name);
    const { mtimeMs } = await stat(path).catch(() => ({ mtimeMs: 0 }));
    if (mtimeMs > sinceMs) found.push(path);
    if (found.length >= most) break;
  }
  return found;
}
