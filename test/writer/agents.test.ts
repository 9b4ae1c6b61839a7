import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveProject } from '../helpers/server.ts';

const KOREAN = '2025-10-02-한국어-형태소-분석기-비교';
const KOREAN_URL = `/reviews/${encodeURIComponent(KOREAN)}/`;
const NGINX = '2025-09-14-nginx-reverse-proxy-websocket-timeouts';
const NGINX_URL = `/troubleshooting/${NGINX}/`;

/** Parse a Link header into {url, rel, type} (the values here never hold commas). */
function links(header: string | null): { url: string; rel: string; type?: string }[] {
  return (header ?? '').split(/,\s*(?=<)/).filter(Boolean).map((part) => {
    const url = /^<([^>]*)>/.exec(part)?.[1] ?? '';
    const rel = /rel="([^"]*)"/.exec(part)?.[1] ?? '';
    const type = /type="([^"]*)"/.exec(part)?.[1];
    return { url, rel, ...(type ? { type } : {}) };
  });
}

test('content negotiation, discovery links and search', async (t) => {
  const { project, server } = await serveProject(t, { samplePosts: true, catalog: true });
  const get = (path: string, accept?: string) => fetch(server.url + path, accept ? { headers: { Accept: accept } } : {});

  await t.test('should answer a post URL with its post.md for Accept: text/markdown', async () => {
    const res = await get(NGINX_URL, 'text/markdown');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/markdown; charset=utf-8$/);
    assert.match(res.headers.get('vary') ?? '', /Accept/);
    const body = await res.text();
    assert.match(body, /^---\ntitle: /);
    assert.equal(body, await (await get(`${NGINX_URL}post.md`)).text());
  });

  await t.test('should answer the Korean post URL with markdown and JSON', async () => {
    const md = await get(KOREAN_URL, 'text/markdown');
    assert.match(await md.text(), /형태소/);
    const json = await get(KOREAN_URL, 'application/json');
    assert.match(json.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(((await json.json()) as { slug: string }).slug, KOREAN);
  });

  await t.test('should answer a post URL with its /api/post record for Accept: application/json', async () => {
    const res = await get(NGINX_URL, 'application/json');
    assert.match(res.headers.get('content-type') ?? '', /^application\/json; charset=utf-8$/);
    const record = (await res.json()) as { slug: string; content: string };
    assert.equal(record.slug, NGINX);
    assert.deepEqual(record, await (await get(`/api/post/${NGINX}`)).json());
  });

  await t.test('should keep HTML for browsers, */* and a missing Accept, and respect q-values', async () => {
    for (const accept of [undefined, '*/*', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'text/markdown;q=0.5, text/html', 'image/png']) {
      const res = await get(NGINX_URL, accept);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/, `Accept: ${accept}`);
      assert.match(res.headers.get('vary') ?? '', /Accept/);
    }
    const preferred = await get(NGINX_URL, 'text/html;q=0.5, text/markdown');
    assert.match(preferred.headers.get('content-type') ?? '', /^text\/markdown/);
  });

  await t.test('should read a media range with parameters (charset, variant) as its type', async () => {
    // Before: `text/markdown; charset=utf-8` and RFC 7763's `text/markdown; variant=GFM` got HTML (an offer
    // without parameters never matched a range with them), and `text/html; charset=utf-8, text/markdown` markdown.
    const cases: [string, string, RegExp][] = [
      [NGINX_URL, 'text/markdown; charset=utf-8', /^text\/markdown/],
      [NGINX_URL, 'text/markdown;variant=GFM', /^text\/markdown/],
      ['/', 'text/markdown; variant=CommonMark; charset=UTF-8', /^text\/markdown/],
      [NGINX_URL, 'application/json; charset=utf-8', /^application\/json/],
      [NGINX_URL, 'text/html; charset=utf-8, text/markdown;q=0.9', /^text\/html/],
      [NGINX_URL, 'text/html;level=1;q=0.1, text/markdown; charset=utf-8;q=0.2', /^text\/markdown/],
    ];
    for (const [path, accept, type] of cases) {
      const res = await get(path, accept);
      assert.equal(res.status, 200, `Accept: ${accept}`);
      assert.match(res.headers.get('content-type') ?? '', type, `${path} Accept: ${accept}`);
    }
  });

  await t.test('should answer list pages with markdown linking each post.md', async () => {
    for (const path of ['/', '/troubleshooting/', '/reviews/', '/comments/', '/debates/', '/agencatalog/', '/agencatalog/weather-forecast/']) {
      const res = await get(path, 'text/markdown');
      assert.equal(res.status, 200, path);
      assert.match(res.headers.get('content-type') ?? '', /^text\/markdown/, path);
      assert.match(res.headers.get('vary') ?? '', /Accept/, path);
      const body = await res.text();
      assert.match(body, /^# /, path);
      if (path === '/troubleshooting/') assert.ok(body.includes(`](https://agora.example${NGINX_URL}post.md)`), body);
    }
    const home = await (await get('/', 'text/markdown')).text();
    assert.ok(home.includes(`https://agora.example${KOREAN_URL}post.md`));
  });

  await t.test('should send discovery Link headers on every page and its alternates', async () => {
    for (const accept of ['text/html', 'text/markdown', 'application/json']) {
      const found = links((await get(NGINX_URL, accept)).headers.get('link'));
      const base = 'https://agora.example';
      assert.deepEqual(found, [
        { url: `${base}${NGINX_URL}`, rel: 'canonical' },
        { url: `${base}${NGINX_URL}post.md`, rel: 'alternate', type: 'text/markdown' },
        { url: `${base}/api/post/${NGINX}`, rel: 'alternate', type: 'application/json' },
        { url: `${base}/api/comments/${NGINX}`, rel: 'replies', type: 'application/json' },
        { url: `${base}/openapi.json`, rel: 'service-desc', type: 'application/openapi+json' },
        { url: `${base}/llms.txt`, rel: 'describedby', type: 'text/plain' },
        { url: `${base}/agents.md`, rel: 'help', type: 'text/markdown' },
      ], accept);
    }
    const category = links((await get('/guide/')).headers.get('link'));
    assert.deepEqual(category.map((l) => l.rel), ['canonical', 'alternate', 'service-desc', 'describedby', 'help']);
    assert.equal(category[1]?.url, 'https://agora.example/guide/index.md');
    const korean = links((await get(KOREAN_URL)).headers.get('link'));
    assert.equal(korean[0]?.url, `https://agora.example${KOREAN_URL}`);
    const openapi = links((await get('/openapi.json')).headers.get('link'));
    assert.ok(openapi.some((l) => l.rel === 'service-desc' && l.url === 'https://agora.example/openapi.json'));
  });

  await t.test('should write the same Link lines into _headers for static hosts', async () => {
    const headers = await (await get('/_headers')).text();
    const live = (await get(NGINX_URL)).headers.get('link');
    assert.ok(headers.includes(`\n${NGINX_URL}\n  Link: ${live}\n`), 'post rule');
    assert.ok(headers.includes('\n/comments/\n  Link: '), 'comments rule');
  });

  await t.test('should find posts by English words, ranked, with snippet and fields', async () => {
    const res = await get('/api/search?q=websocket+timeout');
    assert.equal(res.status, 200);
    const answer = (await res.json()) as { total: number; results: { slug: string; title: string; url: string; summary: string; snippet: string }[] };
    assert.ok(answer.total >= 1);
    assert.equal(answer.results[0]?.slug, NGINX);
    assert.equal(answer.results[0]?.url, `https://agora.example${NGINX_URL}`);
    assert.match(answer.results[0]?.snippet ?? '', /websocket/i);
    assert.ok(answer.results[0]?.summary);
  });

  await t.test('should find the Korean post by a Korean query, also with particles attached', async () => {
    for (const q of ['형태소 분석기', '형태소를', '분석']) {
      const answer = (await (await get(`/api/search?q=${encodeURIComponent(q)}`)).json()) as { results: { slug: string; snippet: string }[] };
      assert.equal(answer.results[0]?.slug, KOREAN, q);
    }
    const none = (await (await get(`/api/search?q=${encodeURIComponent('형태소')}&category=guide`)).json()) as { results: unknown[] };
    assert.equal(none.results.length, 0);
  });

  await t.test('should filter by category, model and tag and cap by limit', async () => {
    const answer = (await (await get('/api/search?q=the&category=troubleshooting&limit=1')).json()) as { total: number; results: { category: string }[] };
    assert.equal(answer.results.length, 1);
    assert.ok(answer.total >= 1);
    assert.ok(answer.results.every((r) => r.category === 'troubleshooting'));
    const tagged = (await (await get('/api/search?q=proxy&tag=nginx')).json()) as { results: { tags: string }[] };
    assert.ok(tagged.results.length >= 1);
    assert.ok(tagged.results.every((r) => r.tags.split(',').map((s) => s.trim()).includes('nginx')));
  });

  await t.test('should refuse bad search parameters naming the parameter', async () => {
    for (const [query, field] of [['', 'q'], ['?q=x&limit=0', 'limit'], ['?q=x&limit=abc', 'limit'], ['?q=x&category=news', 'category'], [`?q=${'a'.repeat(201)}`, 'q']] as const) {
      const res = await get(`/api/search${query}`);
      assert.equal(res.status, 400, query);
      const body = (await res.json()) as { error: { code: string; field: string; message: string } };
      assert.equal(body.error.field, field);
      assert.match(body.error.message, new RegExp(`query/${field}`));
    }
  });
});
