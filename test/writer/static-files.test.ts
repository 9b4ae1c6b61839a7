/**
 * Static files are served whole while a rebuild replaces them (a rename into place):
 * the length, the ETag and the bytes all come from one open file. Before, the file was
 * stat'ed and opened by path separately, and a rename in between sent the old length
 * with the new bytes (a cut-off `/api/views` under load).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { writeFileAtomic } from '@agora/generator';
import { serveProject } from '../helpers/server.ts';
import { createPool, send } from '../helpers/http.ts';

test('static files while they are replaced', async (t) => {
  const { project, server } = await serveProject(t, { samplePosts: true });
  // A file no rebuild of the server writes, so only the two versions below are ever there.
  const file = join(project.config.distDir, 'api', 'race-test');
  // Two versions of very different lengths, swapped by rename as fast as the disk allows.
  const versions = [JSON.stringify({ a: 1 }), JSON.stringify(Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`post-${i}`, i])))];
  await writeFileAtomic(file, versions[0]!);
  let swapping = true;
  const swapper = (async () => {
    for (let i = 0; swapping; i++) await writeFileAtomic(file, versions[i % 2]!);
  })();
  const pool = createPool(16);
  t.after(() => pool.destroy());
  const answers = await Promise.all(Array.from({ length: 1500 }, () => send(pool, `${server.url}/api/race-test`, 'GET')));
  swapping = false;
  await swapper;

  await t.test('should send every answer whole: one of the versions, with its own length', () => {
    for (const answer of answers) {
      assert.equal(answer.status, 200);
      assert.ok(versions.includes(answer.body), `a whole version, not ${answer.body.length} bytes: ${answer.body.slice(0, 40)}…`);
      assert.equal(Number(answer.headers['content-length']), Buffer.byteLength(answer.body));
    }
  });

  await t.test('should answer 304 to a matching ETag, 404 for a hidden temporary file, 403 for ..', async () => {
    const first = await fetch(`${server.url}/llms.txt`);
    const tag = first.headers.get('etag')!;
    await first.arrayBuffer();
    // Not with fetch: a conditional fetch adds `Cache-Control: no-cache`, which asks for the body.
    assert.equal((await send(pool, `${server.url}/llms.txt`, 'GET', undefined, { 'If-None-Match': tag })).status, 304);
    await writeFileAtomic(join(project.config.distDir, '.hidden.1.tmp'), 'temp');
    assert.equal((await fetch(`${server.url}/.hidden.1.tmp`)).status, 404);
    assert.equal((await fetch(`${server.url}/tags/%2E%2E%2F..%2Fpackage.json`)).status, 403);
    const folder = await fetch(`${server.url}/tags`, { redirect: 'manual' });
    assert.equal(folder.status, 301);
    assert.equal(folder.headers.get('location'), '/tags/');
    // Leading slashes collapsed: `Location: //tags/` is the host `tags` to a browser.
    for (const path of ['//tags', '///tags']) {
      const answer = await send(pool, `${server.url}${path}`, 'GET');
      assert.deepEqual([answer.status, answer.headers.location], [301, '/tags/'], path);
    }
    // Both feed formats: their charset, and readable from other sites' scripts like the JSON Feed.
    for (const path of ['/feed.atom', '/comments/feed.atom', '/feed.json', '/comments/feed.json']) {
      const res = await fetch(`${server.url}${path}`);
      assert.match(res.headers.get('content-type') ?? '', /charset=utf-8/, path);
      // Each format's own media type (the JSON Feed was served as plain application/json).
      assert.match(res.headers.get('content-type') ?? '', path.endsWith('.atom') ? /^application\/atom\+xml;/ : /^application\/feed\+json;/, path);
      assert.equal(res.headers.get('access-control-allow-origin'), '*', path);
    }
    // A folder with no page of its own is a 404 as it is, not a redirect to another 404.
    for (const path of ['/api/post', '/api/comments']) {
      const res = await fetch(`${server.url}${path}`, { redirect: 'manual' });
      assert.equal(res.status, 404, path);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'not_found');
    }
  });
});
