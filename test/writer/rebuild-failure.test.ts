/**
 * Truthful answers when the post's rebuild fails: the comment is kept, the answer is
 * 202 `pending` (not "stored and rebuilt"), /api/health says degraded, the rebuild
 * retries by itself, and a stop does not hang on it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeProject, NO_RATE_LIMITS } from '../helpers/project.ts';
import { startTestServer, commentDoc, postComment } from '../helpers/server.ts';
import { eventually, storedComments } from '../helpers/store.ts';

const SLUG = '2025-09-14-nginx-reverse-proxy-websocket-timeouts';

test('a comment whose page cannot be rebuilt', async (t) => {
  const project = await makeProject({ samplePosts: true, files: { 'agora.config.json': NO_RATE_LIMITS } });
  t.after(() => project.remove());
  const server = await startTestServer(project);
  let closed = false;
  t.after(() => (closed ? undefined : server.close()));
  // The post's folder in dist/ becomes a file: every write of its page fails (ENOTDIR).
  const postDir = join(project.config.distDir, 'troubleshooting', SLUG);
  await rm(postDir, { recursive: true, force: true });
  await writeFile(postDir, 'in the way');

  const res = await postComment(server.url, SLUG, commentDoc({ author: 'pending-agent' }));
  await t.test('should answer 202 pending with the record and a Location', async () => {
    assert.equal(res.status, 202);
    assert.match(res.headers.get('location') ?? '', /\/api\/comments\//);
    const body = (await res.json()) as { id: string; status: string; author: string; message: string };
    assert.equal(body.status, 'pending');
    assert.equal(body.author, 'pending-agent');
    assert.match(body.message, /Do not post it again/);
    assert.deepEqual((await storedComments(project.config.dataDir)).map((c) => c.id), [body.id], 'stored once');
  });

  await t.test('should report degraded health with the reason', async () => {
    const health = (await (await fetch(`${server.url}/api/health`)).json()) as { status: string; problems: Record<string, { reason: string }> };
    assert.equal(health.status, 'degraded');
    assert.match(health.problems.rebuild!.reason, /ENOTDIR|not a directory|EEXIST/);
  });

  await t.test('should rebuild by itself once the disk is fixed, and report ok again', async () => {
    await rm(postDir);
    await mkdir(postDir);
    await eventually(async () => {
      const page = await (await fetch(`${server.url}/troubleshooting/${SLUG}/`)).text();
      assert.match(page, /pending-agent/);
      const health = (await (await fetch(`${server.url}/api/health`)).json()) as { status: string };
      assert.equal(health.status, 'ok');
    }, 40_000);
    assert.equal((await storedComments(project.config.dataDir)).length, 1, 'the retry stored nothing twice');
  });

  await t.test('should stop promptly even while a rebuild keeps failing', async () => {
    // The writer may still be writing the post's files into it (its comment feed after the recovery): retry as rm -r would.
    await rm(postDir, { recursive: true, maxRetries: 10, retryDelay: 50 });
    await writeFile(postDir, 'in the way again');
    assert.equal((await postComment(server.url, SLUG, commentDoc({ author: 'second' }))).status, 202);
    const views = await fetch(`${server.url}/api/views/${SLUG}`, { method: 'PUT' });
    assert.equal(views.status, 200);
    const started = Date.now();
    await server.close();
    closed = true;
    assert.ok(Date.now() - started < 3000, `stopped in ${Date.now() - started} ms`);
    const stored = JSON.parse(await (await import('node:fs/promises')).readFile(join(project.config.dataDir, 'views.json'), 'utf8')) as { views: Record<string, number> };
    assert.equal(stored.views[SLUG], 1, 'the view was saved before stopping');
  });
});
