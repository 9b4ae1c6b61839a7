/**
 * The publisher: the one place that turns stored changes into published outputs. It
 * owns the site build state, the rebuild queue of the posts' own outputs and the
 * scheduler of the site-wide outputs, so a comment's way is readable top to bottom:
 *
 *   storeComment ─► commentsChanged(slugs) ─► RebuildQueue ─► SiteBuild.updateComments (the post's page, record, comments mirror, feed)
 *                                                           └► aggregates: within the delay, SiteBuild.flushAggregates (lists, counts)
 *   ViewCounter flush ─► viewsChanged(totals) ─► SiteBuild.updateViews ─► aggregates
 *   Store.changes() (moderation, other nodes) ─► commentsChanged(slugs)
 */
import type { Logger } from 'pino';
import type { SiteBuild } from '@agora/generator';
import type { Store } from '../store/types.ts';
import type { HealthState } from '../health.ts';
import { RebuildQueue } from './queue.ts';
import { AggregateScheduler } from './aggregates.ts';

export interface PublisherOptions {
  state: SiteBuild;
  store: Store;
  health: HealthState;
  logger: Logger;
  /** Longest delay before the site-wide outputs follow a change (ms). */
  aggregateDelayMs?: number;
}

const message = (error: unknown) => (error as Error)?.message ?? String(error);

export class Publisher {
  readonly state: SiteBuild;
  private readonly rebuild: RebuildQueue;
  private readonly aggregates: AggregateScheduler;

  constructor(private readonly options: PublisherOptions) {
    const { state, store, health, logger } = options;
    this.state = state;
    this.aggregates = new AggregateScheduler({
      delayMs: options.aggregateDelayMs,
      flush: async () => {
        const started = performance.now();
        const write = await state.flushAggregates();
        if (write.written.length > 0) logger.debug({ written: write.written.length, ms: Math.round(performance.now() - started) }, 'site-wide outputs rewritten');
      },
      onError: (error, attempt) => {
        health.set('aggregates', `site-wide outputs failed to update: ${message(error)}`);
        logger.error({ err: error, attempt }, 'site-wide outputs failed; retrying');
      },
      onRecovered: () => health.clear('aggregates'),
    });
    this.rebuild = new RebuildQueue({
      run: async (slugs) => {
        const started = performance.now();
        const lists = await Promise.all([...slugs].map(async (s) => [s, await store.comments.forSlug(s)] as const));
        const write = await state.updateComments(new Map(lists));
        this.aggregates.touch();
        logger.info({ slugs: slugs.size, written: write.written.length, ms: Math.round(performance.now() - started) }, 'rebuilt after comments');
      },
      onError: (error, attempt) => {
        health.set('rebuild', `post pages failed to rebuild (attempt ${attempt}): ${message(error)}`);
        logger.error({ err: error, attempt }, 'rebuild failed; will retry');
      },
      onRecovered: () => health.clear('rebuild'),
    });
  }

  /**
   * The comments of these posts changed in the store: rewrite each post's own outputs
   * now (resolves with whether that succeeded; retried until it does) and the
   * site-wide outputs within the aggregate delay.
   */
  commentsChanged(slugs: Iterable<string>): Promise<boolean> {
    return this.rebuild.schedule(slugs);
  }

  /** View totals changed: update the records that carry them; their lists follow within the delay. */
  async viewsChanged(totals: ReadonlyMap<string, number>): Promise<void> {
    if ((await this.state.updateViews(totals)) > 0) this.aggregates.touch();
  }

  /** Write the site-wide outputs now instead of within the delay (tests, benchmarks, shutdown). */
  flushAggregates(): Promise<void> {
    return this.aggregates.flushNow();
  }

  /** Finish what is running (at most `waitMs` for the post rebuilds), write the site-wide outputs, stop. */
  async close(waitMs = 5000): Promise<void> {
    await this.rebuild.idle(waitMs);
    this.rebuild.close();
    await this.aggregates.flushNow().catch(() => {});
    this.aggregates.close();
  }
}
