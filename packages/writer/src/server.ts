/**
 * `startServer`: one process that serves the site, the comment and view writers and
 * the public-data endpoints on one port. It listens first, serving the existing `dist/`
 * (`http/starting-app.ts`, health `starting`), then opens its views, builds the site
 * incrementally (nothing unchanged is rendered or written again: comments carry their
 * stored HTML) and switches to the full app. SIGTERM and SIGINT stop it gracefully: no
 * new connections, in-flight requests finish, view counts are saved first, then the
 * rebuilds drain.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino, type Logger } from 'pino';
import { Router, type RequestHandler } from 'express';
import { build, formatMessage, isDiskFull, type AgoraConfig, type BuildResult, type SiteBuild } from '@agora/generator';
import { createApp } from './app.ts';
import { KeyDirectories } from './agents/key-directory.ts';
import type { AgentDeps } from './mcp/deps.ts';
import { mcpErrorShape, writerUrl } from './mcp/http.ts';
import type { EmbeddedStore } from './store/embedded/index.ts';
import { openStore, isPostgresStore } from './store/open.ts';
import { loadSnapshot } from './store/snapshot.ts';
import { isStoreOutage, StoreError, type Store } from './store/types.ts';
import { ViewCounter } from './views/view-counter.ts';
import { Publisher } from './rebuild/publisher.ts';
import { RenderingKeeper } from './rebuild/renderings.ts';
import { waitForDist } from './rebuild/dist-lock.ts';
import type { HeldLock } from './store/embedded/os-lock.ts';
import { CommentRenderer } from './comments/comment-renderer.ts';
import { HiddenTwins } from './comments/hidden-twins.ts';
import { HealthState } from './health.ts';
import { loadProviderConfig } from './public-data/config.ts';
import { loadWriterSettings } from './config.ts';
import { createPublicDataRouter } from './public-data/router.ts';
import { keyStatusFromEnv } from './public-data/key-status.ts';
import { loadLimits } from './http/limits-config.ts';
import { applyConnectionLimits, inTurn } from './http/connection-limits.ts';
import { capForOpenFiles, openFilesLimit } from './http/fd-limit.ts';
import { securityHeaderList, setHeaders } from './http/security-headers.ts';
import { AppError, writeError } from './errors.ts';
import { assertPortFree } from './http/port-check.ts';
import { createStartingApp } from './http/starting-app.ts';

export interface StartOptions {
  config: AgoraConfig;
  env?: NodeJS.ProcessEnv;
  logger?: Logger;
  /** Install SIGTERM/SIGINT handlers (default true; tests pass false). */
  handleSignals?: boolean;
  /** Called once the port is open, before the start-up build (the CLI prints it). */
  onListening?: (url: string) => void;
  /** Mounted before the other routers and the static site (`agora dev`: live reload). */
  handlers?: RequestHandler[];
  /** Told the `dist/` paths each comment rebuild and site-wide flush wrote (`agora dev` reloads the open pages among them). */
  onWritten?: (paths: readonly string[]) => void;
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
  /** Store the counted views and write the site-wide outputs now instead of within their delays (tests, benchmarks). */
  flushAggregates(): Promise<void>;
  /** Resolves once renderings made since the start are stored and any renderer upgrade is done (tests). */
  renderingsSettled(): Promise<void>;
  /**
   * Posts new to the site model (`agora dev`: a file added, or moved away and back):
   * publish the comments and views the store holds for them. Resolves once their own
   * outputs show them.
   */
  postsAppeared(slugs: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

/** Longest a request that needs the built site waits for it during start-up. */
const STARTING_WAIT_MS = 30_000;

export async function startServer(options: StartOptions): Promise<RunningServer> {
  const startedAt = new Date();
  const { config } = options;
  const env = options.env ?? process.env;
  const settings = loadWriterSettings(env);
  const configured = loadLimits(config.file);
  const openFiles = openFilesLimit();
  const fdCap = capForOpenFiles(configured.maxConnections, openFiles);
  const limits = { ...configured, maxConnections: fdCap.maxConnections };
  // The providers' settings too, though only a site with a catalog calls them: every
  // setting is read before the port is taken, so a bad one stops the start at once.
  loadProviderConfig(env);
  const logger = options.logger ?? pino({ level: settings.logLevel });
  if (fdCap.warning) logger.warn({ open_files_limit: openFiles, max_connections: limits.maxConnections }, fdCap.warning);
  // Before anything else, so a taken port fails in a second.
  await assertPortFree(config.host, config.port);
  // A database that is down at start does not keep the existing pages from being served:
  // the writer listens and opens the store again until it answers (below).
  const openOrAway = () =>
    openStore(config, 'server').catch((error: unknown) => {
      if (error instanceof StoreError && error.code === 'unavailable' && config.store.engine === 'postgres') return null;
      throw error;
    });
  let store: Store | null = await openOrAway();

  // 1. Listen at once, serving the existing dist/ until the site is caught up.
  let fullApp: (app: RequestListener) => void = () => {};
  let failStart: (error: unknown) => void = () => {};
  const ready = new Promise<RequestListener>((resolve, reject) => {
    fullApp = resolve;
    failStart = reject;
  });
  ready.catch(() => {});
  // Before listening: what keeps the start from catching up (the database away, dist/ full) shows in `/api/health` at once.
  const health = new HealthState();
  const starting = createStartingApp({ distDir: config.distDir, site: config.site, store: config.store.engine, startedAt, ready, waitMs: STARTING_WAIT_MS, health });
  let handler: RequestListener = starting;
  const security = securityHeaderList(config.site);
  // Host is checked here, not by Node (whose 400 has no body): a JSON error like every other.
  const server = createServer({ requireHostHeader: false }, (req, res) => {
    const hostError = req.headers.host === undefined
      ? req.httpVersion === '1.1' ? 'An HTTP/1.1 request must name the host it is for: send a `Host` header' : null
      : hostCount(req.rawHeaders) > 1 ? 'A request names one host: send one `Host` header, not several (RFC 9112 3.2)' : null;
    if (hostError) {
      setHeaders(res, security);
      res.setHeader('Connection', 'close');
      return void writeError(res, new AppError('validation', hostError, { field: 'Host' }));
    }
    inTurn(req, res, () => handler(req, res));
  });
  // A body that broke off on its way to /mcp is answered as JSON-RPC, as /mcp's other errors.
  applyConnectionLimits(server, limits, security, (path) => (path.replace(/\/$/, '') === '/mcp' ? mcpErrorShape : undefined));
  let url: string;
  try {
    url = await listen(server, config.port, config.host);
  } catch (error) {
    await store?.close();
    throw error;
  }
  const hasDist = existsSync(join(config.distDir, 'index.html'));
  logger.info({ url }, hasDist ? 'agora accepting connections; catching up (serving the existing dist/ meanwhile)' : 'agora accepting connections; building the site (no dist/ yet)');
  options.onListening?.(url);
  // What is served meanwhile: a first start has no dist/ to fall back on.
  const meanwhile = hasDist ? 'serving the existing dist/ and trying again' : 'no dist/ to serve yet (the first build needs the store); trying again';
  for (let wait = 1000; !store; wait = Math.min(wait * 2, 10_000)) {
    logger.warn({ retry_in_ms: wait }, `the store is unavailable (PostgreSQL down?); ${meanwhile}`);
    health.set('store', `the database does not answer; ${meanwhile}`);
    await new Promise((r) => setTimeout(r, wait));
    store = await openOrAway();
  }
  health.clear('store');
  const address = writerUrl({ host: config.host, port: Number(new URL(url).port) });
  recordAddress(store, address, logger);

  // 2. Catch up: views, the site build (stored comment HTML is used as it is), then the full app.
  // The provider keys of this environment decide which catalog entries the build shows
  // as pending_key (read again at every start, so a key set later shows at once).
  const keys = keyStatusFromEnv(env);
  health.missingKeys = keys.providers;
  const renderings = new RenderingKeeper(store, logger);
  const hidden = new HiddenTwins();
  const renderer = new CommentRenderer();
  // The render workers load while the site builds, so the first comment does not wait for them.
  const warming = renderer.warm();
  let publisher: Publisher | null = null;
  let views: ViewCounter | undefined;
  let state: SiteBuild;
  let result: BuildResult;
  let distLock: HeldLock | null = null;
  let built: SiteBuild | null = null;
  // A start that fails after listening lets go of the port and everything it took, so the
  // process ends (with the error) and the same process may start again (`agora dev` after a fix).
  const abandonStart = async (error: unknown): Promise<never> => {
    failStart(error);
    // Every connection first: an answer still being sent (a big file of the old dist/) must not hold the exit.
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
    views?.close();
    await Promise.all([publisher?.close(0), built?.close(), renderer.close(), store!.close(), distLock?.release()].map((p) => p?.catch(() => {})));
    throw error;
  };
  try {
    // The one process that writes dist/ from now on (an `agora build` under way finishes first).
    distLock = await waitForDist(config.distDir, (busy) => logger.warn({ holder_pid: busy.pid }, `${busy.message}; waiting for it to finish before catching up`));
    // Also where this writer listens: with PostgreSQL no data-folder lock says a writer runs here, and
    // `agora mcp` in this folder finds it by its dist/ (it cannot take dist/ for a node of its own).
    try {
      distLock.record([address]);
    } catch (error) {
      logger.warn({ err: error }, 'could not record the writer address in the dist/ lock; agora mcp beside it needs --writer');
    }
    const migration = (store as { migration?: unknown }).migration;
    if (migration) logger.info({ migration }, 'migrated data/comments.json to one file per post (the old file is kept)');
    views = await ViewCounter.open(store.views, {
      // Several nodes share the counts in PostgreSQL: follow what the others add.
      refreshMs: store.engine === 'postgres' ? Math.max(settings.viewsFlushMs, 100) : 0,
      onFlush: (totals) => publisher?.viewsChanged(totals),
      publishMs: settings.viewsFlushMs,
      onError: (error, failed) => {
        if (failed === 0) return logger.error({ err: error }, 'views saved; their mirrors failed to update');
        // As a failed comment write does: /api/health names the store until a write works.
        if (isStoreOutage(error)) health.set('store', error.message);
        // The first refused batch, then one line per tenfold (a full disk refuses hundreds a second).
        if (Number.isInteger(Math.log10(failed))) logger.error({ err: error, failed_batches: failed }, 'a batch of views could not be stored; its PUTs were refused');
      },
      onRecovered: (failed) => {
        health.clear('store');
        logger.info({ failed_batches: failed }, 'views are stored again');
      },
    });
    // Renderings and records stay in memory between rebuilds (renderings until comments are
    // calm for AGORA_RELEASE_AFTER_MS: `Publisher`), so a comment's rebuild seldom reads the render cache.
    const catchUp = async () =>
      build(config, {
        store: await loadSnapshot(store!, views!.totals(), { dropText: settings.commentTextPosts !== 0, onHidden: (c) => hidden.add(c) }),
        longLived: true,
        commentTextPosts: settings.commentTextPosts,
        searchIndexInBackground: true,
        missingKeys: keys.catalog,
        onCommentRendered: (comment, html, key) => renderings.rendered(comment, html, key),
        onCommentPlain: (comment, reason) => renderings.shownPlain(comment, reason),
      });
    // A dist/ (or .cache/) that cannot take the catch-up's files does not take the site
    // offline: the existing dist/ is served (every file in it whole: writes are atomic),
    // comments are refused with 503 `starting`, and the build is tried again until there is room.
    for (let wait = 1000; ; wait = Math.min(wait * 2, 10_000)) {
      try {
        ({ result, state } = await catchUp());
        break;
      } catch (error) {
        if (!isDiskFull(error)) throw error;
        const reason = `${(error as NodeJS.ErrnoException).code === 'EROFS' ? 'the disk holding dist/ is read-only' : 'no space left on the disk holding dist/'} (${(error as Error).message}); serving the existing dist/ and trying again`;
        health.set('dist', reason);
        logger.error({ err: error, retry_in_ms: wait }, `cannot catch up: ${reason}. Free some space on it; nothing stored was changed`);
        await new Promise((r) => setTimeout(r, wait));
      }
    }
    health.clear('dist');
    built = state;
  } catch (error) {
    return abandonStart(error);
  }
  const heldDist = distLock;
  for (const m of result.messages) logger.warn(formatMessage(m));
  // comments_rendered: stored comments that had no usable HTML (old data, edits in data/); 0 on a normal restart.
  logger.info({ posts: result.posts, rendered: result.rendered, comments_rendered: renderings.renderedCount, written: result.written.length, ms: result.ms, store: store.engine }, 'site built');

  publisher = new Publisher({ state, store, health, logger, onReread: (slug, comments) => hidden.replace(slug, comments), aggregateDelayMs: settings.aggregateDelayMs, aggregateInlinePosts: settings.aggregateInlinePosts, listIntervalMs: settings.listIntervalMs, releaseAfterMs: settings.releaseAfterMs, onWritten: options.onWritten });
  const published = publisher;
  // Comments changed outside this writer (CLI, other nodes): published, then any of them
  // still holding an older renderer's HTML (a comment unhidden after the start's upgrade
  // pass, which saw only shown comments) is re-rendered in the background.
  const stopChanges = store.changes((slugs) => void published.commentsChanged(slugs).then(() => renderings
    .upgrade(state, renderer, (changed) => published.commentsChanged(changed), new Set(slugs))
    .catch((error: unknown) => logger.error({ err: error }, 'renderer upgrade stopped'))));
  // The parts that may still refuse a setting (the catalog's providers, the routes): a
  // refusal ends the start as a failed build does, not a process left `starting` forever.
  let app: ReturnType<typeof createApp>['app'];
  let listener: RequestListener;
  let publicData: ReturnType<typeof createPublicDataRouter> | null;
  try {
    publicData = state.site.catalog ? createPublicDataRouter({ catalog: state.site.catalog, store, env, agentTokens: settings.agentTokens }) : null;
    // A site without a catalog calls no provider: no key of one is missing.
    if (!publicData) health.missingKeys = [];
    ({ app, listener } = createApp({
      state, store, views, publisher, renderer, health, hidden, logger, startedAt, securityHeaders: security,
      // Several nodes on one database share their rate-limit budgets through it.
      ...(isPostgresStore(store) ? { rateLimitStore: { postgresPool: store.pool } } : {}),
      apiKey: config.site.apiKey,
      distDir: config.distDir,
      corsOrigin: settings.corsOrigin,
      mcpHosts: settings.mcpHosts,
      agentDirectories: new KeyDirectories({ allowLoopback: settings.agentDirectoryAllowLoopback }),
      routers: [...(options.handlers ?? []).map((handler) => Router().use(handler)), ...(publicData ? [publicData.router] : [])],
      ...(publicData ? { publicData: publicData.calls } : {}),
      limits,
    }));
  } catch (error) {
    stopChanges();
    return abandonStart(error);
  }
  app.locals.renderings = renderings;
  await warming;
  // What the first site-wide flush needs: the comment tally now (before any request),
  // the rest in the background, so the first comments do not wait for it.
  void published.warm().catch((error: unknown) => logger.warn({ err: error }, 'warming the site-wide outputs failed; the first flush makes them'));
  handler = listener;
  fullApp(listener);
  logger.info({ url, ms: Date.now() - startedAt.getTime() }, 'agora listening');
  // In the background: comments whose stored HTML is from an older renderer.
  const upgraded = renderings.upgrade(state, renderer, (slugs) => published.commentsChanged(slugs)).catch((error: unknown) => logger.error({ err: error }, 'renderer upgrade stopped'));

  let closing: Promise<void> | null = null;
  // Once stopping, every answer closes its connection: a keep-alive client otherwise kept
  // sending on its open socket (500 more comments in 10 s under load) until the forced exit
  // cut requests in flight, some of them stored and never answered.
  server.prependListener('request', (_req, res) => {
    if (closing) res.setHeader('Connection', 'close');
  });
  const close = () =>
    (closing ??= (async () => {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      stopChanges();
      // Every answered view is stored already; the batches under way finish, and their mirrors follow.
      const viewsSettled = () => views.flush().catch((error: unknown) => logger.error({ err: error }, 'views: the last batches failed'));
      await viewsSettled();
      await stopped;
      await viewsSettled();
      views.close();
      await renderings.close();
      await published.close();
      await state.close();
      await renderer.close();
      await publicData?.close();
      await store.close();
      await heldDist.release();
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
  return {
    url, server, state, store, build: result, health, close,
    agents: app.locals.agents as AgentDeps,
    flushAggregates: async () => {
      await views.flush();
      await published.flushAggregates();
    },
    renderingsSettled: async () => {
      await upgraded;
      await renderings.settled();
    },
    postsAppeared: async (slugs) => {
      await published.commentsChanged(slugs);
      await published.viewsChanged(new Map(slugs.map((slug) => [slug, views.get(slug)])));
    },
  };
}

/**
 * Record where this writer listens (the bound port, a wildcard host as loopback) in
 * `data/.writer.lock` after its pid, so `agora mcp` beside it finds `/mcp` on any port
 * without `--writer`. Only the embedded store holds that lock.
 */
function recordAddress(store: Store, url: string, logger: Logger): void {
  const embedded = store as Partial<Pick<EmbeddedStore, 'recordAddress'>>;
  if (typeof embedded.recordAddress !== 'function') return;
  try {
    embedded.recordAddress(url);
  } catch (error) {
    logger.warn({ err: error }, 'could not record the writer address in data/.writer.lock; agora mcp needs --writer');
  }
}

/** How many `Host` lines a request sent (Node keeps the first in `headers.host` and drops the others). */
function hostCount(raw: readonly string[]): number {
  let n = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.length === 4 && raw[i]!.toLowerCase() === 'host') n++;
  return n;
}

/** Listen and give the URL clients use. */
async function listen(server: Server, port: number, host: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
    server.listen(port, host);
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${shown}:${address.port}`;
}
