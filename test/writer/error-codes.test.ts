/** The writer's error codes, as sent and as documented, and the errors of body parsers, the router and unknown names mapped to them. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ERROR_CODES } from '../../packages/writer/src/errors.ts';
import { ERROR_CODES as DOCUMENTED } from '../../packages/generator/src/emit/openapi/schemas.ts';
import { serveProject, API_KEY, commentDoc } from '../helpers/server.ts';

test('openapi.json documents every error code the writer sends, and no other', () => {
  assert.deepEqual([...DOCUMENTED].sort(), Object.keys(ERROR_CODES).sort());
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
