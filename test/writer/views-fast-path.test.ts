/**
 * `PUT /api/views/{slug}` in its plain form is served before Express (`routes/views.ts`):
 * it must answer exactly as the Express route does, and leave every other form to it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { Writable } from 'node:stream';
import { connect, type Socket } from 'node:net';
import { pino } from 'pino';
import { startServer } from '@agora/writer';
import { serveProject } from '../helpers/server.ts';
import { makeProject } from '../helpers/project.ts';
import { viewsFastPath } from '../../packages/writer/src/routes/views.ts';
import { ViewCounter } from '../../packages/writer/src/views/view-counter.ts';

const SLUG = '2025-10-21-caddy-automatic-tls-setup';
/** The same slug with its first character escaped: Express decodes it, the fast path leaves it. */
const ESCAPED = `%${SLUG.charCodeAt(0).toString(16)}${SLUG.slice(1)}`;
/** Headers whose values differ from one answer to the next. */
const VARYING = new Set(['date', 'content-length', 'ratelimit', 'keep-alive', 'connection']);

function fixedHeaders(res: Response): Record<string, string> {
  const fixed: Record<string, string> = {};
  res.headers.forEach((value, name) => void (VARYING.has(name) || (fixed[name] = value)));
  return fixed;
}

test('views fast path', async (t) => {
  const { server } = await serveProject(t, { samplePosts: true });
  const put = (path: string, init: RequestInit = {}) => fetch(`${server.url}/api/views/${path}`, { method: 'PUT', ...init });

  await t.test('should answer as the Express route does: same status, headers and body shape, one count each', async () => {
    const fast = await put(SLUG);
    const viaExpress = await put(ESCAPED);
    assert.equal(fast.status, 200);
    assert.equal(viaExpress.status, 200);
    const a = (await fast.json()) as { views: number };
    const b = (await viaExpress.json()) as { views: number };
    assert.equal(b.views, a.views + 1, 'both forms count the same post');
    assert.deepEqual(fixedHeaders(fast), fixedHeaders(viaExpress));
    for (const name of ['content-security-policy', 'x-content-type-options', 'access-control-allow-origin', 'ratelimit-policy']) {
      assert.ok(fast.headers.get(name), `${name} on the fast path`);
    }
  });

  await t.test('should take a trailing slash and a query, and leave HEAD, OPTIONS and unknown slugs to Express', async () => {
    const before = ((await (await put(SLUG)).json()) as { views: number }).views;
    assert.equal(((await (await put(`${SLUG}/`)).json()) as { views: number }).views, before + 1);
    assert.equal(((await (await put(`${SLUG}?ref=feed`)).json()) as { views: number }).views, before + 2);
    const unknown = await put('2020-01-01-nothing-here');
    assert.equal(unknown.status, 404);
    assert.deepEqual(((await unknown.json()) as { error: { code: string; field: string } }).error, { code: 'not_found', message: 'No post with slug "2020-01-01-nothing-here"', field: 'slug' });
    assert.ok(unknown.headers.get('content-security-policy'));
    const head = await fetch(`${server.url}/api/views/${SLUG}`, { method: 'HEAD' });
    assert.equal(head.status, 405);
    assert.equal(head.headers.get('allow'), 'PUT, OPTIONS');
  });

  const views = async () => ((await (await fetch(`${server.url}/api/views`)).json()) as Record<string, number>)[SLUG] ?? 0;
  /** Send raw bytes on a fresh connection; resolves with what came back once it closes (or after `waitMs`). */
  const raw = (bytes: string, waitMs = 2000) =>
    new Promise<{ socket: Socket; received: () => string; closed: Promise<void> }>((resolve) => {
      const { hostname, port } = new URL(server.url);
      const socket = connect(Number(port), hostname, () => {
        socket.write(bytes);
        resolve({ socket, received: () => data, closed });
      });
      let data = '';
      socket.setEncoding('utf8').on('data', (chunk: string) => (data += chunk)).on('error', () => {});
      const closed = new Promise<void>((done) => {
        socket.once('close', () => done());
        setTimeout(done, waitMs).unref();
      });
    });

  await t.test('should count nothing for a PUT whose body framing is refused with 400', async () => {
    // The count was stored as soon as the headers were read: the 400 for the body came
    // after it, so the client was told its request was invalid and the view was counted
    // all the same (found sending a chunked PUT with a bad chunk size to a running writer).
    for (const path of [SLUG, ESCAPED]) {
      const before = await views();
      const client = await raw(`PUT /api/views/${path} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n`);
      await client.closed;
      assert.match(client.received(), /^HTTP\/1\.1 400 /, path);
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(await views(), before, `${path}: nothing counted`);
    }
  });

  await t.test('should count a PUT that sends a body once the body has arrived', async () => {
    for (const path of [SLUG, ESCAPED]) {
      const before = await views();
      const client = await raw(`PUT /api/views/${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n`);
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(client.received(), '', `${path}: no answer before the body`);
      assert.equal(await views(), before, `${path}: not counted before the body`);
      client.socket.write('{}');
      await client.closed;
      assert.match(client.received(), /^HTTP\/1\.1 200 /, path);
      assert.equal(await views(), before + 1, path);
    }
  });
});

test('views fast path: which requests it takes', async (t) => {
  // The real route with a fallback that answers 418: whatever the fast path leaves shows as 418.
  const { server } = await serveProject(t, { samplePosts: true });
  const views = await ViewCounter.open({ load: async () => new Map(), add: async (batch) => new Map(batch) });
  t.after(() => views.close());
  const fast = viewsFastPath({ state: server.state, views, headers: [['X-Fast', '1']], address: () => 'client', charge: async () => {}, log: null, logger: pino({ level: 'silent' }) });
  const plain: Server = createServer((req, res) => void (fast(req, res) || res.writeHead(418).end()));
  await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => plain.close(() => resolve())));
  const url = `http://127.0.0.1:${(plain.address() as { port: number }).port}`;
  const status = async (method: string, path: string) => (await fetch(url + path, { method })).status;

  assert.equal(await status('PUT', `/api/views/${SLUG}`), 200);
  assert.equal(await status('PUT', `/api/views/${SLUG}/?x=1`), 200);
  assert.equal(await status('PUT', `/api/views/${ESCAPED}`), 418);
  assert.equal(await status('PUT', '/api/views/2020-01-01-nothing-here'), 418);
  assert.equal(await status('PUT', `/api/views/${SLUG}/more`), 418);
  assert.equal(await status('PUT', '/api/views/'), 418);
  assert.equal(await status('POST', `/api/views/${SLUG}`), 418);
  assert.equal(await status('GET', `/api/views`), 418);
});

test('views fast path: one request log line per answer, as for other routes', async (t) => {
  const lines: { msg: string; method?: string; url?: string; status?: number }[] = [];
  const sink = new Writable({ write(chunk, _enc, done) { for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line)); done(); } });
  const project = await makeProject({ samplePosts: true });
  const server = await startServer({ config: project.config, env: { AGORA_VIEWS_FLUSH_MS: '100' }, logger: pino({ level: 'info' }, sink), handleSignals: false });
  t.after(async () => {
    await server.close();
    await project.remove();
  });
  assert.equal((await fetch(`${server.url}/api/views/${SLUG}`, { method: 'PUT' })).status, 200);
  const logged = lines.filter((l) => l.msg === 'request' && l.method === 'PUT');
  assert.deepEqual(logged.map((l) => [l.url, l.status]), [[`/api/views/${SLUG}`, 200]]);
});

test('GET /api/views from the writer shows a counted view at once, in the mirror\'s bytes', async (t) => {
  // Views flushed to the store and the mirror only after ten minutes here.
  const { project, server } = await serveProject(t, { samplePosts: true }, { AGORA_VIEWS_FLUSH_MS: '600000' });
  const views = async () => (await (await fetch(`${server.url}/api/views`)).json()) as Record<string, number>;
  const before = (await views())[SLUG]!;
  for (let i = 1; i <= 3; i++) {
    const answer = (await (await fetch(`${server.url}/api/views/${SLUG}`, { method: 'PUT' })).json()) as { views: number };
    assert.equal(answer.views, before + i);
    assert.equal((await views())[SLUG], before + i, 'the count the PUT answered');
  }
  // Once the counts are flushed and the mirror follows, the file holds the same bytes.
  await server.flushAggregates();
  const { readFile } = await import('node:fs/promises');
  const { join } = await import('node:path');
  assert.equal(await (await fetch(`${server.url}/api/views`)).text(), await readFile(join(project.config.distDir, 'api', 'views'), 'utf8'));
});
