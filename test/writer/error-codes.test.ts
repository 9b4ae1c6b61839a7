/** The writer's error codes, as sent and as documented, and the errors of body parsers, the router and unknown names mapped to them. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AppError, ERROR_CODES, answerFor } from '../../packages/writer/src/errors.ts';
import type { Logger } from 'pino';
import { ERROR_CODES as DOCUMENTED } from '../../packages/generator/src/emit/openapi/schemas.ts';
import { serveProject, API_KEY, commentDoc } from '../helpers/server.ts';

test('openapi.json documents every error code the writer sends, and no other', () => {
  assert.deepEqual([...DOCUMENTED].sort(), Object.keys(ERROR_CODES).sort());
});

test('a server-side failure is logged with what its client was told; a client\'s mistake is not', () => {
  // The request log showed only a 503: a wrong provider key and a provider outage looked the same.
  const lines: { level: string; fields: Record<string, unknown> }[] = [];
  const logger = { warn: (fields: Record<string, unknown>) => lines.push({ level: 'warn', fields }), error: (fields: Record<string, unknown>) => lines.push({ level: 'error', fields }) } as unknown as Logger;
  answerFor(new AppError('upstream_unavailable', 'The provider refused this server\'s key; check KMA_SERVICE_KEY'), '/api/weather?lat=37', logger);
  answerFor(new AppError('upstream_timeout', 'The provider did not answer within 10000 ms'), '/api/tour', logger);
  answerFor(new AppError('validation', 'query/lat is required', { field: 'lat' }), '/api/weather', logger);
  answerFor(new AppError('starting', 'The writer is starting'), '/api/comments/x', logger);
  answerFor(new Error('a bug'), '/api/posts', logger);
  assert.deepEqual(lines.map((l) => [l.level, l.fields.code ?? 'bug', l.fields.url]), [
    ['warn', 'upstream_unavailable', '/api/weather?lat=37'],
    ['warn', 'upstream_timeout', '/api/tour'],
    ['error', 'bug', '/api/posts'],
  ]);
  assert.match(String(lines[0]!.fields.detail), /check KMA_SERVICE_KEY/);
});

test('a store failure whose outcome is unknown does not say nothing was stored', async () => {
  const { storeFailure } = await import('../../packages/writer/src/errors.ts');
  const { StoreError } = await import('../../packages/writer/src/store/types.ts');
  assert.match(storeFailure(new StoreError('unavailable', 'down'))!.message, /nothing was stored/);
  const unknown = storeFailure(new StoreError('unavailable', 'lost', { outcome: 'unknown' }))!;
  assert.deepEqual([unknown.status, unknown.code], [503, 'store_unavailable']);
  assert.doesNotMatch(unknown.message, /nothing was stored/);
  assert.match(unknown.message, /whether it was stored is not known/);
});

test('body decoding and path decoding errors name what is at fault', async (t) => {
  const { server } = await serveProject(t, { samplePosts: true });
  const slug = '2025-10-21-caddy-automatic-tls-setup';
  const post = (headers: Record<string, string>) =>
    fetch(`${server.url}/api/comments/${slug}`, { method: 'POST', headers: { 'X-API-Key': API_KEY, 'Content-Type': 'text/plain; charset=utf-8', ...headers }, body: commentDoc() });
  const error = async (res: Response) => [res.status, ((await res.json()) as { error: { code: string; field?: string; message: string } }).error] as const;

  await t.test('should name Content-Encoding when it is unknown or does not match the bytes', async () => {
    const [status, unknown] = await error(await post({ 'Content-Encoding': 'zstdx' }));
    assert.deepEqual([status, unknown.code, unknown.field], [415, 'unsupported_media_type', 'Content-Encoding']);
    assert.match(unknown.message, /Content-Encoding "zstdx" is not supported/);
    for (const encoding of ['gzip', 'deflate', 'br']) {
      const [s, e] = await error(await post({ 'Content-Encoding': encoding }));
      assert.deepEqual([s, e.code, e.field], [400, 'validation', 'Content-Encoding'], encoding);
      assert.match(e.message, /could not be decoded as its Content-Encoding says/);
    }
  });

  await t.test('should name Content-Encoding for every Brotli stream that does not decode', async () => {
    // A corrupt Brotli stream fails with codes such as ERR__ERROR_FORMAT_PADDING_2, not
    // Z_…: those answered a bare "Bad request" with no field, here and on /mcp and the proxy.
    for (const body of ['{}', 'x'.repeat(40), '\u00ff\u00fe garbage']) {
      const res = await fetch(`${server.url}/api/comments/${slug}`, { method: 'POST', headers: { 'X-API-Key': API_KEY, 'Content-Type': 'text/plain; charset=utf-8', 'Content-Encoding': 'br' }, body });
      const [s, e] = await error(res);
      assert.deepEqual([s, e.code, e.field], [400, 'validation', 'Content-Encoding'], JSON.stringify(body));
      assert.match(e.message, /could not be decoded as its Content-Encoding says/);
      const mcp = await fetch(`${server.url}/mcp`, { method: 'POST', headers: { Accept: 'application/json, text/event-stream', 'Content-Type': 'application/json', 'Content-Encoding': 'br' }, body });
      assert.equal(mcp.status, 400);
      assert.match(((await mcp.json()) as { error: { message: string } }).error.message, /could not be decoded as its Content-Encoding says/, JSON.stringify(body));
    }
  });

  await t.test('should list the categories for an unknown one, and serve a known one', async () => {
    const [s, e] = await error(await fetch(`${server.url}/api/category/nope`));
    assert.deepEqual([s, e.code, e.field], [404, 'not_found', 'cat']);
    assert.equal(e.message, 'No category "nope"; the categories are reviews, setups, knowhow, troubleshooting, guide, stories, debates');
    const known = await fetch(`${server.url}/api/category/setups`);
    assert.equal(known.status, 200);
    assert.ok(((await known.json()) as { category: string }[]).every((p) => p.category === 'setups'));
  });

  await t.test('should say a path is not valid percent-encoding under /api/ too', async () => {
    for (const [method, path] of [['GET', '/api/post/%E0%A4%A'], ['PUT', '/api/views/%FF'], ['GET', '/api/comments/%FF']] as const) {
      const [s, e] = await error(await fetch(server.url + path, { method }));
      assert.deepEqual([s, e.code, e.field, e.message], [400, 'validation', 'path', 'The path is not valid percent-encoding'], path);
    }
  });
});
