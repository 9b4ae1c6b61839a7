/**
 * Render many markdown bodies on every core. Small jobs render in this thread; large
 * ones are split into batches over worker threads (one processor each), so a cold
 * build uses the whole machine.
 */
import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import type { RenderedPost } from '../types.ts';
import { renderMarkdown } from './markdown.ts';
import type { RenderRequest, RenderResponse } from './worker.ts';

export interface RenderPoolOptions {
  /** Worker threads to use (default: the number of cores). */
  workers?: number;
  /** Below this many items everything renders inline (default 48). */
  inlineBelow?: number;
}

const BATCH = 40;

/** Render every `[key, markdown]` item; resolves with a map of key to result. */
export async function renderAll(
  items: readonly [string, string][],
  options: RenderPoolOptions = {},
): Promise<Map<string, RenderedPost>> {
  const out = new Map<string, RenderedPost>();
  const workers = Math.max(1, Math.min(options.workers ?? availableParallelism(), Math.ceil(items.length / BATCH)));
  if (items.length < (options.inlineBelow ?? 48) || workers < 2) {
    for (const [key, markdown] of items) out.set(key, renderMarkdown(markdown));
    return out;
  }
  const batches: [string, string][][] = [];
  for (let i = 0; i < items.length; i += BATCH) batches.push(items.slice(i, i + BATCH));
  let nextBatch = 0;
  const threads = Array.from({ length: workers }, () => startWorker());
  try {
    await Promise.all(
      threads.map(
        (worker) =>
          new Promise<void>((resolve, reject) => {
            const feed = () => {
              if (nextBatch >= batches.length) return resolve();
              const id = nextBatch++;
              worker.postMessage({ id, items: batches[id]! } satisfies RenderRequest);
            };
            worker.on('message', (response: RenderResponse) => {
              for (const [key, rendered] of response.results) out.set(key, rendered);
              feed();
            });
            worker.once('error', reject);
            worker.once('exit', (code) => {
              if (nextBatch < batches.length || code !== 0) reject(new Error(`Render worker exited with code ${code}`));
            });
            feed();
          }),
      ),
    );
  } finally {
    await Promise.all(threads.map((t) => t.terminate()));
  }
  return out;
}

function startWorker(): Worker {
  const url = new URL('./worker.ts', import.meta.url);
  // Workers do not inherit a loader registered at run time, so hand them tsx explicitly.
  const hasTsx = process.execArgv.some((a) => a.includes('tsx'));
  const execArgv = hasTsx ? process.execArgv : [...process.execArgv, '--import', import.meta.resolve('tsx')];
  return new Worker(url, { execArgv });
}
