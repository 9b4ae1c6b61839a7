/**
 * The publisher: the one place that turns stored changes into published outputs. It
 * owns the site build state, the rebuild queue of the posts' own outputs and the
 * scheduler of the site-wide outputs, so a comment's way is readable top to bottom:
 *
 *   storeComment ─► commentAdded(comment) ─► RebuildQueue ─► SiteBuild.updateComments (the post's page, record, comments mirror)
 *                                                           └► aggregates: SiteBuild.flushAggregates (counts, feeds, lists) before the
 *                                                              answer on a small site (≤ aggregateInlinePosts), else within the delay (lists paced)
 *   ViewCounter flush ─► viewsChanged(totals) ─► SiteBuild.updateViews ─► aggregates
 *   Store.changes() (moderation, other nodes) ─► commentsChanged(slugs): read again from the store
 */
import type { Logger } from 'pino';
import type { Comment, SiteBuild } from '@agora/generator';
import type { Store } from '../store/types.ts';
import type { HealthState } from '../health.ts';
import { RebuildQueue } from './queue.ts';
import { AggregateScheduler } from './aggregates.ts';
import { CommentsInFlight } from './comments-in-flight.ts';

export interface PublisherOptions {
  state: SiteBuild;
  store: Store;
  health: HealthState;
  logger: Logger;
  /** Told a post's comments as the store has them (hidden ones included) whenever they are read again after a change there. */
  onReread?: (slug: string, comments: readonly Comment[]) => void;
  /** Longest delay before the site-wide outputs follow a change (ms). */
  aggregateDelayMs?: number;
  /**
   * A site of at most this many posts writes its site-wide outputs before a comment's
   * answer, so it shows the comment everywhere at once; a bigger one (a rewrite costs
   * hundreds of ms at 10,000 posts) within `aggregateDelayMs` (default 500; 0: never).
   */
  aggregateInlinePosts?: number;
  /**
   * Shortest time between two rewrites of the category, model and tag mirrors (ms): a
   * change after a quiet spell is in them within the delay; under a steady flow they
   * follow at this pace (default 5000).
   */
  listIntervalMs?: number;
  /**
   * After this long without a comment (ms; 0: never), the build state lets go of what it
   * keeps only to make the next comment on a post cheaper (`SiteBuild.shrink`), so a
   * writer at rest after a burst holds what one just started holds (default 30000).
   */
  releaseAfterMs?: number;
  /** Told the `dist/` paths each post rebuild and site-wide flush wrote (`agora dev`'s live reload). */
  onWritten?: (paths: readonly string[]) => void;
}

/** Posts whose comment feeds one flush rewrites at most (the rest wait for the next). */
const FEEDS_PER_FLUSH = 100;
const message = (error: unknown) => (error as Error)?.message ?? String(error);

export class Publisher {
  readonly state: SiteBuild;
  private readonly rebuild: RebuildQueue;
  private readonly aggregates: AggregateScheduler;
  /** Comments this process stored since their post's last rebuild, by slug. */
  private readonly added = new Map<string, Comment[]>();
  /** Posts whose comments must be read from the store again (changed elsewhere). */
  private readonly reread = new Set<string>();
  /** When the category, model and tag mirrors were last rewritten (`Date.now()`). */
  private listsAt = 0;
  /** Comments being answered now: the flush gives way to them between its slices. */
  private readonly inFlight = new CommentsInFlight();
  /** Fires once comments have been calm for `releaseAfterMs` (restarted by each). */
  private calmTimer: NodeJS.Timeout | null = null;
  /** Comments seen so far (arriving, added, changed): a shrink checks none came since its timer fired. */
  private commentsSeen = 0;
  private closed = false;

  constructor(private readonly options: PublisherOptions) {
    const { state, store, health, logger } = options;
    this.state = state;
    this.aggregates = new AggregateScheduler({
      delayMs: options.aggregateDelayMs,
      flush: async (now, inline) => {
        const started = performance.now();
        // The category, model and tag mirrors hold every post of their group (~140 MB
        // at 10,000 posts): under a steady flow a round of them begins at most once per
        // interval, the rest of the site-wide outputs follow within the delay. A round
        // stops for the next flush once a newer change has waited half the delay, and
        // goes on in the flushes after it, each after its `/api/posts`.
        const underWay = state.listsUnderWay;
        const lists = now || inline || underWay || Date.now() - this.listsAt >= (options.listIntervalMs ?? 5000);
        if (lists && !underWay) this.listsAt = Date.now();
        const halfDelay = (options.aggregateDelayMs ?? 1000) / 2;
        // At most FEEDS_PER_FLUSH posts' comment feeds (~2 ms each) per flush: under a flood of
        // comments on many posts the rest follow in the next flushes, and `/api/posts`
        // (written first) keeps following every second.
        const write = await state.flushAggregates({
          lists, feeds: now ? Infinity : FEEDS_PER_FLUSH,
          // Inline, the comments in flight are waiting for this very flush.
          giveWay: now || inline ? undefined : this.inFlight.giveWay,
          stopLists: now || inline ? undefined : () => this.aggregates.waitingMs >= halfDelay,
        });
        if (state.aggregatesPending) this.aggregates.touch();
        if (write.written.length > 0) {
          logger.debug({ written: write.written.length, lists, ms: Math.round(performance.now() - started) }, 'site-wide outputs rewritten');
          options.onWritten?.(write.written);
        }
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
        // A failed rebuild took the comments this process added from `added`: its retry
        // reads these posts from the store, which has them all.
        const lists = await Promise.all([...slugs].map(async (s) => [s, await this.listOf(s)] as const)).catch((error: unknown) => {
          for (const s of slugs) this.reread.add(s);
          throw error;
        });
        const write = await state.updateComments(new Map(lists));
        // The site-wide outputs follow every rebuild, a retried one too (its callers were
        // told of the failure and wait for nothing): `published` makes it inline where it may.
        this.aggregates.touch();
        logger.info({ slugs: slugs.size, written: write.written.length, ms: Math.round(performance.now() - started) }, 'rebuilt after comments');
        options.onWritten?.(write.written);
      },
      onError: (error, attempt) => {
        health.set('rebuild', `post pages failed to rebuild (attempt ${attempt}): ${message(error)}`);
        logger.error({ err: error, attempt }, 'rebuild failed; will retry');
      },
      onRecovered: () => health.clear('rebuild'),
    });
    // A start that built the site (a new site, a renderer upgrade) holds every post's
    // rendering: let go of it too once the writer has been calm that long.
    this.restartCalmTimer();
  }

  /**
   * The comments of these posts changed in the store (moderation, another node, a
   * renderer upgrade): read each post's comments again, rewrite its own outputs now
   * (resolves with whether that succeeded; retried until it does) and the site-wide
   * outputs within the aggregate delay.
   */
  commentsChanged(slugs: Iterable<string>): Promise<boolean> {
    this.restartCalmTimer();
    const list = [...slugs];
    for (const slug of list) this.reread.add(slug);
    return this.published(this.rebuild.schedule(list));
  }

  /**
   * This process stored a new comment: append it to its post's published comments
   * without reading the post's comments back from the store (a busy post holds
   * hundreds), then as `commentsChanged`.
   */
  commentAdded(comment: Comment): Promise<boolean> {
    this.restartCalmTimer();
    const added = this.added.get(comment.slug);
    if (added) added.push(comment);
    else this.added.set(comment.slug, [comment]);
    return this.published(this.rebuild.schedule([comment.slug]));
  }

  /**
   * After a post's own outputs were rebuilt: on a small site the answer waits for the
   * site-wide outputs (by its size, not a timed rewrite: under concurrent comments a
   * small site's rewrite took over any time bound and switched the wait off for
   * seconds); elsewhere they follow within the delay (the rebuild queue's run scheduled
   * them). Awaited outside the rebuild queue, so the post's next rebuild need not wait
   * for this flush (it runs between the flush's jobs), and comments waiting together
   * share the next flush. Resolves with whether the post's own outputs were rebuilt; a
   * failed flush is retried by the scheduler.
   */
  private async published(rebuilt: Promise<boolean>): Promise<boolean> {
    if (!(await rebuilt)) return false;
    if (this.state.site.posts.length <= (this.options.aggregateInlinePosts ?? 500)) await this.aggregates.flushSoon();
    return true;
  }

  /**
   * A comment is being answered (judged, stored, its page rebuilt): until the function
   * returned is called, the site-wide flush gives way to it between its slices
   * (`CommentsInFlight`).
   */
  answeringComment(): () => void {
    return this.inFlight.begin();
  }

  /**
   * A comment request arrived (before it is judged or rendered, a heavy body's render may
   * take seconds): the calm spell after which the build state shrinks starts again.
   */
  commentArriving(): void {
    this.restartCalmTimer();
  }

  /** A comment came (or the writer started): the calm spell starts again. */
  private restartCalmTimer(): void {
    this.commentsSeen++;
    const ms = this.options.releaseAfterMs ?? 30_000;
    if (ms === 0 || this.closed) return;
    if (this.calmTimer) {
      this.calmTimer.refresh();
      return;
    }
    this.calmTimer = setTimeout(() => {
      this.calmTimer = null;
      const seen = this.commentsSeen;
      const calm = () => this.commentsSeen === seen && this.inFlight.size === 0 && !this.rebuild.pending;
      // Still answering or rebuilding: the spell is not over.
      if (!calm()) return this.restartCalmTimer();
      // Asked again once the build lock is free: a comment that came while it waited
      // (behind a long flush) keeps what its rebuild just brought into memory.
      this.state.shrink(calm).then(
        (held) => held && this.options.logger.debug({ ...held }, 'comments calm: kept renderings, comment text and lists let go'),
        (error: unknown) => this.options.logger.warn({ err: error }, 'letting go of kept comment data failed'),
      );
    }, ms);
    this.calmTimer.unref();
  }

  /**
   * After the start: make ahead what the first site-wide flush needs (`SiteBuild.warm`),
   * giving way to comments being answered as the flush does.
   */
  warm(): Promise<void> {
    return this.state.warm(this.inFlight.giveWay);
  }

  /**
   * A post's comments for its rebuild: read from the store when it changed there, else
   * what is published plus what this process added since (the same list, as the store
   * is written before the publisher hears of a comment).
   */
  private async listOf(slug: string): Promise<readonly Comment[]> {
    const added = this.added.get(slug) ?? [];
    this.added.delete(slug);
    if (this.reread.delete(slug)) {
      const stored = await this.options.store.comments.forSlug(slug);
      this.options.onReread?.(slug, stored);
      return stored;
    }
    const shown = this.state.site.comments.get(slug) ?? [];
    const known = new Set(shown.map((c) => c.id));
    return [...shown, ...added.filter((c) => !known.has(c.id))];
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
    this.closed = true;
    if (this.calmTimer) clearTimeout(this.calmTimer);
    this.calmTimer = null;
    await this.rebuild.idle(waitMs);
    this.rebuild.close();
    await this.aggregates.flushNow().catch(() => {});
    this.aggregates.close();
  }
}
