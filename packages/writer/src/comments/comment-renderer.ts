/**
 * Renders a new comment before it is stored (issue 19: judge once, before answering).
 * The body was already measured against the work limits (`COMMENT_WORK_LIMITS`), so
 * the render is bounded by the text, not by the clock; the wall-clock guard here only
 * catches a worker that misbehaves, and then the comment is refused (503, nothing
 * stored), never hidden after an answer. Rendering is fair between clients
 * (`FairQueue`): one render per client at a time, round-robin, on `lanes` workers.
 */
import { CommentRenderPool, commentHtmlKey } from '@agora/generator';
import { AppError } from '../errors.ts';
import { FairQueue } from './fair-queue.ts';

export interface CommentRendererOptions {
  /** Worker threads rendering at once (default 2). */
  lanes?: number;
  /** Longest one render may take before the worker is replaced and the comment refused (ms, default 5000). */
  guardMs?: number;
}

/** A rendering to store with the comment. */
export interface CommentRendering {
  html: string;
  html_key: string;
}

export class CommentRenderer {
  private readonly lanes: { pool: CommentRenderPool; busy: boolean }[];
  private readonly queue: FairQueue;

  constructor(options: CommentRendererOptions = {}) {
    const guardMs = options.guardMs ?? 5000;
    const lanes = Math.max(1, options.lanes ?? 2);
    // One worker per lane, no retry: a render that overruns the guard is the worker's fault, answered at once.
    this.lanes = Array.from({ length: lanes }, () => ({ pool: new CommentRenderPool({ budgetMs: guardMs, maxWorkers: 1, retryTimeouts: false }), busy: false }));
    this.queue = new FairQueue(lanes);
  }

  /**
   * Render `body` for `client` (an address or a verified agent) when its turn comes.
   * Throws 422 `comment_unrenderable` when the renderer fails on it, 503
   * `render_unavailable` when no worker answered within the guard.
   */
  render(client: string, body: string): Promise<CommentRendering> {
    return this.queue.run(client, async () => {
      const lane = this.lanes.find((l) => !l.busy)!;
      lane.busy = true;
      try {
        const outcome = (await lane.pool.render([['new', body]])).get('new') ?? { error: 'no rendering came back' };
        if ('html' in outcome) return { html: outcome.html, html_key: commentHtmlKey(body) };
        if (outcome.timeout) {
          throw new AppError('render_unavailable', 'The comment renderer did not answer in time; nothing was stored. Try again shortly.', { field: 'body', headers: { 'Retry-After': '5' } });
        }
        throw new AppError('comment_unrenderable', `body cannot be rendered (${outcome.error}); nothing was stored: simplify the markdown`, { field: 'body' });
      } finally {
        lane.busy = false;
      }
    });
  }

  /** Start the workers ahead of the first comment. */
  async warm(): Promise<void> {
    await Promise.all(this.lanes.map((l) => l.pool.warm().catch(() => {})));
  }

  async close(): Promise<void> {
    await Promise.all(this.lanes.map((l) => l.pool.close()));
  }
}
