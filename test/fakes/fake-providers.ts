/**
 * One local HTTP server (127.0.0.1, port 0) faking all ten providers on their real
 * paths, under a prefix per provider: `/kma/1360000/VilageFcstInfoService_2.0/…`,
 * `/law/DRF/…`, `/dart/api/…`. It counts requests per provider and can be switched
 * to any error form per provider.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ERROR_FORMS, isErrorForm } from './error-forms.ts';
import { FAKE_KEYS } from './keys.ts';
import { plain, type FakeReply, type FakeRequest } from './wire.ts';
import { PROVIDER_HANDLERS, PROVIDER_PREFIXES, type FakeProviderId } from './providers/index.ts';

/** A running fake. */
export interface FakeProviders {
  origin: string;
  /** Environment pointing the writer at the fake, with working keys. */
  env(): Record<string, string>;
  /** Requests received per provider since start or `reset()`. */
  count(provider: FakeProviderId): number;
  /** Every request received (provider and path with query), oldest first. */
  log: { provider: FakeProviderId; url: string }[];
  /** Answer every request of a provider with an error form or provider mode; `null` for normal service. */
  setMode(provider: FakeProviderId, mode: string | null): void;
  /** Clear counts, log and modes. */
  reset(): void;
  close(): Promise<void>;
}

/** How long the `timeout` mode waits before answering. */
export const FAKE_DELAY_MS = 1500;

const read = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

/** Start the fake. */
export async function startFakeProviders(): Promise<FakeProviders> {
  const counts = new Map<FakeProviderId, number>();
  const modes = new Map<FakeProviderId, string>();
  const log: { provider: FakeProviderId; url: string }[] = [];
  const timers = new Set<NodeJS.Timeout>();

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const [, prefix = '', ...rest] = url.pathname.split('/');
    const provider = Object.hasOwn(PROVIDER_HANDLERS, prefix) ? (prefix as FakeProviderId) : undefined;
    if (!provider) return send(res, plain('no such provider', 404));
    counts.set(provider, (counts.get(provider) ?? 0) + 1);
    log.push({ provider, url: `/${rest.join('/')}${url.search}` });
    const mode = modes.get(provider) ?? null;
    if (mode && isErrorForm(mode)) {
      const form = ERROR_FORMS[mode]();
      if (form === 'reset') return void req.socket.destroy();
      if (form === 'endless') return endless(res);
      if (form === 'delay') {
        const timer = setTimeout(() => {
          timers.delete(timer);
          send(res, plain('late', 200));
        }, FAKE_DELAY_MS);
        timers.add(timer);
        return;
      }
      return send(res, form);
    }
    const request: FakeRequest = { method: req.method ?? 'GET', path: `/${rest.join('/')}`, query: url.searchParams, body: await read(req), mode };
    send(res, await PROVIDER_HANDLERS[provider](request));
  };
  const endless = (res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    res.write('{"response":');
    const more = () => {
      while (!res.destroyed && res.write(chunk));
      if (!res.destroyed) res.once('drain', more);
    };
    more();
  };
  const send = (res: ServerResponse, reply: FakeReply) => {
    if (res.destroyed) return;
    res.writeHead(reply.status, { 'content-type': reply.contentType, ...reply.headers });
    res.end(reply.body);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => send(res, plain(`fake crashed: ${String(error)}`, 500)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    log,
    env: () => {
      const env: Record<string, string> = {
        AGORA_DATA_GO_KR_KEY: encodeURIComponent(FAKE_KEYS.dataGoKr),
        AGORA_LAW_OC: FAKE_KEYS.law,
        AGORA_DART_KEY: FAKE_KEYS.dart,
        AGORA_ECOS_KEY: FAKE_KEYS.ecos,
        AGORA_UPSTREAM_TIMEOUT_MS: '500',
        AGORA_UPSTREAM_RETRIES: '1',
      };
      for (const [id, path] of Object.entries(PROVIDER_PREFIXES)) env[`AGORA_UPSTREAM_${id.toUpperCase()}_URL`] = `${origin}/${id}${path}`;
      return env;
    },
    count: (provider) => counts.get(provider) ?? 0,
    setMode: (provider, mode) => (mode === null ? modes.delete(provider) : modes.set(provider, mode)),
    reset: () => {
      counts.clear();
      modes.clear();
      log.length = 0;
    },
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
