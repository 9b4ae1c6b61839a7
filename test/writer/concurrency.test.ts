import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeProject, NO_RATE_LIMITS } from '../helpers/project.ts';
import { startTestServer, commentDoc, API_KEY } from '../helpers/server.ts';
import { createPool, send } from '../helpers/http.ts';
import { eventually, storedComments } from '../helpers/store.ts';

const SLUGS = ['2025-09-14-nginx-reverse-proxy-websocket-timeouts', '2025-08-19-should-agents-write-tests-first', 'postgres-connection-pooling-pgbouncer', '2025-10-02-한국어-형태소-분석기-비교'];

test('writer under load, and across a restart', async (t) => {
  const project = await makeProject({ samplePosts: true, files: { 'agora.config.json': NO_RATE_LIMITS } });
  let server = await startTestServer(project);
  t.after(async () => {
    await server.close();
    await project.remove();
  });
  const pool = createPool(64);
  t.after(() => pool.destroy());

  await t.test('should store and show 200 concurrent comments', async () => {
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        send(pool, `${server.url}/api/comments/${encodeURIComponent(SLUGS[i % SLUGS.length]!)}`, 'POST', commentDoc({ author: `agent-${i}` }, `Concurrent comment number ${i} with enough text.`), { 'X-API-Key': API_KEY, 'Content-Type': 'text/plain; charset=utf-8' }),
      ),
    );
    assert.deepEqual(results.filter((r) => r.status !== 201).map((r) => r.status), []);
    assert.equal((await storedComments(project.config.dataDir)).length, 200);
    let total = 0;
    for (const slug of SLUGS) {
      const list = (await (await fetch(`${server.url}/api/comments/${encodeURIComponent(slug)}`)).json()) as { author: string }[];
      assert.equal(list.length, 50);
      total += list.length;
    }
    assert.equal(total, 200);
    await eventually(async () => {
      const count = (await (await fetch(`${server.url}/api/comments/count`)).json()) as { total: number };
      assert.equal(count.total, 200);
      const page = await (await fetch(`${server.url}/comments/`)).text();
      // One model group: its total, and its newest 50 comments (the page stays bounded).
      assert.match(page, /<span class="count">200<\/span>/);
      assert.equal(new Set(page.match(/agent-\d+</g)).size, 50);
    }, 2000);
  });

  await t.test('should count 10,000 concurrent views on one slug exactly', async () => {
    const slug = SLUGS[0]!;
    const results = await Promise.all(Array.from({ length: 10_000 }, () => send(pool, `${server.url}/api/views/${slug}`, 'PUT')));
    assert.equal(results.filter((r) => r.status !== 200).length, 0);
    const seen = results.map((r) => (JSON.parse(r.body) as { views: number }).views).sort((a, b) => a - b);
    assert.equal(seen[0], 1);
    assert.equal(seen.at(-1), 10_000);
    assert.equal(new Set(seen).size, 10_000, 'every answer is a distinct count');
    // The writer's /api/views answers from memory: at once.
    assert.equal(((await (await fetch(`${server.url}/api/views`)).json()) as Record<string, number>)[slug], 10_000);
    const deadline = Date.now() + 2000;
    let mirrored = 0;
    while (Date.now() < deadline) {
      mirrored = ((await (await fetch(`${server.url}/api/post/${slug}`)).json()) as { views: number }).views;
      if (mirrored === 10_000) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(mirrored, 10_000, 'the post record follows within two seconds');
    assert.equal((JSON.parse(await readFile(join(project.config.distDir, 'api', 'views'), 'utf8')) as Record<string, number>)[slug], 10_000, 'and the static /api/views');
  });

  await t.test('should keep every comment and view after a restart', async () => {
    const slug = SLUGS[1]!;
    const last = await send(pool, `${server.url}/api/views/${encodeURIComponent(slug)}`, 'PUT');
    assert.equal(last.status, 200);
    await server.close();
    server = await startTestServer(project);
    const views = (await (await fetch(`${server.url}/api/views`)).json()) as Record<string, number>;
    assert.equal(views[SLUGS[0]!], 10_000);
    assert.equal(views[slug], 1);
    const count = (await (await fetch(`${server.url}/api/comments/count`)).json()) as { total: number };
    assert.equal(count.total, 200);
    const next = (await (await fetch(`${server.url}/api/views/${SLUGS[0]}`, { method: 'PUT' })).json()) as { views: number };
    assert.equal(next.views, 10_001);
  });

  await t.test('should answer 404 for views of an unknown post and store nothing', async () => {
    const res = await fetch(`${server.url}/api/views/no-such-post`, { method: 'PUT' });
    assert.equal(res.status, 404);
    assert.equal(((await res.json()) as { error: { field: string } }).error.field, 'slug');
    await server.close();
    const stored = JSON.parse(await readFile(join(project.config.dataDir, 'views.json'), 'utf8')) as { views: Record<string, number> };
    assert.equal(stored.views['no-such-post'], undefined);
    server = await startTestServer(project);
  });
});
