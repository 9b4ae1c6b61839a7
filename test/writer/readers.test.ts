/** What the writer adds for readers: tag mirrors by name, the port check, the search index kept off comment rebuilds. */
import { test } from 'node:test';
import { eventually } from '../helpers/store.ts';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { makeProject } from '../helpers/project.ts';
import { startTestServer, serveProject, commentDoc, postComment } from '../helpers/server.ts';

test('writer for readers', async (t) => {
  const { project, server } = await serveProject(t, { samplePosts: true, searchIndex: true });

  await t.test('should serve /api/tag/{tag} for Latin and Korean keys and 404 an unknown tag', async () => {
    const res = await fetch(`${server.url}/api/tag/korean`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /application\/json/);
    assert.ok(((await res.json()) as { slug: string }[]).some((p) => p.slug === '2025-10-02-한국어-형태소-분석기-비교'));
    const missing = await fetch(`${server.url}/api/tag/no-such-tag`);
    assert.equal(missing.status, 404);
    assert.equal(((await missing.json()) as { error: { field: string } }).error.field, 'tag');
  });

  await t.test('should serve the feeds with their types', async () => {
    const atom = await fetch(`${server.url}/feed.atom`);
    assert.equal(atom.status, 200);
    assert.match(atom.headers.get('content-type') ?? '', /^application\/atom\+xml/);
    assert.equal((await fetch(`${server.url}/comments/feed.json`)).status, 200);
  });

  await t.test('should not rebuild the search index after a comment', async () => {
    const entry = join(project.config.distDir, 'pagefind', 'pagefind-entry.json');
    // The writer writes the index in the background after its start-up build.
    const before = (await eventually(() => stat(entry), 60_000)).mtimeMs;
    const slug = '2025-09-14-nginx-reverse-proxy-websocket-timeouts';
    assert.equal((await postComment(server.url, slug, commentDoc({ author: 'feed-reader' }))).status, 201);
    await server.flushAggregates();
    assert.equal((await stat(entry)).mtimeMs, before);
    assert.match(await (await fetch(`${server.url}/comments/feed.atom`)).text(), /feed-reader/);
    assert.match(await (await fetch(`${server.url}/troubleshooting/${slug}/comments.json`)).text(), /feed-reader/);
  });
});

test('a taken port', async (t) => {
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  const port = (blocker.address() as { port: number }).port;
  // The next port up is taken too (when it can be had): the message must not name it.
  const next = createServer();
  const nextTaken = await new Promise<boolean>((resolve) => next.once('error', () => resolve(false)).listen(port + 1, '127.0.0.1', () => resolve(true)));
  const project = await makeProject({ samplePosts: true, port });
  t.after(async () => {
    blocker.close();
    if (nextTaken) next.close();
    await project.remove();
  });
  await t.test('should fail before building, naming PORT as the fix', async () => {
    const started = performance.now();
    const error = await startTestServer(project).then(() => null, (e: Error) => e);
    const named = new RegExp(`Cannot listen on 127.0.0.1:${port}: the port is taken by another process\\. Port (\\d+) is free: \`-p \\1\` \\(\`agora start\`, \`serve\`, \`dev\`\\) or \`PORT=\\1 npm start\`, or stop the other process`).exec(error?.message ?? '');
    assert.ok(named, error?.message);
    // The port it names is free indeed (the next one up may be taken too).
    const suggested = Number(named[1]);
    assert.notEqual(suggested, port);
    if (nextTaken) assert.notEqual(suggested, port + 1);
    await new Promise<void>((resolve, reject) => {
      const probe = createServer().once('error', reject);
      probe.listen(suggested, '127.0.0.1', () => probe.close(() => resolve()));
    });
    assert.ok(performance.now() - started < 1000, 'failed at once, before the build');
  });
});
