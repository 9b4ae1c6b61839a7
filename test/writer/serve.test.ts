import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { makeProject, postSource } from '../helpers/project.ts';
import { API_KEY, commentDoc, startTestServer } from '../helpers/server.ts';
import { createPool, send } from '../helpers/http.ts';

const KOREAN = '2025-10-02-한국어-형태소-분석기-비교';

test('agora serve', async (t) => {
  const project = await makeProject({ samplePosts: true, catalog: true, files: { 'content/posts/slash-model.md': postSource({ model: 'meta/llama-3' }) } });
  const server = await startTestServer(project);
  t.after(async () => {
    await server.close();
    await project.remove();
  });
  const get = (path: string, init?: RequestInit) => fetch(server.url + path, init);
  const pool = createPool(4);
  t.after(() => pool.destroy());

  const types: [string, RegExp][] = [
    ['/', /^text\/html; charset=utf-8$/],
    ['/reviews/', /^text\/html; charset=utf-8$/],
    [`/reviews/${encodeURIComponent(KOREAN)}/`, /^text\/html; charset=utf-8$/],
    [`/reviews/${encodeURIComponent(KOREAN)}/post.md`, /^text\/plain; charset=utf-8$/],
    ['/api/posts', /^application\/json; charset=utf-8$/],
    [`/api/post/${encodeURIComponent(KOREAN)}`, /^application\/json; charset=utf-8$/],
    ['/api/category/guide', /^application\/json; charset=utf-8$/],
    ['/api/model/gpt-5', /^application\/json; charset=utf-8$/],
    ['/api/model/Claude%20Opus%204.1', /^application\/json; charset=utf-8$/],
    ['/api/comments/count', /^application\/json; charset=utf-8$/],
    [`/api/comments/${encodeURIComponent(KOREAN)}`, /^application\/json; charset=utf-8$/],
    ['/api/views', /^application\/json; charset=utf-8$/],
    ['/llms.txt', /^text\/plain; charset=utf-8$/],
    ['/llms-full.txt', /^text\/plain; charset=utf-8$/],
    ['/robots.txt', /^text\/plain; charset=utf-8$/],
    ['/sitemap.xml', /^application\/xml; charset=utf-8$/],
    ['/openapi.json', /^application\/json; charset=utf-8$/],
    ['/comments/', /^text\/html; charset=utf-8$/],
    ['/debates/', /^text\/html; charset=utf-8$/],
    ['/agencatalog/', /^text\/html; charset=utf-8$/],
    ['/agencatalog/catalog.json', /^application\/json; charset=utf-8$/],
    ['/assets/site.css', /^text\/css; charset=utf-8$/],
  ];
  for (const [path, type] of types) {
    await t.test(`should serve ${decodeURIComponent(path)} with its content type, ETag and Cache-Control`, async () => {
      const res = await get(path);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', type);
      const etag = res.headers.get('etag');
      assert.ok(etag, 'ETag');
      assert.match(res.headers.get('cache-control') ?? '', /max-age=/);
      // fetch() adds `Cache-Control: no-cache` to conditional requests, so ask with node:http.
      const again = await send(pool, server.url + path, 'GET', undefined, { 'If-None-Match': etag });
      assert.equal(again.status, 304);
    });
  }

  await t.test('should answer JSON 404s under /api/', async () => {
    for (const path of ['/api/model/no-such-model', '/api/post/nope', '/api/comments/nope', '/api/nothing', '/api/category/news']) {
      const res = await get(path);
      assert.equal(res.status, 404, path);
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'not_found');
    }
  });

  await t.test('should answer a 404 outside the API as JSON, and as a page only to a client that asks for HTML', async () => {
    for (const accept of [undefined, '*/*', 'application/json', 'text/markdown, */*;q=0.1']) {
      const res = await send(pool, `${server.url}/nope/`, 'GET', undefined, accept ? { Accept: accept } : {});
      assert.equal(res.status, 404, String(accept));
      assert.match(String(res.headers['content-type']), /^application\/json/, `Accept ${accept}`);
      assert.equal((JSON.parse(res.body) as { error: { code: string } }).error.code, 'not_found');
    }
    const browser = await send(pool, `${server.url}/nope/`, 'GET', undefined, { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' });
    assert.equal(browser.status, 404);
    assert.match(String(browser.headers['content-type']), /^text\/html/);
    // The site's icon, as every page names it: without it the browser asked for /favicon.ico, a second 404.
    assert.match(browser.body, /<link rel="icon" href="\/assets\/icon\.svg"/);
    assert.equal((await send(pool, `${server.url}/assets/icon.svg`, 'GET')).status, 200);
  });

  await t.test('should find a model with a slash by either encoding', async () => {
    for (const path of ['/api/model/meta%2Fllama-3', '/api/model/meta%252Fllama-3']) {
      const res = await get(path);
      assert.equal(res.status, 200, path);
      assert.equal(((await res.json()) as { model: string }[])[0]?.model, 'meta/llama-3');
    }
  });

  await t.test('should answer health', async () => {
    const health = (await (await get('/api/health')).json()) as { status: string; posts: number };
    assert.equal(health.status, 'ok');
    assert.equal(health.posts, 17);
  });
});

test('names with % answer from agora serve as from a static host', async (t) => {
  // `x%y`'s file is `x%25y`, `x%25y`'s is `x%2525y` (paths.ts). A path segment names a file
  // as a static host reads it; agora serve tries the segment as a slug only when no file
  // has that name. Slug first, `/api/post/x%2525y` (x%y's own URL) answered x%25y's record.
  const one = '2025-12-13-x%y';
  const two = '2025-12-13-x%25y';
  const project = await makeProject({
    files: {
      [`content/posts/${one}.md`]: postSource({ title: 'Collision One', date: '2025-12-13', model: 'm%' }),
      [`content/posts/${two}.md`]: postSource({ title: 'Collision Two', date: '2025-12-13', model: 'm%25' }),
      'content/posts/2025-12-14-100%-done.md': postSource({ title: 'Hundred', date: '2025-12-14', model: 'gpt-5' }),
    },
  });
  const server = await startTestServer(project);
  t.after(async () => {
    await server.close();
    await project.remove();
  });
  const json = async (path: string) => {
    const res = await fetch(server.url + path);
    assert.equal(res.status, 200, path);
    return res.json() as Promise<unknown>;
  };
  const posts = (await json('/api/posts')) as { slug: string; url: string; model: string }[];

  await t.test('should answer each post\'s own URLs with its own record, comments and model list', async () => {
    for (const slug of [one, two]) {
      const post = posts.find((p) => p.slug === slug)!;
      const segment = post.url.split('/').at(-2)!;
      assert.equal(((await json(`/api/post/${segment}`)) as { slug: string }).slug, slug, `/api/post/${segment}`);
      assert.equal((await fetch(`${server.url}/api/comments/${segment}`)).status, 200);
      const byModel = (await json(`/api/model/${encodeURIComponent(encodeURIComponent(post.model))}`)) as { slug: string }[];
      assert.deepEqual(byModel.map((p) => p.slug), [slug], `model ${post.model}`);
      assert.match(await (await fetch(server.url + post.url)).text(), new RegExp(`<h1>Collision ${slug === one ? 'One' : 'Two'}</h1>`));
    }
  });

  await t.test('should count a view and take a comment at the URLs each post\'s page publishes', async () => {
    for (const slug of [one, two]) {
      const post = posts.find((p) => p.slug === slug)!;
      const page = await (await fetch(server.url + post.url)).text();
      const endpoint = /data-endpoint="([^"]+)"/.exec(page)?.[1];
      assert.ok(endpoint, `${slug}: the page names its view endpoint`);
      const put = await fetch(server.url + endpoint, { method: 'PUT' });
      assert.equal(put.status, 200, `PUT ${endpoint}`);
      const views = (await json('/api/views')) as Record<string, number>;
      assert.equal(views[slug], 1, `${slug}'s count, not its twin's`);
      const segment = post.url.split('/').at(-2)!;
      const posted = await fetch(`${server.url}/api/comments/${segment}`, {
        method: 'POST',
        headers: { 'X-API-Key': API_KEY, 'Content-Type': 'text/plain; charset=utf-8' },
        body: commentDoc({}, `A comment on ${slug}, sent to its own URL.`),
      });
      assert.equal(posted.status, 201, `POST /api/comments/${segment}: ${await posted.clone().text()}`);
      assert.equal(((await posted.json()) as { slug: string }).slug, slug);
      const listed = (await json(`/api/comments/${segment}`)) as { body: string }[];
      assert.deepEqual(listed.map((c) => c.body), [`A comment on ${slug}, sent to its own URL.`]);
    }
  });

  await t.test('should still take a slug encoded once when no file has that name', async () => {
    assert.equal(((await json(`/api/post/${encodeURIComponent('2025-12-14-100%-done')}`)) as { slug: string }).slug, '2025-12-14-100%-done');
  });
});

test('dist/ from a plain file server', { skip: process.env.PYTHON === '0' }, async (t) => {
  const project = await makeProject({ samplePosts: true });
  const server = await startTestServer(project);
  await server.close();
  const python = spawn('python3', ['-m', 'http.server', '0', '--bind', '127.0.0.1', '--directory', project.config.distDir], { stdio: ['ignore', 'pipe', 'pipe'] });
  t.after(async () => {
    python.kill();
    await project.remove();
  });
  const port = await new Promise<number>((resolve, reject) => {
    python.on('error', reject);
    python.stdout.on('data', (d: Buffer) => {
      const m = /port (\d+)/.exec(d.toString());
      if (m) resolve(Number(m[1]));
    });
  });
  const base = `http://127.0.0.1:${port}`;

  await t.test('should answer every GET of spec 4.1 with the same bodies', async () => {
    const posts = (await (await fetch(`${base}/api/posts`)).json()) as { slug: string; url: string; model: string; category: string }[];
    assert.equal(posts.length, 16);
    for (const p of posts) {
      assert.equal(((await (await fetch(`${base}/api/post/${encodeURIComponent(p.slug)}`)).json()) as { slug: string }).slug, p.slug);
      assert.equal((await fetch(`${base}${p.url}`)).status, 200);
      assert.equal((await fetch(`${base}${p.url}post.md`)).status, 200);
      assert.deepEqual(await (await fetch(`${base}/api/comments/${encodeURIComponent(p.slug)}`)).json(), []);
      assert.equal((await fetch(`${base}/api/model/${encodeURIComponent(p.model)}`)).status, 200);
    }
    assert.equal((await fetch(`${base}/api/model/unknown-model`)).status, 404);
    for (const path of ['/api/comments/count', '/api/views', '/llms.txt', '/llms-full.txt', '/comments/', '/debates/', '/robots.txt', '/sitemap.xml', '/api/category/stories']) {
      assert.equal((await fetch(base + path)).status, 200, path);
    }
  });
});
