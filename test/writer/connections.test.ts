import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { readdirSync } from 'node:fs';
import { createServer, get } from 'node:http';
import { makeProject } from '../helpers/project.ts';
import { startTestServer, commentDoc, API_KEY } from '../helpers/server.ts';
import { applyConnectionLimits } from '../../packages/writer/src/http/connection-limits.ts';
import { DEFAULT_LIMITS } from '../../packages/writer/src/http/limits-config.ts';

const SLUG = '2025-10-21-caddy-automatic-tls-setup';

/** A raw client: what it received, and when the server closed it (ms after `open`). */
interface Raw {
  socket: Socket;
  received: () => string;
  closed: Promise<number>;
}

function open(url: string): Promise<Raw> {
  const { hostname, port } = new URL(url);
  const started = performance.now();
  const socket = connect(Number(port), hostname);
  let data = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (data += chunk));
  socket.on('error', () => {}); // a reset is one way of being refused
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(performance.now() - started)));
  return new Promise((resolve) => socket.once('connect', () => resolve({ socket, received: () => data, closed })));
}

/** The error object of a raw JSON error answer. */
function jsonError(received: string): { code: string; message: string } {
  return (JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4)) as { error: { code: string; message: string } }).error;
}

/** A post's count as the writer's `GET /api/views` answers it (the stored counts). */
async function viewsOf(url: string, slug: string): Promise<number> {
  // Its own connection, closed after the answer: the server below allows only a few.
  const body = await new Promise<string>((resolve, reject) => {
    get(`${url}/api/views`, { agent: false, headers: { Connection: 'close' } }, (res) => {
      let data = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (data += chunk)).on('end', () => resolve(data));
    }).on('error', reject);
  });
  return (JSON.parse(body) as Record<string, number>)[slug] ?? 0;
}

/** Send one complete keep-alive GET and wait for its answer. */
async function roundTrip(raw: Raw, path: string): Promise<string> {
  const before = raw.received().length;
  raw.socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n`);
  for (let i = 0; i < 200 && !/\r\n\r\n/.test(raw.received().slice(before)); i++) await new Promise((r) => setTimeout(r, 10));
  return raw.received().slice(before).split('\r\n')[0] ?? '';
}

test('connection limits on a real server', async (t) => {
  const limits = { headersTimeoutMs: 600, requestTimeoutMs: 800, keepAliveTimeoutMs: 5000, maxConnections: 4 };
  const project = await makeProject({ samplePosts: true, files: { 'agora.config.json': JSON.stringify({ limits }) } });
  const server = await startTestServer(project);
  t.after(async () => {
    await server.close();
    await project.remove();
  });

  await t.test('should answer 408 and close a dribbled body within the request deadline', async () => {
    const raw = await open(server.url);
    const doc = commentDoc();
    raw.socket.write(`POST /api/comments/${SLUG} HTTP/1.1\r\nHost: x\r\nX-API-Key: ${API_KEY}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${doc.length}\r\n\r\n`);
    let i = 0;
    const drip = setInterval(() => raw.socket.writable && raw.socket.write(doc[i++ % doc.length] ?? 'x'), 50);
    const ms = await raw.closed;
    clearInterval(drip);
    assert.ok(ms < limits.requestTimeoutMs + 2000, `closed after ${Math.round(ms)} ms`);
    assert.match(raw.received(), /^HTTP\/1\.1 408/);
    assert.equal(jsonError(raw.received()).code, 'request_timeout');
  });

  await t.test('should answer a dribbled or broken body on /mcp as JSON-RPC, as /mcp\'s other errors', async () => {
    const head = 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n';
    const dribbled = await open(server.url);
    dribbled.socket.write(`${head}Content-Length: 100\r\n\r\n{`);
    const drip = setInterval(() => dribbled.socket.writable && dribbled.socket.write(' '), 50);
    await dribbled.closed;
    clearInterval(drip);
    const broken = await open(server.url);
    broken.socket.write(`${head}Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n`);
    await broken.closed;
    for (const [raw, status, code] of [[dribbled, 408, 'request_timeout'], [broken, 400, 'validation']] as const) {
      assert.match(raw.received(), new RegExp(`^HTTP/1\\.1 ${status} `));
      const body = JSON.parse(raw.received().slice(raw.received().indexOf('\r\n\r\n') + 4)) as { jsonrpc: string; id: null; error: { code: number; data: { code: string } } };
      assert.deepEqual({ jsonrpc: body.jsonrpc, id: body.id, code: body.error.code, writer: body.error.data.code }, { jsonrpc: '2.0', id: null, code: -32000, writer: code });
    }
    // The next request on another route is the writer's plain JSON error again.
    const plain = await open(server.url);
    plain.socket.write(`POST /api/comments/${SLUG} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n`);
    await plain.closed;
    assert.equal(jsonError(plain.received()).code, 'validation');
  });

  await t.test('should answer what Node\'s parser refuses with the JSON error shape', async () => {
    const cases: [string, number, string][] = [
      [`GET /api/posts HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'headers_too_large'],
      ['NONSENSE\r\n\r\n', 400, 'validation'],
      ['POST /api/comments/x HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n', 400, 'validation'],
      // The request line alone past the limit: the URI is too long (RFC 9110 15.5.15).
      [`GET /api/post/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 414, 'uri_too_long'],
      // No Host on HTTP/1.1: Node's own 400 had no body and none of the headers.
      ['GET /api/posts HTTP/1.1\r\nConnection: close\r\n\r\n', 400, 'validation'],
    ];
    for (const [request, status, code] of cases) {
      const raw = await open(server.url);
      raw.socket.write(request);
      await raw.closed;
      assert.match(raw.received(), new RegExp(`^HTTP/1\\.1 ${status} `), request.slice(0, 30));
      assert.match(raw.received(), /\r\ncontent-type: application\/json; charset=utf-8\r\n/i);
      // Every answer carries the security headers, these too.
      assert.match(raw.received(), /\r\nx-content-type-options: nosniff\r\n/i, request.slice(0, 30));
      assert.equal(jsonError(raw.received()).code, code, request.slice(0, 30));
    }
  });

  await t.test('should name the header at fault when Node\'s parser refuses a body\'s framing', async () => {
    // Before: `The request is not valid HTTP/1.1 (HPE_UNEXPECTED_CONTENT_LENGTH)` and no
    // `field`: a client sending two Content-Length headers was not told which header.
    const head = `POST /api/comments/${SLUG} HTTP/1.1\r\nHost: x\r\nX-API-Key: ${API_KEY}\r\nContent-Type: text/plain; charset=utf-8\r\n`;
    const cases: [string, string][] = [
      [`${head}Content-Length: 5\r\nContent-Length: 5\r\n\r\nhello`, 'Content-Length'],
      [`${head}Content-Length: 1x\r\n\r\nhello`, 'Content-Length'],
      [`${head}Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n`, 'Transfer-Encoding'],
      [`${head}Transfer-Encoding: chunked, gzip\r\n\r\nhello`, 'Transfer-Encoding'],
      [`${head}Transfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n`, 'body'],
      [`${head}Bad Header: x\r\n\r\n`, 'headers'],
    ];
    for (const [request, field] of cases) {
      const raw = await open(server.url);
      raw.socket.write(request);
      await raw.closed;
      assert.match(raw.received(), /^HTTP\/1\.1 400 /, request);
      const error = jsonError(raw.received()) as { code: string; message: string; field?: string };
      assert.deepEqual([error.code, error.field], ['validation', field], request);
      assert.match(error.message, new RegExp(`^${field} `), request);
    }
  });

  await t.test('should answer an expectation it cannot meet with 417 and the JSON error shape, counting nothing', async () => {
    // Node's own 417 had no body and none of the security headers (found sending `Expect: x` to PUT /api/views).
    const before = await viewsOf(server.url, SLUG);
    const raw = await open(server.url);
    raw.socket.write(`PUT /api/views/${SLUG} HTTP/1.1\r\nHost: x\r\nExpect: something-else\r\nConnection: close\r\n\r\n`);
    await raw.closed;
    assert.match(raw.received(), /^HTTP\/1\.1 417 /);
    assert.match(raw.received(), /\r\ncontent-type: application\/json; charset=utf-8\r\n/i);
    assert.match(raw.received(), /\r\nx-content-type-options: nosniff\r\n/i);
    const error = jsonError(raw.received()) as { code: string; field?: string };
    assert.equal(error.code, 'expectation_failed');
    assert.equal(error.field, 'Expect');
    assert.equal(await viewsOf(server.url, SLUG), before);
  });

  await t.test('should answer CONNECT with 405 and the JSON error shape, not a silent close', async () => {
    const raw = await open(server.url);
    raw.socket.write('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    await raw.closed;
    assert.match(raw.received(), /^HTTP\/1\.1 405 /);
    assert.match(raw.received(), /\r\nallow: [A-Z, ]+\r\n/i);
    assert.match(raw.received(), /\r\nx-content-type-options: nosniff\r\n/i);
    assert.equal(jsonError(raw.received()).code, 'method_not_allowed');
  });

  await t.test('should refuse a request with two Host headers (RFC 9112 3.2) and count nothing', async () => {
    const before = await viewsOf(server.url, SLUG);
    const raw = await open(server.url);
    raw.socket.write(`PUT /api/views/${SLUG} HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\nConnection: close\r\n\r\n`);
    await raw.closed;
    assert.match(raw.received(), /^HTTP\/1\.1 400 /);
    assert.match(raw.received(), /\r\nx-content-type-options: nosniff\r\n/i);
    const error = jsonError(raw.received()) as { code: string; field?: string };
    assert.equal(error.code, 'validation');
    assert.equal(error.field, 'Host');
    assert.equal(await viewsOf(server.url, SLUG), before);
  });

  await t.test('should answer a whole comment POST before refusing the bytes that follow it on the connection', async () => {
    // A POST whose Content-Length ends before the bytes sent (a careless client, or stray
    // text after the body): Node parses the rest as the next request and refuses it while
    // the comment is still being stored. The 400 went out first, as the answer to the POST,
    // the connection was closed, and the comment was stored all the same: its 201 was lost.
    const doc = commentDoc({ author: 'pipelined-after-garbage' });
    const raw = await open(server.url);
    raw.socket.write(
      `POST /api/comments/${SLUG} HTTP/1.1\r\nHost: x\r\nX-API-Key: ${API_KEY}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(doc)}\r\n\r\n${doc}GARBAGE\r\n\r\n`,
    );
    await raw.closed;
    const answers = raw.received().split(/(?=HTTP\/1\.1 \d{3} )/).map((a) => a.slice(0, 12));
    assert.deepEqual(answers, ['HTTP/1.1 201', 'HTTP/1.1 400'], raw.received().slice(0, 400));
    const stored = (await (await fetch(`${server.url}/api/comments/${SLUG}`)).json()) as { author: string }[];
    assert.equal(stored.filter((c) => c.author === 'pipelined-after-garbage').length, 1);
  });

  await t.test('should answer bytes that are no request on a kept-alive connection after its answers', async () => {
    // Before: the connection closed without a word, since bytes of an answer had been written
    // on it (the 200 of the request before, long complete), where a first request gets its 400.
    const raw = await open(server.url);
    raw.socket.write('GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n');
    const deadline = Date.now() + 5000;
    while (!/\r\n\r\n\{[\s\S]*\}$/.test(raw.received()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    raw.socket.write('GARBAGE\r\n\r\n');
    await raw.closed;
    const answers = raw.received().split(/(?=HTTP\/1\.1 \d{3} )/);
    assert.deepEqual(answers.map((a) => a.slice(0, 12)), ['HTTP/1.1 200', 'HTTP/1.1 400'], raw.received().slice(0, 600));
    const body = JSON.parse(answers[1]!.split('\r\n\r\n')[1]!) as { error: { code: string } };
    assert.equal(body.error.code, 'validation');
  });

  await t.test('should answer a kept-alive request whose body breaks its framing as a first request gets it', async () => {
    // Before: a second request on the connection whose chunked body was no chunked encoding
    // got nothing (the bytes of the 200 before it made answerRaw keep quiet), where the same
    // request first on its connection got 400 field body.
    const raw = await open(server.url);
    raw.socket.write('GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n');
    const deadline = Date.now() + 5000;
    while (!/\r\n\r\n\{[\s\S]*\}$/.test(raw.received()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    raw.socket.write(`POST /api/comments/${SLUG} HTTP/1.1\r\nHost: x\r\nX-API-Key: ${API_KEY}\r\nContent-Type: text/plain; charset=utf-8\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\nabc\r\n`);
    await raw.closed;
    const answers = raw.received().split(/(?=HTTP\/1\.1 \d{3} )/);
    assert.deepEqual(answers.map((a) => a.slice(0, 12)), ['HTTP/1.1 200', 'HTTP/1.1 400'], raw.received().slice(0, 600));
    const body = JSON.parse(answers[1]!.split('\r\n\r\n')[1]!) as { error: { code: string; field?: string } };
    assert.equal(body.error.code, 'validation');
    assert.equal(body.error.field, 'body');
  });

  await t.test('should serve the requests pipelined on one connection one at a time, not all at once', async () => {
    // Node hands over every request of a read together: a client pipelining GETs of a big
    // file without reading the answers had each one open its file and buffer it (20 such
    // connections: 1.5 GB and a 15 s wait for every other client). Its open files tell.
    const openFiles = () => readdirSync('/proc/self/fd').length;
    const before = openFiles();
    const raw = await open(server.url);
    raw.socket.pause();
    raw.socket.write('GET /openapi.json HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(300));
    await new Promise((r) => setTimeout(r, 800));
    const during = openFiles() - before;
    const other = await fetch(`${server.url}/api/health`, { headers: { Connection: 'close' } });
    raw.socket.destroy();
    assert.equal(other.status, 200);
    assert.ok(during < 20, `${during} files open for one pipelining connection`);
  });

  await t.test('should close a connection whose headers dribble within the header deadline', async () => {
    const raw = await open(server.url);
    raw.socket.write('GET / HTTP/1.1\r\n');
    const drip = setInterval(() => raw.socket.writable && raw.socket.write('X-Slow: 1\r\n'), 50);
    const ms = await raw.closed;
    clearInterval(drip);
    assert.ok(ms < limits.headersTimeoutMs + 2000, `closed after ${Math.round(ms)} ms`);
  });

  await t.test('should refuse connections past the cap and keep serving the open ones', async () => {
    const held = await Promise.all(Array.from({ length: limits.maxConnections }, () => open(server.url)));
    for (const raw of held) assert.match(await roundTrip(raw, '/api/health'), /^HTTP\/1\.1 200/);
    const extra = await open(server.url);
    await extra.closed;
    assert.equal(extra.received(), '', 'closed without an answer');
    assert.match(await roundTrip(held[0]!, '/api/health'), /^HTTP\/1\.1 200/, 'an open connection still works');
    held[1]!.socket.destroy();
    await held[1]!.closed;
    // The server counts the closed socket down on its own close event.
    let status = '';
    for (let attempt = 0; attempt < 20 && !status.startsWith('HTTP/1.1 200'); attempt++) {
      const fresh = await open(server.url);
      status = await roundTrip(fresh, '/api/health');
      fresh.socket.destroy();
    }
    assert.match(status, /^HTTP\/1\.1 200/, 'a slot freed is usable again');
    for (const raw of held) raw.socket.destroy();
  });
});

test('applyConnectionLimits', async (t) => {
  await t.test('should refuse a server that already listens, saying when to call it', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.after(() => server.close());
    assert.throws(() => applyConnectionLimits(server, DEFAULT_LIMITS), /Cannot `applyConnectionLimits` on a server that is already listening; call it right after `listen\(\)`/);
  });
  await t.test('should set the documented defaults', () => {
    const server = createServer();
    applyConnectionLimits(server, DEFAULT_LIMITS);
    assert.equal(server.headersTimeout, 10_000);
    assert.equal(server.requestTimeout, 10_000);
    assert.equal(server.keepAliveTimeout, 5_000);
    assert.equal(server.timeout, 60_000);
    assert.equal(server.maxConnections, 1000);
  });
});
