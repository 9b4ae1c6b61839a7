/**
 * The start-up migration alone, in its own process: `migrate-child.ts <root>` opens the
 * store as the writer does first thing at start (`openStore(config, 'server')`, which
 * migrates an old `data/comments.json`), counts what it holds, and closes it. Prints
 * one JSON line: open time, comments counted, peak RSS.
 */
import { loadConfig } from '@agora/generator';
import { openStore } from '@agora/writer';

export interface MigrationFigures {
  ok: boolean;
  error?: string;
  /** `openStore` (the migration, with its read-back check), ms. */
  openMs: number;
  /** Comments the store holds afterwards. */
  comments: number;
  /** What the store reported it migrated (null: nothing). */
  migration: unknown;
  maxRssMB: number;
}

const root = process.argv[2] ?? '.';
const config = loadConfig({ root, env: {}, overrides: { site: { baseUrl: 'https://agora.example' } } });
const started = performance.now();
try {
  const store = await openStore(config, 'server');
  const openMs = performance.now() - started;
  const comments = await store.comments.count();
  const migration = (store as { migration?: unknown }).migration ?? null;
  await store.close();
  console.log(JSON.stringify({ ok: true, openMs, comments, migration, maxRssMB: process.resourceUsage().maxRSS / 1024 } satisfies MigrationFigures));
} catch (error) {
  console.log(JSON.stringify({ ok: false, error: (error as Error).message, openMs: performance.now() - started, comments: 0, migration: null, maxRssMB: process.resourceUsage().maxRSS / 1024 } satisfies MigrationFigures));
  process.exitCode = 1;
}
