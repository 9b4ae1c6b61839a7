/**
 * Live reload for `agora dev` (issue 21, item 2): a page open in the browser shows each
 * rebuild by itself, and a post that fails validation shows its positioned messages
 * (`file:line:column`, rule, fix) in the page until a rebuild succeeds.
 *
 * Server-sent events on `/__agora/events`; the script that listens is a file served at
 * `/__agora/live-reload.js` by the dev server only, and the dev server adds one
 * `<script src>` to each HTML page it serves. Nothing of this is in `dist/`: pages built
 * by `agora build` (and served by `agora serve`) never carry it. The site's CSP allows
 * it as it is (`script-src 'self'`, `connect-src 'self'`): no inline script.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { contentType } from 'mime-types';
import { formatMessage, type Message } from '../messages.ts';
import { notFoundPage } from '../render/pages/not-found.ts';
import { emitAssets } from '../emit/assets.ts';
import { CATEGORIES } from '../types.ts';
import { PUBLISHED_TYPES } from '../validate/local-files.ts';

export const LIVE_RELOAD_SCRIPT = '/__agora/live-reload.js';
export const LIVE_RELOAD_EVENTS = '/__agora/events';
/** The SharedWorker that holds one event stream for every open page (`live-reload-worker.js`). */
const LIVE_RELOAD_WORKER = '/__agora/live-reload-worker.js';
/** The files of live reload the dev server serves, by URL path. */
const CLIENT_FILES: Record<string, string> = { [LIVE_RELOAD_SCRIPT]: './live-reload-client.js', [LIVE_RELOAD_WORKER]: './live-reload-worker.js' };
/** The post pages' view counter (`render/pages/post.ts`), left out of the pages `agora dev` serves. */
const VIEW_COUNTER = /<script src="\/assets\/views\.js"[^>]*><\/script>/;
/** The tag the dev server adds before `</body>` of each page it serves. */
export const LIVE_RELOAD_TAG = `<script src="${LIVE_RELOAD_SCRIPT}" defer></script>`;
/** A comment line to each client this often, so idle-socket timeouts never cut the stream. */
const HEARTBEAT_MS = 15_000;
/** A file copied beside a post in `dist/` (`guide/<slug>/img/a.png`): its post's page shows it. */
const BESIDE_POST = new RegExp(`^((?:${CATEGORIES.join('|')})/[^/]+)/.+\\.(?:${PUBLISHED_TYPES.join('|')})$`, 'i');
/** Most page paths one reload event lists. */
const MAX_LISTED = 2000;

/** A Node (and Express) request handler: answers, or passes to `next`. */
export type DevHandler = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

/** What the browser shows: the site is current, or the last rebuild failed with these messages. */
type Status = { kind: 'ok' } | { kind: 'error'; messages: string[] };

/** `page`'s answer for a page path with no file. */
const MISSING = '\0missing';

/** What `agora dev` shows for a missing page: the site's look, and the script that reloads it once the page is back. */
const DEV_NOT_FOUND_PAGE = notFoundPage('No page here (yet): this page reloads when one is built. Start at <a href="/">the home page</a>.', LIVE_RELOAD_TAG);

/** What a page path with no file shows while the site cannot start (no build yet, or none of this page): the messages come over it. */
const DEV_STAND_IN_PAGE = notFoundPage('<span data-agora-stand-in>The site could not be built: the messages above say why. This page loads it as soon as an edit fixes them.</span>', LIVE_RELOAD_TAG);

/** A path below `dist/` of an API mirror (`/api/…`, `/agencatalog/api/…`): JSON, never a page. */
const API_MIRROR = /^[\\/](agencatalog[\\/])?api[\\/]/;

/** Answer `DEV_NOT_FOUND_PAGE` (or, while the site cannot start, `DEV_STAND_IN_PAGE`) with a 404. */
function notFound(req: IncomingMessage, res: ServerResponse, standIn = false): void {
  res.writeHead(404, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(req.method === 'HEAD' ? undefined : standIn ? DEV_STAND_IN_PAGE : DEV_NOT_FOUND_PAGE);
}

/** The site's stylesheet and icon as the build writes them to `dist/assets/`, for a stand-in served before any build; false for another path. */
function sendBuiltInAsset(req: IncomingMessage, res: ServerResponse): boolean {
  const path = (req.url ?? '/').split('?')[0]!;
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const asset = emitAssets().find((a) => `/${a.path}` === path);
  if (!asset) return false;
  res.writeHead(200, { 'Content-Type': contentType(extname(path)) || 'application/octet-stream', 'Cache-Control': 'no-store' });
  res.end(req.method === 'HEAD' ? undefined : asset.body);
  return true;
}

export class LiveReload {
  private readonly clients = new Set<ServerResponse>();
  private status: Status = { kind: 'ok' };
  private readonly heartbeat: NodeJS.Timeout;
  private readonly scripts = new Map<string, string>();
  /** Serving the stand-in while the site cannot start (`serveWhileBroken`). */
  private standIn = false;

  /** @param distDir The folder whose HTML pages get the script tag. */
  constructor(private readonly distDir: string) {
    this.heartbeat = setInterval(() => this.send(': heartbeat\n\n'), HEARTBEAT_MS).unref();
  }

  /** Browsers connected now (tests, the dev log). */
  get connected(): number {
    return this.clients.size;
  }

  /**
   * Files of a rebuild are in `dist/`: hide any error, and reload each open page whose
   * file is among them (an edited post's page after the first half of the rebuild, the
   * lists after the second).
   *
   * @param changed Paths in `dist/` written or removed.
   */
  built(changed: readonly string[]): void {
    if (this.status.kind === 'error') this.send('event: ok\ndata: {}\n\n');
    this.status = { kind: 'ok' };
    this.rewritten(changed);
  }

  /**
   * Pages were rewritten without a content build (a comment, a moderator's change): reload
   * each open one among them, and leave any content error shown.
   *
   * @param changed Paths in `dist/` written or removed.
   */
  rewritten(changed: readonly string[]): void {
    const pages = [...new Set(changed.flatMap((p) => {
      if (p.endsWith('.html')) return [p];
      // An image or PDF beside a post saved, replaced or removed: the page showing it reloads too.
      const post = BESIDE_POST.exec(p);
      return post ? [`${post[1]}/index.html`] : [];
    }))];
    if (pages.length === 0) return;
    // A burst that rewrote thousands of pages (a template change): every page reloads.
    this.send(`event: reload\ndata: ${JSON.stringify(pages.length > MAX_LISTED ? { all: true } : { pages })}\n\n`);
  }

  /**
   * A rebuild failed: show these messages in every open page (and in pages opened
   * later) until a rebuild succeeds.
   *
   * @param messages The content errors (`ContentError.messages`), or none for another failure.
   * @param error The failure, shown when there are no messages.
   */
  failed(messages: readonly Message[], error?: unknown): void {
    const shown = messages.filter((m) => m.severity === 'error');
    this.status = { kind: 'error', messages: shown.length > 0 ? shown.map(formatMessage) : [String((error as Error)?.message ?? error)] };
    this.send(this.statusEvent());
  }

  /** The request handler the dev server mounts before the static site. */
  readonly handler: DevHandler = (req, res, next) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (path === LIVE_RELOAD_EVENTS) return this.subscribe(res);
    const clientFile = CLIENT_FILES[path];
    if (clientFile) {
      let script = this.scripts.get(path);
      if (script === undefined) this.scripts.set(path, (script = readFileSync(new URL(clientFile, import.meta.url), 'utf8')));
      res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-store' });
      return void res.end(req.method === 'HEAD' ? undefined : script);
    }
    // Only a browser's page request: agents asking for markdown get the negotiated twin.
    if (!/text\/html/.test(req.headers.accept ?? '')) return next();
    this.page(path).then((html) => {
      if (html === null) return next();
      // A page that is not there (a post deleted while its page was open) is a 404 that
      // still reloads once the page comes back.
      if (html === MISSING) return notFound(req, res, this.standIn);
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : html);
    }, next);
  };

  /** End every stream (before the server closes, which waits for open connections). */
  close(): void {
    clearInterval(this.heartbeat);
    this.disconnect();
  }

  /** End the open streams (each browser connects again, to whatever then serves the port). */
  private disconnect(): void {
    for (const res of this.clients) res.end();
    this.clients.clear();
  }

  /**
   * While the content has errors and the site cannot start, serve its port anyway: the
   * pages in `dist/` (or a stand-in) with the messages over them, so a browser shows what
   * to fix instead of "connection refused". Resolves with the function that stops it
   * (before the site takes the port), or null when the port cannot be had.
   */
  async serveWhileBroken(host: string, port: number): Promise<(() => Promise<void>) | null> {
    // The pages' stylesheet, scripts and other files come from dist/ too: the last site, with the messages over it.
    // Before any build (no dist/ yet) the stand-in still has the site's stylesheet and icon.
    const server = createServer((req, res) => this.handler(req, res, () => void this.sendFile(req, res).then((sent) => sent || sendBuiltInAsset(req, res) || notFound(req, res, true), () => notFound(req, res, true))));
    const listening = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, host, () => resolve(true));
    });
    if (!listening) return null;
    this.standIn = true;
    return async () => {
      this.standIn = false;
      this.disconnect();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    };
  }

  /**
   * While the site cannot start: answer a GET or HEAD with the file of `dist/` at the
   * path (a folder's `index.html` too), typed by its extension (the extension-less API
   * mirrors as JSON). Resolves false when there is no such file.
   */
  private async sendFile(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const file = this.distFile((req.url ?? '/').split('?')[0]!);
    if (file === null) return false;
    const found = await stat(file).then((s) => (s.isDirectory() ? stat(join(file, 'index.html')).then((i) => (i.isFile() ? join(file, 'index.html') : null)) : s.isFile() ? file : null)).catch(() => null);
    if (found === null) return false;
    const bytes = await readFile(found);
    const type = contentType(extname(found)) || (API_MIRROR.test(found.slice(this.distDir.length)) ? 'application/json; charset=utf-8' : 'application/octet-stream');
    res.writeHead(200, { 'Content-Type': type, 'Content-Length': bytes.length, 'Cache-Control': 'no-store' });
    res.end(req.method === 'HEAD' ? undefined : bytes);
    return true;
  }

  /** The file in `dist/` a URL path names, or null when it names none (undecodable, outside `dist/`). */
  private distFile(urlPath: string): string | null {
    let decoded: string;
    try {
      decoded = decodeURIComponent(urlPath);
    } catch {
      return null;
    }
    if (decoded.includes('\0')) return null;
    const file = normalize(join(this.distDir, decoded));
    return file === this.distDir || file.startsWith(this.distDir + sep) ? file : null;
  }

  private subscribe(res: ServerResponse): void {
    res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' });
    // The status at once, ok too: a page that showed errors while the site could not start
    // connects again to the started site and reloads (live-reload-client.js).
    res.write(`retry: 500\n\n${this.statusEvent()}`);
    this.clients.add(res);
    res.on('close', () => this.clients.delete(res));
  }

  private statusEvent(): string {
    return this.status.kind === 'error' ? `event: error-report\ndata: ${JSON.stringify({ messages: this.status.messages })}\n\n` : 'event: ok\ndata: {}\n\n';
  }

  private send(chunk: string): void {
    for (const res of this.clients) res.write(chunk);
  }

  /**
   * The HTML page at a URL path with the script tag added; `MISSING` for a page path
   * outside the API with no file; null when it is no page path.
   */
  private async page(urlPath: string): Promise<string | null> {
    if (!urlPath.endsWith('/') && !urlPath.endsWith('.html')) return null;
    const file = this.distFile(urlPath.endsWith('/') ? `${urlPath}index.html` : urlPath);
    if (file === null) return null;
    const info = await stat(file).catch(() => null);
    if (!info) return API_MIRROR.test(file.slice(this.distDir.length)) ? null : MISSING;
    if (!info.isFile()) return null;
    // Without the view counter: each save reloads the page, and each reload PUT a view to
    // the writer the site names (the live site's, when `writerUrl` is set).
    const html = (await readFile(file, 'utf8')).replace(VIEW_COUNTER, '');
    const at = html.lastIndexOf('</body>');
    return at === -1 ? `${html}${LIVE_RELOAD_TAG}` : `${html.slice(0, at)}${LIVE_RELOAD_TAG}${html.slice(at)}`;
  }
}
