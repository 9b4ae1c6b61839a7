/**
 * `startServer`: one process that opens the store, builds the site (incrementally),
 * then serves `dist/`, the comment and view writers and the public-data endpoints on
 * one port. SIGTERM and SIGINT stop it gracefully: no new connections, in-flight
 * requests finish, view counts are saved first, then the rebuilds drain.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { pino, type Logger } from 'pino';
import { Router, type RequestHandler } from 'express';
import { build, formatMessage, type AgoraConfig, type BuildResult, type Comment, type SiteBuild } from '@agora/generator';
import { createApp } from './app.ts';
import type { AgentDeps } from './mcp/deps.ts';
import { openStore, isPostgresStore } from './store/open.ts';
import { loadSnapshot } from './store/snapshot.ts';
import type { Store } from './store/types.ts';
import { ViewCounter } from './store/view-counter.ts';
import { RebuildQueue } from './rebuild/queue.ts';
import { AggregateScheduler } from './rebuild/aggregates.ts';
import { HealthState } from './health.ts';
import { loadWriterSettings } from './config.ts';
import { createPublicDataRouter } from './public-data/router.ts';
import { loadLimits } from './http/limits-config.ts';
import { applyConnectionLimits } from './http/connection-limits.ts';
import { assertPortFree } from './http/port-check.ts';

export interface StartOptions {
  config: AgoraConfig;
  env?: NodeJS.ProcessEnv;
  logger?: Logger;
  /** Install SIGTERM/SIGINT handlers (default true; tests pass false). */
  handleSignals?: boolean;
  /** Mounted before the other routers and the static site (`agora dev`: live reload). */
  handlers?: RequestHandler[];
}

export interface RunningServer {
  url: string;
  /** The live build state (`agora dev` swaps in each rebuild). */
  state: SiteBuild;
  store: Store;
  server: Server;
  build: BuildResult;
  health: HealthState;
  /** The parts the MCP server uses (`agora mcp` serves them over stdio). */
  agents: AgentDeps;
  /** Write the site-wide outputs now instead of within the aggregate delay (tests, benchmarks). */
  flushAggregates(): Promise<void>;
  close(): Promise<void>;
}

const message = (error: unknown) => (error as Error)?.message ?? String(error);

export async function startServer(options: StartOptions): Promise<RunningServer> {
  const { config } = options;
  const env = options.env ?? process.env;
  const settings = loadWriterSettings(env);
  const limits = loadLimits(config.file);
  const logger = options.logger ?? pino({ level: settings.logLevel });
  // Before the build, so a taken port fails in a second, not after the whole site.
  await assertPortFree(config.host, config.port);
  const store = await openStore(config, 'server');
  const health = new HealthState();
  // Quarantine: a comment that cannot be rendered is left out of every output, stored as
  // hidden with the reason (so `agora comments list` shows it and no process tries it
  // again), and reported by /api/health until a moderator acts.
  const quarantined = new Map<string, string>();
  const onCommentFailed = (comment: Comment, reason: string) => {
    logger.error({ comment: comment.id, slug: comment.slug, reason }, `comment ${comment.id} cannot be rendered; it is hidden and left out (see agora comments list)`);
    quarantined.set(comment.id, reason);
    health.set('quarantine', `${quarantined.size} comment(s) hidden because they cannot be rendered: ${[...quarantined.keys()].slice(0, 10).join(', ')}; see \`agora comments list\``);
    store.comments.change(comment.id, { action: 'hide', reason: `cannot be rendered: ${reason}` }).catch((error: unknown) => logger.error({ err: error, comment: comment.id }, 'quarantined comment not marked hidden in the store'));
  };
  let state: SiteBuild;
  let result: BuildResult;
  let views: ViewCounter;
  try {
    const migration = (store as { migration?: unknown }).migration;
    if (migration) logger.info({ migration }, 'migrated data/comments.json to one file per post (the old file is kept)');
    views = await ViewCounter.open(store.views, {
      flushMs: settings.viewsFlushMs,
      // Several nodes share the counts in PostgreSQL: follow what the others add.
      refreshMs: store.engine === 'postgres' ? Math.max(settings.viewsFlushMs, 100) : 0,
      onFlush: async (totals) => {
        if ((await state.updateViews(totals)) > 0) aggregates.touch();
      },
      onError: (error, attempt) => {
        if (attempt === 0) logger.error({ err: error }, 'views saved; their mirrors failed to update');
        else logger.error({ err: error, attempt }, 'views flush failed; retrying on its own');
      },
    });
    // Renderings and records stay in memory: a comment's rebuild never reads the render cache.
    ({ result, state } = await build(config, { store: await loadSnapshot(store, views.totals()), onCommentFailed, longLived: true }));
  } catch (error) {
    await store.close();
    throw error;
  }
  for (const m of result.messages) logger.warn(formatMessage(m));
  logger.info({ posts: result.posts, rendered: result.rendered, written: result.written.length, ms: result.ms, store: store.engine }, 'site built');
  await state.warmCommentRenderer();

  const aggregates = new AggregateScheduler({
    delayMs: settings.aggregateDelayMs,
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
  const rebuild = new RebuildQueue({
    run: async (slugs) => {
      const started = performance.now();
      const lists = await Promise.all([...slugs].map(async (s) => [s, await store.comments.forSlug(s)] as const));
      const write = await state.updateComments(new Map(lists));
      aggregates.touch();
      logger.info({ slugs: slugs.size, written: write.written.length, ms: Math.round(performance.now() - started) }, 'rebuilt after comments');
    },
    onError: (error, attempt) => {
      health.set('rebuild', `post pages failed to rebuild (attempt ${attempt}): ${message(error)}`);
      logger.error({ err: error, attempt }, 'rebuild failed; will retry');
    },
    onRecovered: () => health.clear('rebuild'),
  });
  const stopChanges = store.changes((slugs) => void rebuild.schedule(slugs));
  const publicData = state.site.catalog
    ? createPublicDataRouter({ catalog: state.site.catalog, store, env })
    : null;

  const app = createApp({
    state, store, views, rebuild, health, logger,
    // Several nodes on one database share their rate-limit budgets through it.
    ...(isPostgresStore(store) ? { rateLimitStore: { postgresPool: store.pool } } : {}),
    apiKey: config.site.apiKey,
    distDir: config.distDir,
    corsOrigin: settings.corsOrigin,
    mcpHosts: settings.mcpHosts,
    routers: [...(options.handlers ?? []).map((handler) => Router().use(handler)), ...(publicData ? [publicData.router] : [])],
    ...(publicData ? { publicData: publicData.calls } : {}),
    limits,
  });
  const server = app.listen(config.port, config.host);
  applyConnectionLimits(server, limits);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', reject);
    });
  } catch (error) {
    stopChanges();
    await store.close();
    throw error;
  }
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  logger.info({ url }, 'agora listening');

  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      stopChanges();
      // Stored data first: counts in memory are the only thing a slow stop could lose.
      await views.flush().catch((error: unknown) => logger.error({ err: error }, 'views not saved at shutdown'));
      views.close();
      await stopped;
      await rebuild.idle(5000);
      rebuild.close();
      await aggregates.flushNow().catch(() => {});
      aggregates.close();
      await state.close();
      await publicData?.close();
      await store.close();
      logger.info('agora stopped');
    })());

  if (options.handleSignals ?? true) {
    const onSignal = (signal: NodeJS.Signals) => {
      logger.info({ signal }, 'shutting down');
      const force = setTimeout(() => process.exit(1), 10_000).unref();
      close().then(() => {
        clearTimeout(force);
        process.exit(0);
      });
    };
    process.once('SIGTERM', onSignal);
    process.once('SIGINT', onSignal);
  }
  return { url, server, state, store, build: result, health, close, agents: app.locals.agents as AgentDeps, flushAggregates: () => aggregates.flushNow() };
}
