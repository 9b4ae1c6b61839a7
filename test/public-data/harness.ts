/**
 * Test harness: the fake providers, the real catalog (or a copy with pending entries
 * switched to active), a temporary data folder, and the public-data router mounted in
 * a real Express app on 127.0.0.1 behind a minimal AppError funnel.
 */
import express, { type ErrorRequestHandler } from 'express';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { loadCatalog } from '../../packages/generator/src/catalog/load-catalog.ts';
import type { Catalog } from '../../packages/generator/src/catalog/types.ts';
import { isAppError } from '../../packages/writer/src/errors.ts';
import { createPublicDataRouter, type PublicDataRouter } from '../../packages/writer/src/public-data/router.ts';
import { openEmbeddedStore } from '../../packages/writer/src/store/embedded/index.ts';
import type { Store } from '../../packages/writer/src/store/types.ts';
import { startFakeProviders, type FakeProviders } from '../fakes/index.ts';

/** The repository's content folder. */
export const CONTENT_DIR = fileURLToPath(new URL('../../content', import.meta.url));

/** The authored catalog, loaded. */
export async function realCatalog(): Promise<Catalog> {
  const { catalog, messages } = await loadCatalog(CONTENT_DIR, 'http://agora.test');
  if (!catalog) throw new Error(`catalog did not load: ${JSON.stringify(messages)}`);
  return catalog;
}

/** The catalog with every pending_key entry switched to active (to reach law, DART, ECOS, RTMS). */
export async function activeCatalog(): Promise<Catalog> {
  const catalog = await realCatalog();
  return { ...catalog, services: catalog.services.map((s) => ({ ...s, status: 'active' as const })) };
}

/** A mounted router and its helpers. */
export interface Harness {
  base: string;
  fake: FakeProviders;
  dataDir: string;
  /** The embedded store of `dataDir`, as the writer opens it. */
  store: Store;
  publicData: PublicDataRouter;
  get(path: string, headers?: Record<string, string>): Promise<Answer>;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Answer>;
  /** Stop the app and router (the fake and data folder stay unless `final`). */
  stop(final?: boolean): Promise<void>;
}

/** A parsed answer. */
export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
  /** `body.data` of a success. */
  data: unknown;
  /** `body.source` of a success. */
  source: { provider: string; operation: string; attribution: string; fetched_at: string; cached: boolean };
  /** `body.error` of a failure. */
  error: { code: string; message: string; field?: string };
}

/** Follow keys and indexes into a parsed value; `undefined` when a step is missing. */
export function dig(value: unknown, ...path: (string | number)[]): unknown {
  let node = value;
  for (const step of path) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string | number, unknown>)[step];
  }
  return node;
}

/** Options of `startHarness`. */
export interface HarnessOptions {
  catalog?: Catalog;
  env?: Record<string, string | undefined>;
  now?: () => Date;
  fake?: FakeProviders;
  dataDir?: string;
}

const funnel: ErrorRequestHandler = (error, _req, res, _next) => {
  if (!isAppError(error)) {
    res.status(500).json({ error: { code: 'internal', message: String(error) } });
    return;
  }
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  res.status(error.status).json(error.toBody());
};

/** Start the fake (unless given), the router and an app. */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const fake = options.fake ?? (await startFakeProviders());
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'agora-public-data-')));
  const env = Object.fromEntries(Object.entries({ ...fake.env(), ...options.env }).filter((e): e is [string, string] => e[1] !== undefined));
  const store = await openEmbeddedStore(dataDir, 'server');
  const publicData = createPublicDataRouter({ catalog: options.catalog ?? (await realCatalog()), store, env, ...(options.now ? { now: options.now } : {}) });
  const app = express();
  app.set('query parser', 'simple');
  app.use(publicData.router);
  app.use(funnel);
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const answer = async (response: Response): Promise<Answer> => {
    const text = await response.text();
    const body: unknown = text ? JSON.parse(text) : {};
    return {
      status: response.status,
      headers: response.headers,
      body,
      data: dig(body, 'data'),
      source: dig(body, 'source') as Answer['source'],
      error: (dig(body, 'error') ?? { code: '', message: '' }) as Answer['error'],
    };
  };
  return {
    base,
    fake,
    dataDir,
    store,
    publicData,
    get: async (path, headers = {}) => answer(await fetch(base + path, { headers })),
    post: async (path, body, headers = {}) =>
      answer(await fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) })),
    stop: async (final = true) => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await publicData.close();
      await store.close();
      if (final) {
        if (!options.fake) await fake.close();
        if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
      }
    },
  };
}

/** URL-encode a query object. */
export function qs(params: Record<string, string>): string {
  return `?${new URLSearchParams(params).toString()}`;
}
