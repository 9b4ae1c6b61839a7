/**
 * Catalog status tells the truth (issue 20, item 7): an entry whose provider key the
 * serving process lacks is `pending_key` in catalog.json, its pages, the markdown
 * twins, llms.txt and MCP `get_catalog`; `/api/health` names the missing keys and stays
 * `ok`; a key set later turns the entries back at the next start, and `agora build`
 * alone reads the keys from its own environment.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { withKeyStatus, type Catalog } from '@agora/generator';
import { makeProject, REPO_ROOT } from '../helpers/project.ts';
import { startTestServer } from '../helpers/server.ts';
import { keyStatusFromEnv } from '../../packages/writer/src/public-data/key-status.ts';

const run = promisify(execFile);

/** The entries `catalog.yaml` authors as active (each has a keyless endpoint). */
const AUTHORED_ACTIVE = ['weather-forecast', 'apartment-complex', 'tourism-content', 'business-registration', 'corporate-info', 'support-notices'];

interface Health {
  status: string;
  problems?: unknown;
  missing_keys: { provider: string; env: string[]; services: string[] }[];
}

async function statuses(url: string): Promise<Record<string, string>> {
  const catalog = (await (await fetch(`${url}/agencatalog/catalog.json`)).json()) as Catalog;
  return Object.fromEntries(catalog.services.map((s) => [s.slug, s.status]));
}

test('catalog status', async (t) => {
  const project = await makeProject({ samplePosts: true, catalog: true });
  t.after(() => project.remove());

  await t.test('should show every entry as pending_key when no provider key is configured', async (t) => {
    const server = await startTestServer(project);
    t.after(() => server.close());
    const url = server.url;
    assert.ok(Object.values(await statuses(url)).every((s) => s === 'pending_key'));
    const onDisk = JSON.parse(await readFile(join(project.config.distDir, 'agencatalog', 'catalog.json'), 'utf8')) as Catalog;
    assert.ok(onDisk.services.every((s) => s.status === 'pending_key'), 'the static file a CDN serves says so too');

    const index = await (await fetch(`${url}/agencatalog/`)).text();
    assert.doesNotMatch(index, /status-active/);
    assert.equal(index.match(/status-pending_key/g)?.length, 10);
    const page = await (await fetch(`${url}/agencatalog/weather-forecast/`)).text();
    assert.match(page, /<strong>Pending key:<\/strong>/);
    const twin = await (await fetch(`${url}/agencatalog/weather-forecast/index.md`)).text();
    assert.match(twin, /Status: pending_key\./);
    const llms = await (await fetch(`${url}/llms.txt`)).text();
    assert.match(llms, /weather-forecast\/index\.md\): .* Status: pending_key\./);
    assert.doesNotMatch(llms, /Status: active/);

    const client = new Client({ name: 'agora-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
    t.after(() => client.close());
    const answer = (await client.callTool({ name: 'get_catalog', arguments: { service: 'weather-forecast' } })) as CallToolResult;
    const text = answer.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
    assert.match(text, /"status": ?"pending_key"/);
    assert.doesNotMatch(text, /"status": ?"active"/);

    // The endpoint agrees: 503 not_configured, naming the setting.
    const weather = await fetch(`${url}/api/weather?lat=37.5665&lon=126.978`);
    assert.equal(weather.status, 503);
    assert.equal(((await weather.json()) as { error: { code: string } }).error.code, 'not_configured');

    const health = (await (await fetch(`${url}/api/health`)).json()) as Health;
    assert.equal(health.status, 'ok', 'a missing key is reported, not a failure');
    assert.equal(health.problems, undefined);
    assert.deepEqual(health.missing_keys.map((m) => m.provider).sort(), ['dart', 'ecos', 'fsc', 'kapt', 'kma', 'law', 'mss', 'nts', 'rtms', 'tour']);
    assert.deepEqual(health.missing_keys.find((m) => m.provider === 'kma'), { provider: 'kma', env: ['AGORA_KMA_KEY', 'AGORA_DATA_GO_KR_KEY'], services: ['weather-forecast'] });
    assert.deepEqual(health.missing_keys.find((m) => m.provider === 'dart'), { provider: 'dart', env: ['AGORA_DART_KEY'], services: ['corporate-disclosures'] });
  });

  await t.test('should turn the entries back at the next start once their key is set', async (t) => {
    const server = await startTestServer(project, { AGORA_DATA_GO_KR_KEY: 'configured-later', AGORA_DART_KEY: 'dart-key' });
    t.after(() => server.close());
    const now = await statuses(server.url);
    for (const slug of AUTHORED_ACTIVE) assert.equal(now[slug], 'active', slug);
    // Authored pending_key stays so: the key of DART is set, opening the entry is an edit of catalog.yaml.
    for (const slug of ['statutes-case-law', 'corporate-disclosures', 'economic-statistics', 'real-estate-trades']) assert.equal(now[slug], 'pending_key', slug);
    const llms = await (await fetch(`${server.url}/llms.txt`)).text();
    assert.match(llms, /weather-forecast\/index\.md\): .* Status: active\./);
    const index = await (await fetch(`${server.url}/agencatalog/`)).text();
    assert.equal(index.match(/status-active/g)?.length, 6);
    const health = (await (await fetch(`${server.url}/api/health`)).json()) as Health;
    assert.deepEqual(health.missing_keys.map((m) => m.provider), ['law', 'ecos']);
    assert.equal(health.status, 'ok');
  });

  await t.test('should read the keys of its own environment in `agora build`', async () => {
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', AGORA_BASE_URL: 'https://agora.example', AGORA_SEARCH_INDEX: '0' };
    await run(process.execPath, [join(REPO_ROOT, 'bin', 'agora'), '--root', project.root, 'build'], { env });
    const read = async () => JSON.parse(await readFile(join(project.config.distDir, 'agencatalog', 'catalog.json'), 'utf8')) as Catalog;
    assert.ok((await read()).services.every((s) => s.status === 'pending_key'));
    await run(process.execPath, [join(REPO_ROOT, 'bin', 'agora'), '--root', project.root, 'build'], { env: { ...env, AGORA_KMA_KEY: 'kma-key' } });
    const after = await read();
    assert.deepEqual(after.services.filter((s) => s.status === 'active').map((s) => s.slug), ['weather-forecast']);
  });
});

test('a site without a catalog offers no public data, and says so consistently', async (t) => {
  const project = await makeProject({ samplePosts: true });
  t.after(() => project.remove());
  const server = await startTestServer(project);
  t.after(() => server.close());
  const health = (await (await fetch(`${server.url}/api/health`)).json()) as Health;
  assert.deepEqual(health.missing_keys, [], 'no provider is called, so no key is missing');
  const weather = await fetch(`${server.url}/api/weather?nx=60&ny=127`);
  assert.equal(weather.status, 404);
  // Not a bare "nothing": a newcomer learns the site has no catalog and where to read how to add one.
  assert.match(((await weather.json()) as { error: { message: string } }).error.message, /no public-data catalog \(content\/catalog\/catalog\.yaml\); docs\/public-data\.md/);
  const proxy = await fetch(`${server.url}/agencatalog/api/call`, { method: 'POST' });
  assert.match(((await proxy.json()) as { error: { message: string } }).error.message, /no public-data catalog/);
  const doc = JSON.parse(await readFile(join(project.config.distDir, 'openapi.json'), 'utf8')) as { paths: Record<string, unknown> };
  assert.deepEqual(Object.keys(doc.paths).filter((p) => p.startsWith('/agencatalog') || p === '/api/weather'), [], 'openapi.json documents none of it');
  // Nor does MCP offer its tools, or llms.txt speak of them.
  const client = new Client({ name: 'agora-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  t.after(() => client.close());
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((tool) => tool.name).sort(), ['get_post', 'list_comments', 'post_comment', 'search_posts']);
  assert.doesNotMatch(client.getInstructions() ?? '', /get_catalog/);
  const llms = await readFile(join(project.config.distDir, 'llms.txt'), 'utf8');
  assert.doesNotMatch(llms, /public-data catalog|catalog pages/);
  assert.doesNotMatch(JSON.stringify(doc), /agencatalog|get_catalog/);
});

test('withKeyStatus', async (t) => {
  const catalog = { version: 2, updated: '2026-01-01', proxy: { call: '/x', auth: 'h' }, services: [{ slug: 'a', status: 'active' }, { slug: 'b', status: 'pending_key' }, { slug: 'c', status: 'active' }] } as unknown as Catalog;

  await t.test('should mark only active entries whose key is missing', () => {
    const out = withKeyStatus(catalog, new Map([['a', ['K']], ['b', ['K']]]));
    assert.deepEqual(out?.services.map((s) => s.status), ['pending_key', 'pending_key', 'active']);
    assert.equal(catalog.services[0]!.status, 'active', 'the loaded catalog is not changed');
  });

  await t.test('should leave the catalog as authored when nothing is known or missing', () => {
    assert.equal(withKeyStatus(catalog, undefined), catalog);
    assert.equal(withKeyStatus(catalog, new Map()), catalog);
    assert.equal(withKeyStatus(null, new Map([['a', ['K']]])), null);
  });
});

test('keyStatusFromEnv', async (t) => {
  await t.test('should count a key set in either the provider setting or the shared data.go.kr one, not a blank one', () => {
    const providers = (env: NodeJS.ProcessEnv) => keyStatusFromEnv(env).providers.map((m) => m.provider);
    assert.ok(!providers({ AGORA_KMA_KEY: 'k' }).includes('kma'));
    assert.deepEqual(providers({ AGORA_DATA_GO_KR_KEY: 'k', AGORA_LAW_OC: 'o', AGORA_DART_KEY: 'd', AGORA_ECOS_KEY: 'e' }), []);
    assert.ok(providers({ AGORA_KMA_KEY: '   ' }).includes('kma'));
    assert.deepEqual([...keyStatusFromEnv({ AGORA_DATA_GO_KR_KEY: 'k' }).catalog.keys()].sort(), ['corporate-disclosures', 'economic-statistics', 'statutes-case-law']);
  });
});
