import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import jsonld from 'jsonld';
import { countTextTokens, loadConfig } from '@agora/generator';
import { serveProject, commentDoc, postComment } from '../helpers/server.ts';
import { REPO_ROOT } from '../helpers/project.ts';

const NGINX = '2025-09-14-nginx-reverse-proxy-websocket-timeouts';
const NGINX_URL = `/troubleshooting/${NGINX}/`;
const BASE = 'https://agora.example';
const SCHEMA = 'http://schema.org/';

/** The jsonld document loader of the tests: schema.org's context from a local file, nothing from the network. */
async function offlineLoader(url: string): Promise<{ contextUrl?: string; documentUrl: string; document: unknown }> {
  if (!/^https?:\/\/schema\.org\/?$/.test(url) && url !== 'https://schema.org/docs/jsonldcontext.jsonld') {
    throw new Error(`offline test: refusing to load ${url}`);
  }
  const document: unknown = JSON.parse(await readFile(join(REPO_ROOT, 'test', 'fixtures', 'schema-org-context.jsonld'), 'utf8'));
  return { documentUrl: url, document };
}

/** The terms the local context defines, as absolute IRIs. */
async function definedIris(): Promise<Set<string>> {
  const context = ((await offlineLoader('https://schema.org')).document as { '@context': Record<string, unknown> })['@context'];
  return new Set(Object.values(context).flatMap((v) => (typeof v === 'object' && v !== null && typeof (v as { '@id'?: string })['@id'] === 'string' ? [(v as { '@id': string })['@id'].replace(/^schema:/, SCHEMA)] : [])));
}

/** Every property IRI and type used in an expanded document. */
function usedIris(node: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const n of node) usedIris(n, found);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '@type' && !('@value' in node)) for (const t of [value].flat()) if (typeof t === 'string' && t.startsWith(SCHEMA)) found.add(t);
      if (!key.startsWith('@')) found.add(key);
      usedIris(value, found);
    }
  }
  return found;
}

function jsonLdOf(html: string): Record<string, unknown> {
  const m = /<script type="application\/ld\+json">([^<]*)<\/script>/.exec(html);
  assert.ok(m, 'a JSON-LD script');
  return JSON.parse(m[1]!) as Record<string, unknown>;
}

test('discovery: JSON-LD, markdown answers, Content Signals', async (t) => {
  const { project, server } = await serveProject(t, { samplePosts: true, catalog: true, files: { 'agora.config.json': JSON.stringify({ contentSignals: { 'ai-train': false } }) } });
  const get = (path: string, accept?: string) => fetch(server.url + path, accept ? { headers: { Accept: accept } } : {});
  const signal = 'search=yes, ai-input=yes, ai-train=no';

  await t.test('should carry the post and its comments as schema.org JSON-LD that jsonld expands', async () => {
    const tricky = 'Watch out for </script><script>alert(1)</script> & <!-- in bodies.';
    // The author name is the one string of a commenter's that the JSON-LD repeats.
    assert.equal((await postComment(server.url, NGINX, commentDoc({ type: 'debate', position: 'con', author: '"</script><b>ld</b>"' }, tricky))).status, 201);
    const html = await (await get(NGINX_URL)).text();
    assert.ok(!html.includes('<script>alert(1)'), 'no markup escapes the JSON-LD element');
    const data = jsonLdOf(html);
    assert.equal(data['@type'], 'TechArticle');
    const expanded = await jsonld.expand(data as jsonld.JsonLdDocument, { documentLoader: offlineLoader as never, safe: true } as jsonld.Options.Expand);
    const article = expanded[0] as Record<string, { '@value'?: unknown; '@id'?: string; '@type'?: string[] }[]> & { '@type': string[]; '@id': string };
    assert.deepEqual(article['@type'], [`${SCHEMA}TechArticle`]);
    assert.equal(article['@id'], `${BASE}${NGINX_URL}`);
    assert.equal(article[`${SCHEMA}headline`]?.[0]?.['@value'], 'Nginx WebSocket proxy: fixing 60 s idle disconnects');
    assert.equal(article[`${SCHEMA}datePublished`]?.[0]?.['@type'], `${SCHEMA}Date`);
    assert.equal(article[`${SCHEMA}encoding`]?.[0] && (article[`${SCHEMA}encoding`]![0] as Record<string, { '@id': string }[]>)[`${SCHEMA}contentUrl`]?.[0]?.['@id'], `${BASE}${NGINX_URL}post.md`);
    const comments = article[`${SCHEMA}comment`] as unknown as Record<string, { '@value': string }[]>[];
    assert.equal(comments.length, 1);
    assert.deepEqual((comments[0] as unknown as { '@type': string[] })['@type'], [`${SCHEMA}Comment`]);
    assert.equal((comments[0]![`${SCHEMA}url`]?.[0] as unknown as { '@id': string })['@id'].startsWith(`${BASE}${NGINX_URL}#comment-`), true);
    assert.ok(!JSON.stringify(data).includes('alert(1)'), 'the raw comment body is not repeated in the JSON-LD');
    assert.equal(comments[0]![`${SCHEMA}genre`]?.[0]?.['@value'], 'debate (con)');
    const defined = await definedIris();
    assert.deepEqual([...usedIris(expanded)].filter((iri) => !defined.has(iri)), [], 'every term is a schema.org term of the context');
  });

  await t.test('should fail on invalid JSON-LD and on a context it cannot load offline (the check can fail)', async () => {
    await assert.rejects(jsonld.expand({ '@context': 'https://schema.org', '@type': 5 } as never, { documentLoader: offlineLoader as never }), /@type/);
    await assert.rejects(jsonld.expand({ '@context': 'https://example.org/ctx', name: 'x' } as never, { documentLoader: offlineLoader as never }), /refusing|Dereferencing/);
  });

  await t.test('should send x-markdown-tokens, Content-Signal and the discovery links with every markdown answer', async () => {
    const answers: [string, string | undefined][] = [
      [NGINX_URL, 'text/markdown'],
      [`${NGINX_URL}post.md`, undefined],
      ['/', 'text/markdown'],
      ['/index.md', undefined],
      ['/tags/', 'text/markdown'],
      ['/tags/nginx/', 'text/markdown'],
      ['/models/gpt-5/', 'text/markdown'],
      ['/search/', 'text/markdown'],
      ['/comments/', 'text/markdown'],
      ['/debates/', 'text/markdown'],
      ['/agencatalog/', 'text/markdown'],
      ['/agents.md', undefined],
    ];
    for (const [path, accept] of answers) {
      const res = await get(path, accept);
      assert.equal(res.status, 200, path);
      // post.md asked for by name answers text/plain (spec 4.1); negotiated answers and twins text/markdown.
      assert.match(res.headers.get('content-type') ?? '', path.endsWith('/post.md') ? /^text\/plain; charset=utf-8$/ : /^text\/markdown; charset=utf-8$/, path);
      const body = await res.text();
      assert.equal(res.headers.get('x-markdown-tokens'), String(countTextTokens(body)), `${path}: exact o200k count`);
      assert.equal(res.headers.get('content-signal'), signal, path);
      const link = res.headers.get('link') ?? '';
      assert.ok(link.includes(`<${BASE}/llms.txt>; rel="describedby"`), `${path}: llms.txt`);
      assert.ok(link.includes(`<${BASE}/agents.md>; rel="help"`), `${path}: agents.md`);
      // The twins say it in their text too; post.md stays the source exactly as authored.
      if (!path.includes(NGINX)) assert.ok(body.includes(`${BASE}/llms.txt`) && (path === '/agents.md' || body.includes(`${BASE}/agents.md`)), `${path}: pointers in the text`);
    }
    const md = await (await get(`${NGINX_URL}post.md`)).text();
    assert.equal(md, server.state.site.bySlug.get(NGINX)?.source, 'post.md is the source exactly as authored');
    const postLinks = (await get(`${NGINX_URL}post.md`)).headers.get('link') ?? '';
    assert.ok(postLinks.includes(`<${BASE}/api/comments/${NGINX}>; rel="replies"`), postLinks);
  });

  await t.test('should state the Content Signals in robots.txt and refuse a bad setting', async () => {
    const robots = await (await get('/robots.txt')).text();
    assert.match(robots, /^User-agent: \*\nContent-Signal: search=yes, ai-input=yes, ai-train=no\nAllow: \/$/m);
    assert.equal(robots.match(/^Content-Signal: /gm)?.length, robots.match(/^User-agent: /gm)?.length, 'one per group');
    await project.write('agora.config.json', JSON.stringify({ contentSignals: { 'ai-training': false } }));
    assert.throws(() => loadConfig({ root: project.root }), /contentSignals\.ai-training/);
    await project.write('agora.config.json', '{}');
    assert.equal(loadConfig({ root: project.root }).site.contentSignals?.['ai-train'], true, 'documented default: yes');
  });

  await t.test('should give static hosts the same headers in _headers', async () => {
    const headers = await (await get('/_headers')).text();
    const live = await get(`${NGINX_URL}post.md`);
    assert.ok(headers.includes(`\n${NGINX_URL}post.md\n  Link: ${live.headers.get('link')}\n  x-markdown-tokens: ${live.headers.get('x-markdown-tokens')}\n`), 'post.md rule');
    assert.ok(headers.includes(`/:category/:slug/post.md\n  Content-Type: text/plain; charset=utf-8\n  Access-Control-Allow-Origin: *\n  Content-Signal: ${signal}\n`));
    const agents = await get('/agents.md');
    assert.ok(headers.includes(`  x-markdown-tokens: ${agents.headers.get('x-markdown-tokens')}`), 'agents.md tokens');
    for (const rule of ['/tags/:tag/index.md', '/models/:model/index.md', '/index.md', '/:category/index.md']) assert.ok(headers.includes(`\n${rule}\n  Content-Type: text/markdown`), rule);
  });

  await t.test('should point the home page to llms.txt, agents.md and /mcp', async () => {
    const home = await (await get('/')).text();
    for (const href of ['href="/llms.txt"', 'href="/agents.md"', '/mcp</code>']) assert.ok(home.includes(href), href);
  });
});
