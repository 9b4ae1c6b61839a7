import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir, rm, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { build, CATEGORIES, type PostRecord } from '@agora/generator';
import { makeProject, postSource, REPO_ROOT } from '../helpers/project.ts';

const POST_FIELDS = ['title', 'date', 'model', 'author_type', 'category', 'summary', 'tags', 'url', 'slug', 'comment_count', 'views', 'content'];
const CRAWLERS = ['GPTBot', 'OAI-SearchBot', 'ChatGPT-User', 'ClaudeBot', 'Claude-User', 'Claude-SearchBot', 'PerplexityBot', 'Perplexity-User', 'Google-Extended', 'Applebot-Extended', 'CCBot', 'meta-externalagent', 'Amazonbot', 'DuckAssistBot', 'MistralAI-User'];

test('build of the sample site', async (t) => {
  const project = await makeProject({ samplePosts: true, catalog: true });
  t.after(() => project.remove());
  const { result } = await build(project.config);
  const dist = project.config.distDir;
  const read = (p: string) => readFile(join(dist, p), 'utf8');
  const json = async <T>(p: string) => JSON.parse(await read(p)) as T;
  const posts = await json<PostRecord[]>('api/posts');

  await t.test("should write as many files as the README's build lines say", async () => {
    // A newcomer compares them: they said 551 while the build wrote 553.
    const readme = await readFile(join(REPO_ROOT, 'README.md'), 'utf8');
    const said = [...readme.matchAll(/^(?:re)?built .*?; (\d+) files: (\d+) written, (\d+) unchanged/gm)].map((m) => ({ files: Number(m[1]), sum: Number(m[2]) + Number(m[3]) }));
    assert.ok(said.length >= 3, `the README's build lines (${said.length})`);
    for (const line of said) assert.deepEqual(line, { files: result.outputs, sum: result.outputs });
  });

  await t.test('should list every post with exactly the spec fields, newest first', () => {
    assert.equal(posts.length, result.posts);
    assert.ok(posts.length >= 14);
    for (const p of posts) assert.deepEqual(Object.keys(p), POST_FIELDS);
    for (let i = 1; i < posts.length; i++) {
      const a = posts[i - 1]!, b = posts[i]!;
      assert.ok(a.date > b.date || (a.date === b.date && a.slug < b.slug), `order at ${i}`);
    }
    assert.ok(posts.every((p) => typeof p.tags === 'string' && p.comment_count === 0 && p.views === 0));
    assert.ok(posts.some((p) => p.author_type === 'human'));
    assert.ok(posts.some((p) => !/^\d{4}-\d{2}-\d{2}-/.test(p.slug)), 'a slug without a date prefix');
    assert.ok(posts.some((p) => /[^\x00-\x7f]/.test(p.slug)), 'a non-ASCII slug');
    const listTagged = posts.find((p) => p.slug === 'postgres-connection-pooling-pgbouncer');
    assert.match(listTagged?.tags ?? '', /^[^,\[\]]+(, [^,\[\]]+)+$/, 'list tags become a comma-separated string');
  });

  await t.test('should write one record, page and post.md per post', async () => {
    for (const p of posts) {
      const file = decodeURIComponent(p.url.slice(1));
      assert.deepEqual(await json(`api/post/${p.slug}`), p);
      const html = await read(`${file}index.html`);
      assert.match(html, new RegExp(`<link rel="canonical" href="https://agora.example${p.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}">`));
      assert.match(html, /<link rel="alternate" type="text\/markdown" href="post.md">/);
      assert.match(html, /<meta name="description" content="[^"]+">/);
      assert.match(html, /<meta property="og:title"/);
      assert.match(html, /How an agent comments/);
      assert.match(html, /X-API-Key: agora-public-comment-key/);
      assert.doesNotMatch(html, /<script>(?!<\/script>)/, 'no inline script');
      const md = await read(`${file}post.md`);
      assert.ok(md.startsWith('---\ntitle:'), 'post.md is the source as authored');
      assert.ok(md.includes(p.content));
      assert.deepEqual(await json(`api/comments/${p.slug}`), []);
    }
  });

  await t.test('should render the body with heading ids and build-time highlighting', async () => {
    const nginx = posts.find((p) => p.slug === '2025-09-14-nginx-reverse-proxy-websocket-timeouts')!;
    const html = await read(`${nginx.url.slice(1)}index.html`);
    assert.match(html, /<h2 id="[a-z0-9-]+">/);
    assert.match(html, /<span class="hljs-/);
  });

  await t.test('should write all seven category lists and one list per model', async () => {
    for (const c of CATEGORIES) {
      const list = await json<PostRecord[]>(`api/category/${c}`);
      assert.deepEqual(list, posts.filter((p) => p.category === c));
      assert.ok(existsSync(join(dist, c, 'index.html')));
    }
    const models = [...new Set(posts.map((p) => p.model))];
    assert.ok(models.length >= 4);
    for (const m of models) assert.deepEqual(await json(`api/model/${m}`), posts.filter((p) => p.model === m));
    assert.deepEqual((await readdir(join(dist, 'api', 'model'))).sort(), models.sort());
  });

  await t.test('should write the aggregates', async () => {
    const count = await json<{ total: number; by_model: object; by_post: Record<string, number> }>('api/comments/count');
    assert.equal(count.total, 0);
    assert.deepEqual(count.by_model, {});
    assert.deepEqual(Object.keys(count.by_post).sort(), posts.map((p) => p.slug).sort());
    const views = await json<Record<string, number>>('api/views');
    assert.deepEqual(Object.keys(views).sort(), posts.map((p) => p.slug).sort());
  });

  await t.test('should write llms.txt in the llmstxt.org shape', async () => {
    const text = await read('llms.txt');
    const lines = text.split('\n');
    assert.match(lines[0]!, /^# \S/);
    assert.match(lines[2]!, /^> \S/);
    assert.match(text, /^## Reviews$/m);
    for (const p of posts) {
      const line = `](https://agora.example${p.url}post.md): ${p.summary}`;
      assert.ok(text.includes(line), `llms.txt links ${p.slug}`);
    }
    // Posting instructions live in agents.md, linked from llms.txt (issue 11).
    assert.ok(text.includes('](https://agora.example/agents.md)'));
    const agents = await read('agents.md');
    assert.match(agents, /X-API-Key: agora-public-comment-key/);
    assert.match(agents, /```markdown\n---\nauthor: .+\nmodel: .+\ntype: supplement\n---\n.{10,}\n```/);
    assert.match(agents, /PUT https:\/\/agora.example\/api\/views\/\{slug\}/);
    const full = await read('llms-full.txt');
    for (const p of posts) assert.ok(full.includes(p.content.trim()) && full.includes(`slug: ${p.slug}`));
  });

  await t.test('should write robots.txt and the sitemap', async () => {
    const robots = await read('robots.txt');
    for (const bot of CRAWLERS) assert.match(robots, new RegExp(`^User-agent: ${bot}\\nContent-Signal: search=yes, ai-input=yes, ai-train=yes\\nAllow: /$`, 'm'));
    assert.match(robots, /^Sitemap: https:\/\/agora\.example\/sitemap\.xml$/m);
    const sitemap = await read('sitemap.xml');
    assert.match(sitemap, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/);
    for (const p of posts) assert.ok(sitemap.includes(`<loc>https://agora.example${p.url}</loc><lastmod>${p.date}</lastmod>`));
  });

  await t.test('should write static-host headers', async () => {
    const headers = await read('_headers');
    assert.match(headers, /^\/api\/\*\n {2}Content-Type: application\/json; charset=utf-8$/m);
    assert.match(headers, /post\.md\n {2}Content-Type: text\/plain; charset=utf-8$/m, 'spec 4.1: post.md is text/plain');
    assert.match(headers, /^\/agents\.md\n {2}Content-Type: text\/markdown; charset=utf-8$/m);
    assert.match(headers, /^\/llms\.txt\n {2}Content-Type: text\/plain; charset=utf-8$/m);
    // The feeds with their own media types, as the writer serves them.
    assert.match(headers, /^\/feed\.json\n {2}Content-Type: application\/feed\+json; charset=utf-8\n {2}Access-Control-Allow-Origin: \*$/m);
    assert.match(headers, /^\/:category\/:slug\/comments\.atom\n {2}Content-Type: application\/atom\+xml; charset=utf-8$/m);
    assert.match(headers, /^\/tags\/:tag\/feed\.json\n {2}Content-Type: application\/feed\+json; charset=utf-8$/m);
  });

  await t.test('should rewrite nothing on a warm build', async () => {
    const again = await build(project.config);
    assert.equal(again.result.written.length, 0);
    assert.equal(again.result.rendered, 0);
    assert.equal(again.result.emittedJobs, 0, 'every job is skipped: its inputs are unchanged');
    assert.equal(again.result.outputs, result.outputs);
  });

  await t.test('should rewrite only what an edit touches, and prune a removed post', async () => {
    const file = join(project.root, 'content', 'posts', '2025-06-25-ripgrep-vs-grep-review.md');
    const source = await readFile(file, 'utf8');
    await project.write('content/posts/2025-06-25-ripgrep-vs-grep-review.md', source.replace('\n## ', '\nAn added sentence.\n\n## '));
    const edited = await build(project.config);
    assert.equal(edited.result.rendered, 1);
    assert.ok(edited.result.written.includes('reviews/2025-06-25-ripgrep-vs-grep-review/index.html'));
    assert.ok(!edited.result.written.some((p) => p.startsWith('setups/')), 'other categories untouched');
    await rm(file);
    const pruned = await build(project.config);
    assert.ok(pruned.result.removed.includes('reviews/2025-06-25-ripgrep-vs-grep-review/index.html'));
    assert.ok(pruned.result.removed.includes('api/post/2025-06-25-ripgrep-vs-grep-review'));
    await assert.rejects(stat(join(dist, 'api/post/2025-06-25-ripgrep-vs-grep-review')));
    // Its folder goes with its files; the category's stays (other posts are in it).
    await assert.rejects(stat(join(dist, 'reviews/2025-06-25-ripgrep-vs-grep-review')));
    assert.ok(existsSync(join(dist, 'reviews/index.html')));
  });
});

test('build with hostile names', async (t) => {
  const project = await makeProject({
    files: {
      'content/posts/...md': postSource({ model: '../../etc' }),
      'content/posts/%2e%2e.md': postSource({ model: 'meta/llama-3' }),
      'content/posts/a b?c#d.md': postSource({ model: 'Claude Opus 4.1', title: '<script>alert(1)</script>' }),
      'content/posts/index.htm.md': postSource({ model: '.hidden' }),
    },
  });
  t.after(() => project.remove());
  const { result } = await build(project.config);
  const dist = project.config.distDir;

  await t.test('should keep every output inside dist/ without collisions', async () => {
    const all = (await readdir(dist, { recursive: true })).map(String);
    assert.equal(result.written.length, new Set(result.written).size);
    assert.ok(all.includes(join('api', 'post', '%2E.')), 'slug `..` is encoded');
    assert.ok(all.includes(join('api', 'post', '%252e%252e')), '`%` is encoded');
    assert.ok(all.includes(join('api', 'model', '%2E.%2F..%2Fetc')));
    assert.ok(all.includes(join('api', 'model', 'meta%2Fllama-3')));
    assert.ok(all.includes(join('api', 'model', 'Claude Opus 4.1')));
    assert.ok(all.includes(join('api', 'model', '%2Ehidden')));
    assert.ok(!existsSync(join(project.root, 'etc')));
  });

  await t.test('should escape hostile text in pages', async () => {
    const post = JSON.parse(await readFile(join(dist, 'api', 'post', 'a b?c#d'), 'utf8')) as PostRecord;
    assert.equal(post.url, '/guide/a%20b%3Fc%23d/');
    const html = await readFile(join(dist, 'guide', 'a b?c#d', 'index.html'), 'utf8');
    assert.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
    assert.ok(!html.includes('<script>alert(1)'));
  });
});
