/**
 * The search index kept up to date beside the build (issue 21, item 3). A one-off build
 * indexes before it returns; in a long-lived process (`agora dev`) an edit never waits
 * for Pagefind: the pages it changed are noted, and the shards holding them are
 * re-indexed in the background, one run at a time, coalescing every edit made
 * meanwhile. `status` says how stale the index is (the dev log, `/api/health`).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CATEGORIES } from '../types.ts';
import type { Message } from '../messages.ts';
import { postDir } from '../paths.ts';
import type { SiteModel } from '../types.ts';
import { readSearchShards, shardCount, shardOf, writeSearchIndex, type SearchIndexResult } from '../emit/search-index.ts';

/** How stale the static search index is. */
export interface SearchIndexStatus {
  /** `off` (searchIndex false), `current`, `stale` (changes wait), `indexing`, `failed` (the last run failed; retried on the next change). */
  state: 'off' | 'current' | 'stale' | 'indexing' | 'failed';
  /** Post pages changed since the index last caught up, those a run is indexing now included (0 when current). */
  pendingPages: number;
  /** When the oldest change not yet in the index was built (ISO; a run under way has not put it there yet), null when current. */
  staleSince: string | null;
  /** Milliseconds since then (0 when current). */
  staleMs: number;
  /** The last run that finished: when, and what it did. */
  lastIndexedAt: string | null;
  last: SearchIndexResult | null;
  /** How far behind the site the last finished run caught up from: ms from the oldest change it took to its end. */
  lastLagMs: number | null;
  error?: string;
}

export interface SearchIndexerOptions {
  /** Quiet period before a background run starts, so a burst of edits makes one run (ms, default 300). */
  delayMs?: number;
  /** Most post pages per shard (`config.searchShardPages`). */
  shardPages?: number;
}

/** A background run finished (`result` null when there was nothing to do) or failed (`error`). */
export type SearchIndexListener = (result: SearchIndexResult | null, status: SearchIndexStatus, error?: unknown) => void;

const POST_PAGE = new RegExp(`^(${CATEGORIES.join('|')})/[^/]+/index\\.html$`);

/** The post pages of a site, as paths in `dist/`. */
export function postPages(site: SiteModel): string[] {
  return site.posts.map((p) => `${postDir(p.category, p.slug)}/index.html`);
}

export class SearchIndexer {
  private pages: string[] = [];
  private readonly dirty = new Set<string>();
  private all = false;
  private staleSince: number | null = null;
  private running: Promise<void> | null = null;
  /** What the run under way took: until it ends, its pages are still behind, since its oldest change. */
  private inRun: { since: number; pages: ReadonlySet<string> | 'all' } | null = null;
  private timer: NodeJS.Timeout | null = null;
  private lastIndexedAt: number | null = null;
  private last: SearchIndexResult | null = null;
  private lastLagMs: number | null = null;
  private error: string | undefined;
  /** Runs failed in a row (the next background run waits longer). */
  private failures = 0;
  private readonly abort = new AbortController();
  /** Told after each background run (the dev log). */
  listener: SearchIndexListener | null = null;

  constructor(
    private readonly distDir: string,
    private readonly enabled: boolean,
    private readonly options: SearchIndexerOptions = {},
  ) {}

  /**
   * A build finished: these are the site's post pages now, and these paths of `dist/`
   * were written or removed (other paths than post pages are ignored).
   */
  note(pages: string[], changed: Iterable<string>): void {
    if (!this.enabled) return;
    this.pages = pages;
    const before = this.dirty.size;
    for (const path of changed) if (POST_PAGE.test(path)) this.dirty.add(path);
    if (this.dirty.size > before || this.all) this.staleSince ??= Date.now();
  }

  /** Index what changed now, waiting for it (a one-off build). A failure is a warning: the site is whole without search. */
  async runNow(): Promise<{ search?: SearchIndexResult; messages: Message[] }> {
    if (!this.enabled) return { messages: [] };
    try {
      return { search: (await this.index()) ?? undefined, messages: [] };
    } catch (error) {
      return { messages: [{ file: 'dist/pagefind/', line: 1, column: 1, severity: 'warning', ruleId: 'search-index', message: `Unexpected failure of the search index: ${(error as Error).message}`, fix: 'the site works without it; reinstall `pagefind` (npm ci) or set `AGORA_SEARCH_INDEX=0`' }] };
    }
  }

  /** Index what changed in the background, after a quiet period; runs coalesce. */
  schedule(): void {
    if (!this.enabled || this.abort.signal.aborted) return;
    if (this.timer) clearTimeout(this.timer);
    // After failures (a full disk), wait longer each time: 2 s, 4 s, … 5 min.
    const delay = this.failures > 0 ? Math.min(1000 * 2 ** this.failures, 300_000) : (this.options.delayMs ?? 300);
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.running) return;
      let outcome: { result: SearchIndexResult | null; error?: unknown } = { result: null };
      this.running = this.index().then(
        (result) => void ((outcome = { result }), (this.failures = 0)),
        (error: unknown) => void ((outcome = { result: null, error }), this.failures++),
      ).finally(() => {
        this.running = null;
        // Told once the run is over, so the status it reads is the one after it.
        if (!this.abort.signal.aborted) this.listener?.(outcome.result, this.status, outcome.error);
        if (this.dirty.size > 0 || this.all) this.schedule();
      });
    }, delay);
    this.timer.unref();
  }

  /** Resolves when no run is running or scheduled (tests, benches). */
  async idle(): Promise<void> {
    while (this.timer || this.running) await (this.running ?? new Promise((r) => setTimeout(r, 20)));
  }

  /** Stop: no new run; a running one stops before its next shard. */
  async close(): Promise<void> {
    this.abort.abort();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running?.catch(() => {});
  }

  get status(): SearchIndexStatus {
    const base = { lastIndexedAt: this.lastIndexedAt === null ? null : new Date(this.lastIndexedAt).toISOString(), last: this.last, lastLagMs: this.lastLagMs, ...(this.error ? { error: this.error } : {}) };
    if (!this.enabled) return { state: 'off', pendingPages: 0, staleSince: null, staleMs: 0, ...base };
    const run = this.inRun;
    const oldest = run && this.staleSince !== null ? Math.min(run.since, this.staleSince) : (run?.since ?? this.staleSince);
    // A run retrying after a failure still says `failed` (with the error) until one succeeds.
    const state = this.error ? 'failed' : this.running ? 'indexing' : oldest !== null ? 'stale' : 'current';
    const pendingPages = this.all || run?.pages === 'all' ? this.pages.length : new Set([...this.dirty, ...(run?.pages ?? [])]).size;
    return { state, pendingPages, staleSince: oldest === null ? null : new Date(oldest).toISOString(), staleMs: oldest === null ? 0 : Date.now() - oldest, ...base };
  }

  /** One run: the shards of the pages changed so far (all of them when the shard count changed or an index is missing). */
  private async index(): Promise<SearchIndexResult | null> {
    const onDisk = await readSearchShards(this.distDir);
    const count = shardCount(this.pages.length, this.options.shardPages, onDisk?.count);
    const everything = this.all || onDisk?.count !== count || !onDisk.bundles.every((bundle) => existsSync(join(this.distDir, bundle, 'pagefind-entry.json')));
    if (!everything && this.dirty.size === 0) {
      this.staleSince = null;
      return null;
    }
    const taken = [...this.dirty];
    const since = this.staleSince;
    this.dirty.clear();
    this.all = false;
    // Changes from now on are a new staleness; the run's own is reported until it ends.
    this.staleSince = null;
    this.inRun = { since: since ?? Date.now(), pages: everything ? 'all' : new Set(taken) };
    try {
      const shards = everything ? null : new Set(taken.map((p) => shardOf(p, count)));
      const result = await writeSearchIndex(this.distDir, this.pages, { shards, signal: this.abort.signal, count });
      this.last = result;
      this.lastIndexedAt = Date.now();
      this.lastLagMs = since === null ? null : this.lastIndexedAt - since;
      this.error = undefined;
      return result;
    } catch (error) {
      // Not lost: the next run takes them again.
      for (const p of taken) this.dirty.add(p);
      if (everything) this.all = true;
      this.staleSince = Math.min(since ?? Date.now(), this.staleSince ?? Date.now());
      this.error = (error as Error).message;
      throw error;
    } finally {
      this.inRun = null;
    }
  }
}
