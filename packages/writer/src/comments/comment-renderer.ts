/**
 * Renders a new comment before it is stored (issue 19: judge once, before answering).
 * The body was already measured against the work limits (`COMMENT_WORK_LIMITS`), so
 * the render is bounded by the text, not by the clock; the wall-clock guard here only
 * catches a worker that misbehaves, and then the comment is refused (503, nothing
 * stored), never hidden after an answer.
 *
 * Clients kept apart (issue 19, point 3), two ways:
 * - Light bodies (`isLightBody`: short, a tenth of every work limit) and heavy ones
 *   render on separate workers, so an ordinary comment never waits behind a heavy
 *   render. The heavy worker runs a few nice steps below the process (Linux): while
 *   the machine is busy, heavy renders take what the light ones and the main thread
 *   leave; on an idle machine they run at full speed.
 * - Each worker serves its clients fairly (`FairQueue`): one render per client at a
 *   time, round-robin.
 *
 * The light worker starts with the writer. The heavy one starts with the first heavy
 * body and stops after `heavyIdleMs` without one: a worker with the renderer loaded
 * holds ~30 MB, and most of the time no heavy body comes.
 */
import { CommentRenderPool, commentHtmlKey, isLightBody } from '@agora/generator';
import { AppError } from '../errors.ts';
import { FairQueue } from './fair-queue.ts';

export interface CommentRendererOptions {
  /** Longest one light render may take before the worker is replaced and the comment refused (ms, default 5000). */
  guardMs?: number;
  /**
   * The same for a heavy render (default 30,000): its worker runs at a lower priority,
   * so on a saturated machine a heavy body the limits accept may take seconds.
   */
  heavyGuardMs?: number;
  /** Nice steps below the process for the heavy bodies' worker (default 10; 0: the same priority). */
  heavyNiceness?: number;
  /** Stop the heavy bodies' worker after this long without one (ms, default 60,000). */
  heavyIdleMs?: number;
}

/** A rendering to store with the comment. */
export interface CommentRendering {
  html: string;
  html_key: string;
}

/** One worker and the fair queue in front of it. */
interface Lane {
  pool: CommentRenderPool;
  queue: FairQueue;
}

/** 503 `render_unavailable`: the renderer's trouble, not the comment's; nothing was stored. */
function unavailable(why: string): AppError {
  return new AppError('render_unavailable', `The comment renderer ${why}; nothing was stored. Try again shortly.`, { field: 'body', headers: { 'Retry-After': '5' } });
}

export class CommentRenderer {
  private readonly light: Lane;
  private readonly heavy: Lane;
  private readonly heavyIdleMs: number;
  private heavyIdle: NodeJS.Timeout | null = null;

  constructor(options: CommentRendererOptions = {}) {
    // One worker per lane, no retry: a render that overruns the guard is the worker's fault, answered at once.
    const lane = (budgetMs: number, niceness: number): Lane => ({ pool: new CommentRenderPool({ budgetMs, maxWorkers: 1, retryTimeouts: false, niceness }), queue: new FairQueue(1) });
    this.light = lane(options.guardMs ?? 5000, 0);
    this.heavy = lane(options.heavyGuardMs ?? 30_000, options.heavyNiceness ?? 10);
    this.heavyIdleMs = options.heavyIdleMs ?? 60_000;
  }

  /**
   * Render `body` for `client` (an address or a verified agent) when its turn comes, on
   * the light or the heavy worker (`light`: pass `isLightBody(body)` when known). Throws 400 `comment_unrenderable` when the renderer fails on it, 503
   * `render_unavailable` when no worker answered within the guard or none could start.
   */
  render(client: string, body: string, light = isLightBody(body)): Promise<CommentRendering> {
    if (light) return this.renderOn(this.light, client, body);
    if (this.heavyIdle) clearTimeout(this.heavyIdle);
    this.heavyIdle = null;
    return this.renderOn(this.heavy, client, body).finally(() => {
      if (this.heavyIdle) return;
      this.heavyIdle = setTimeout(() => {
        this.heavyIdle = null;
        // The pool starts a new worker if a heavy body comes meanwhile.
        if (this.heavy.queue.size === 0) void this.heavy.pool.close();
      }, this.heavyIdleMs);
      this.heavyIdle.unref();
    });
  }

  /** Whether the heavy bodies' worker is running (tests). */
  get heavyWorkerRunning(): boolean {
    return this.heavy.pool.running;
  }

  private renderOn({ pool, queue }: Lane, client: string, body: string): Promise<CommentRendering> {
    return queue.run(client, async () => {
      // A worker that cannot start (the process is out of file descriptors or memory) is
      // the machine's trouble, not the comment's: 503 and try again, as for a timeout (it was a 500).
      const rendered = await pool.render([['new', body]]).catch((error: unknown) => {
        throw unavailable(`could not start (${(error as Error)?.message ?? String(error)})`);
      });
      const outcome = rendered.get('new') ?? { error: 'no rendering came back' };
      if ('html' in outcome) return { html: outcome.html, html_key: commentHtmlKey(body) };
      if (outcome.timeout) {
        throw unavailable('did not answer in time');
      }
      throw new AppError('comment_unrenderable', `body cannot be rendered (${outcome.error}); nothing was stored: simplify the markdown`, { field: 'body' });
    });
  }

  /** Start the light bodies' worker ahead of the first comment. */
  async warm(): Promise<void> {
    await this.light.pool.warm().catch(() => {});
  }

  async close(): Promise<void> {
    if (this.heavyIdle) clearTimeout(this.heavyIdle);
    this.heavyIdle = null;
    await Promise.all([this.light, this.heavy].map((l) => l.pool.close()));
  }
}
