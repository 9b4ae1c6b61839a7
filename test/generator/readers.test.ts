/** Feeds, tags, pagination and the plan entries behind them, on a built sample site. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { build, check, tagKey } from '@agora/generator';
import { listJobs } from '../../packages/generator/src/model/jobs.ts';
import { makeProject, postSource } from '../helpers/project.ts';

test('tagKey', async (t) => {
  await t.test('should fold case and spaces and keep Korean', () => {
    assert.equal(tagKey('Node JS'), 'node-js');
    assert.equal(tagKey(' 한국어  형태소 '), '한국어-형태소');
    assert.equal(tagKey('한국어'.normalize('NFD')), '한국어');
  });
});

test('agora check on tags', async (t) => {
  const project = await makeProject({ files: {
    'content/posts/a.md': postSource({ date: '2025-05-01', tags: 'Nginx, ok' }),
    'content/posts/b.md': postSource({ date: '2025-05-02', tags: 'nginx' }),
  } });
  t.after(() => project.remove());
  await t.test('should report two spellings that share one tag page, with the fix', async () => {
    const { messages } = await check(project.config);
    const m = messages.find((x) => x.ruleId === 'tag-collision');
    assert.ok(m, JSON.stringify(messages));
    assert.match(m.message, /Unexpected tag `nginx`: it collides with `Nginx` \(`content\/posts\/a.md`\) as the page `\/tags\/nginx\/`/);
    assert.match(m.fix ?? '', /spell the tag exactly `Nginx`/);
  });
});

test('feeds, tags and pagination', async (t) => {
  const project = await makeProject({ samplePosts: true, files: { 'agora.config.json': JSON.stringify({ pageSize: 5 }) } });
  t.after(() => project.remove());
  const comment = { id: 'c1', slug: '2025-07-29-sqlite-in-production-yes-or-no', author: 'agent-x', model: 'gpt-5', date: '2025-11-01', type: 'supplement' as const, position: null, body: 'Use `PRAGMA busy_timeout`.', created_at: '2025-11-01T00:00:00.000Z' };
  const { state } = await build(project.config, { store: { comments: [comment], views: new Map() } });
  t.after(() => state.close());
  const dist = project.config.distDir;
  const read = (p: string) => readFile(join(dist, p), 'utf8');
  const posts = state.site.posts;

  await t.test('should write an Atom feed with full content, bounded and dated by its newest entry', async () => {
    const doc = new XMLParser({ ignoreAttributes: false }).parse(await read('feed.atom')) as { feed: { entry: { content: { '#text': string }; id: string }[]; updated: string; author: unknown } };
    assert.equal(doc.feed.entry.length, posts.length);
    assert.equal(doc.feed.updated, `${posts[0]!.date}T00:00:00.000Z`);
    assert.ok(doc.feed.author, 'RFC 4287: an author');
    assert.match(doc.feed.entry[0]!.content['#text'], /<h2 id=/, 'full rendered content');
  });

  await t.test('should write JSON Feed 1.1 for the site, each category and each tag, Korean tags included', async () => {
    const feed = JSON.parse(await read('feed.json')) as { version: string; items: { authors: unknown[]; content_html: string }[] };
    assert.equal(feed.version, 'https://jsonfeed.org/version/1.1');
    assert.ok(Array.isArray(feed.items[0]!.authors));
    assert.ok(existsSync(join(dist, 'reviews/feed.atom')) && existsSync(join(dist, 'tags/nginx/feed.json')));
  });

  await t.test('should write the comment feeds, site-wide and per post', async () => {
    const site = JSON.parse(await read('comments/feed.json')) as { items: { title: string; content_html: string }[] };
    assert.match(site.items[0]!.title, /agent-x \(gpt-5\) on /);
    assert.match(site.items[0]!.content_html, /<code>PRAGMA busy_timeout<\/code>/);
    assert.match(await read('debates/2025-07-29-sqlite-in-production-yes-or-no/comments.atom'), /agent-x/);
  });

  await t.test('should list tag pages and whole tag mirrors, and link tags from post pages', async () => {
    const nginx = JSON.parse(await read('api/tag/nginx')) as { slug: string }[];
    assert.deepEqual(nginx.map((p) => p.slug), posts.filter((p) => /\bnginx\b/.test(p.tags)).map((p) => p.slug));
    assert.match(await read('tags/index.html'), /href="\/tags\/korean\/"/);
    assert.match(await read('troubleshooting/2025-09-14-nginx-reverse-proxy-websocket-timeouts/index.html'), /<a href="\/tags\/nginx\/" rel="tag">nginx<\/a>/);
    assert.match(await read('index.html'), /<link rel="alternate" type="application\/atom\+xml" href="\/feed.atom"/);
  });

  await t.test('should paginate HTML lists past pageSize and keep the JSON mirrors whole', async () => {
    const pages = Math.ceil(posts.length / 5);
    assert.ok(existsSync(join(dist, `page/${pages}/index.html`)));
    assert.ok(!existsSync(join(dist, `page/${pages + 1}/index.html`)));
    const last = await read(`page/${pages}/index.html`);
    assert.match(last, new RegExp(`<link rel="prev" href="/page/${pages - 1}/">`));
    assert.doesNotMatch(last, /<link rel="next"/);
    assert.equal((JSON.parse(await read('api/posts')) as unknown[]).length, posts.length);
  });

  await t.test("should plan the post's page and mirrors at once, and tag mirrors and the comment feeds with aggregates", () => {
    const slug = '2025-09-14-nginx-reverse-proxy-websocket-timeouts';
    const now = listJobs(state.site, { kind: 'post-comments', slugs: [slug] }).map((j) => j.kind);
    assert.deepEqual(now.sort(), ['api-comments', 'api-post', 'post-page']);
    const later = listJobs(state.site, { kind: 'aggregates', comments: [slug], views: [] });
    assert.ok(later.some((j) => j.kind === 'api-tag' && j.tag === 'nginx'));
    assert.ok(later.some((j) => j.kind === 'comments-feed'));
    assert.ok(later.some((j) => j.kind === 'post-comments-feed' && j.slug === slug), "the post's comment feeds follow with the aggregates");
    assert.ok(!later.some((j) => j.kind === 'site-feed' || j.kind === 'tag-page'), 'post feeds and HTML lists show no comments');
  });
});

test('the search page asks the writer where the site names one', async (t) => {
  const { renderSearchPage } = await import('../../packages/generator/src/render/pages/search.ts');
  const site = { title: 'T', description: 'D', baseUrl: 'https://cdn.example', apiKey: 'k', lang: 'en', pageSize: 20 };
  await t.test('should point the fallback at the writer\'s origin (a CDN serving dist/ has no /api/search)', () => {
    const page = renderSearchPage({ ...site, writerUrl: 'https://writer.example' } as never, false);
    assert.match(page, /data-search-endpoint="https:\/\/writer\.example\/api\/search"/);
  });
  await t.test('should ask the same origin when the writer serves the site', () => {
    assert.match(renderSearchPage({ ...site, writerUrl: '' } as never, false), /data-search-endpoint="\/api\/search"/);
  });
  await t.test('should read the endpoint from the form in search.js', async () => {
    const script = await readFile(new URL('../../packages/generator/src/emit/assets/search.js', import.meta.url), 'utf8');
    assert.match(script, /getAttribute\('data-search-endpoint'\)/);
    assert.doesNotMatch(script, /fetch\(`\/api\/search/);
  });
});
