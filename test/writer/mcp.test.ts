import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { makeProject, NO_RATE_LIMITS, REPO_ROOT } from '../helpers/project.ts';
import { startTestServer, commentDoc, API_KEY } from '../helpers/server.ts';
import { startFakeProviders } from '../fakes/index.ts';
import { createPool, send } from '../helpers/http.ts';
import { createToken } from '../../packages/writer/src/public-data/tokens.ts';

const KOREAN = '2025-10-02-한국어-형태소-분석기-비교';
const NGINX = '2025-09-14-nginx-reverse-proxy-websocket-timeouts';
const TOOLS = ['call_public_data', 'get_catalog', 'get_post', 'list_comments', 'post_comment', 'search_posts'];

const text = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;
const parsed = <T>(result: unknown): T => JSON.parse(text(result)) as T;
/** A raw JSON-RPC `tools/list` request, for checks below the SDK client (the Host header). */
const TOOLS_LIST = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
const MCP_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

test('MCP over Streamable HTTP', async (t) => {
  const fake = await startFakeProviders();
  const project = await makeProject({ samplePosts: true, catalog: true, files: { 'agora.config.json': NO_RATE_LIMITS } });
  const server = await startTestServer(project, fake.env());
  const client = new Client({ name: 'agora-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  t.after(async () => {
    await client.close();
    await server.close();
    await fake.close();
    await project.remove();
  });

  await t.test('should list every tool with an input schema', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name).sort(), TOOLS);
    const search = tools.find((tool) => tool.name === 'search_posts');
    assert.deepEqual(search?.inputSchema.required, ['query']);
    assert.ok(search?.description);
  });

  await t.test('should search in English and Korean', async () => {
    const english = parsed<{ results: { slug: string }[] }>(await client.callTool({ name: 'search_posts', arguments: { query: 'websocket', limit: 3 } }));
    assert.equal(english.results[0]?.slug, NGINX);
    assert.ok(english.results.length <= 3);
    const korean = parsed<{ results: { slug: string }[] }>(await client.callTool({ name: 'search_posts', arguments: { query: '형태소 분석기' } }));
    assert.equal(korean.results[0]?.slug, KOREAN);
  });

  await t.test('should refuse bad arguments with a clear error', async () => {
    const result = (await client.callTool({ name: 'search_posts', arguments: { query: 'x', category: 'news' } })) as CallToolResult;
    assert.equal(result.isError, true);
    assert.match(text(result), /category/);
    const missing = (await client.callTool({ name: 'get_post', arguments: { slug: 'no-such-post' } })) as CallToolResult;
    assert.equal(missing.isError, true);
    assert.deepEqual(JSON.parse(text(missing)).error.field, 'slug');
  });

  await t.test('should get a post as markdown with its comments', async () => {
    const result = await client.callTool({ name: 'get_post', arguments: { slug: KOREAN } });
    assert.match(text(result), /^---\ntitle: /);
    assert.match(text(result), /## Comments \(\d+\)/);
  });

  await t.test('should post a comment that appears on the page, with the route\'s rules and key', async () => {
    const wrongKey = (await client.callTool({ name: 'post_comment', arguments: { slug: NGINX, document: commentDoc(), api_key: 'nope' } })) as CallToolResult;
    assert.equal(wrongKey.isError, true);
    assert.equal(JSON.parse(text(wrongKey)).error.code, 'unauthorized');
    const bad = (await client.callTool({ name: 'post_comment', arguments: { slug: NGINX, document: commentDoc({ type: 'debate' }), api_key: API_KEY } })) as CallToolResult;
    assert.equal(bad.isError, true);
    assert.equal(JSON.parse(text(bad)).error.field, 'position');
    const big = (await client.callTool({ name: 'post_comment', arguments: { slug: NGINX, document: commentDoc({}, 'x'.repeat(17 * 1024)), api_key: API_KEY } })) as CallToolResult;
    assert.equal(JSON.parse(text(big)).error.code, 'payload_too_large');

    const body = 'Posted through MCP: also raise proxy_send_timeout for long uploads.';
    const ok = parsed<{ status: number; comment: { id: string; body: string } }>(await client.callTool({ name: 'post_comment', arguments: { slug: NGINX, document: commentDoc({ author: 'mcp-agent' }, body), api_key: API_KEY } }));
    assert.equal(ok.status, 201);
    const page = await (await fetch(`${server.url}/troubleshooting/${NGINX}/`)).text();
    assert.ok(page.includes('mcp-agent'), 'the page shows the comment');
    const listed = parsed<{ id: string }[]>(await client.callTool({ name: 'list_comments', arguments: { slug: NGINX } }));
    assert.ok(listed.some((c) => c.id === ok.comment.id));
    assert.match(text(await client.callTool({ name: 'get_post', arguments: { slug: NGINX } })), /Posted through MCP/);
  });

  await t.test('should take the key from the X-API-Key header of the MCP request', async () => {
    const keyed = new Client({ name: 'keyed', version: '1.0.0' });
    await keyed.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { 'X-API-Key': API_KEY } } }));
    t.after(() => keyed.close());
    const ok = parsed<{ status: number }>(await keyed.callTool({ name: 'post_comment', arguments: { slug: KOREAN, document: commentDoc({ author: 'header-agent' }, '헤더로 보낸 키로 남긴 댓글입니다.') } }));
    assert.equal(ok.status, 201);
  });

  await t.test('should read the catalog and call a simple endpoint and the proxy against the fakes', async () => {
    const catalog = parsed<{ services: { slug: string }[] }>(await client.callTool({ name: 'get_catalog', arguments: {} }));
    assert.ok(catalog.services.some((s) => s.slug === 'apartment-complex'));
    const apt = parsed<{ data: unknown; source: { operation: string } }>(await client.callTool({ name: 'call_public_data', arguments: { endpoint: 'apt', params: { kaptCode: 'A10027875' } } }));
    assert.equal(apt.source.operation, 'getAphusBassInfoV5');
    const badQuery = (await client.callTool({ name: 'call_public_data', arguments: { endpoint: 'apt', params: { kaptCode: 'nope' } } })) as CallToolResult;
    assert.equal(JSON.parse(text(badQuery)).error.field, 'kaptCode');

    const noToken = (await client.callTool({ name: 'call_public_data', arguments: { endpoint: 'proxy', service: 'apartment-complex', operation: 'getAphusBassInfoV5', params: { kaptCode: 'A10027875' } } })) as CallToolResult;
    assert.equal(JSON.parse(text(noToken)).error.code, 'unauthorized');
    const { token } = await createToken(server.store.tokens, 'mcp test');
    const proxied = parsed<{ source: { operation: string } }>(await client.callTool({ name: 'call_public_data', arguments: { endpoint: 'proxy', service: 'apartment-complex', operation: 'getAphusBassInfoV5', params: { kaptCode: 'A10027875' }, agent_token: token } }));
    assert.equal(proxied.source.operation, 'getAphusBassInfoV5');
  });

  await t.test('should offer posts as resources', async () => {
    const { resources } = await client.listResources();
    const korean = resources.find((r) => r.name === KOREAN);
    assert.ok(korean);
    const read = await client.readResource({ uri: korean.uri });
    assert.match((read.contents[0] as { text: string }).text, /형태소/);
  });

  await t.test('should refuse GET on /mcp with 405 and Allow', async () => {
    const res = await fetch(`${server.url}/mcp`);
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('allow'), 'POST');
  });

  await t.test('should refuse a Host it does not serve (DNS rebinding) before reading the body', async () => {
    const agent = createPool(1);
    t.after(() => agent.destroy());
    const port = new URL(server.url).port;
    const rebound = await send(agent, `${server.url}/mcp`, 'POST', TOOLS_LIST, { ...MCP_HEADERS, Host: `attacker.example:${port}` });
    assert.equal(rebound.status, 403);
    assert.match(JSON.parse(rebound.body).error.message, /attacker\.example/);
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`]) {
      const ok = await send(agent, `${server.url}/mcp`, 'POST', TOOLS_LIST, { ...MCP_HEADERS, Host: host });
      assert.equal(ok.status, 200, host);
      assert.ok(JSON.parse(ok.body).result.tools.length > 0);
    }
  });
});

test('MCP answers the hosts named in AGORA_MCP_HOSTS and the base URL', async (t) => {
  const project = await makeProject({ files: { 'agora.config.json': NO_RATE_LIMITS }, baseUrl: 'https://site.example' });
  const server = await startTestServer(project, { AGORA_MCP_HOSTS: 'agents.internal, Mirror.Example' });
  const agent = createPool(1);
  t.after(async () => {
    agent.destroy();
    await server.close();
    await project.remove();
  });
  for (const [host, status] of [['agents.internal', 200], ['mirror.example:443', 200], ['site.example', 200], ['other.example', 403]] as const) {
    const res = await send(agent, `${server.url}/mcp`, 'POST', TOOLS_LIST, { ...MCP_HEADERS, Host: host });
    assert.equal(res.status, status, host);
  }
});

test('MCP rate limits as on the HTTP routes', async (t) => {
  const project = await makeProject({ samplePosts: true, files: { 'agora.config.json': JSON.stringify({ limits: { commentsPerIpPerMinute: 2 } }) } });
  const server = await startTestServer(project);
  const client = new Client({ name: 'limited', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  t.after(async () => {
    await client.close();
    await server.close();
    await project.remove();
  });
  await t.test('should answer rate_limited after the per-client comment budget', async () => {
    const codes: string[] = [];
    for (let i = 0; i < 3; i++) {
      const result = (await client.callTool({ name: 'post_comment', arguments: { slug: NGINX, document: commentDoc({}, `Comment number ${i} with enough characters.`), api_key: API_KEY } })) as CallToolResult;
      codes.push(result.isError ? JSON.parse(text(result)).error.code : 'ok');
    }
    assert.deepEqual(codes, ['ok', 'ok', 'rate_limited']);
  });
});

test('MCP over stdio (agora mcp)', async (t) => {
  const project = await makeProject({ samplePosts: true, files: { 'agora.config.json': NO_RATE_LIMITS } });
  const transport = new StdioClientTransport({ command: process.execPath, args: [join(REPO_ROOT, 'bin', 'agora'), '--root', project.root, 'mcp'], env: { ...process.env, LOG_LEVEL: 'silent' } as Record<string, string>, stderr: 'pipe' });
  const client = new Client({ name: 'stdio-test', version: '1.0.0' });
  await client.connect(transport);
  t.after(async () => {
    await client.close();
    await project.remove();
  });

  await t.test('should list tools, search, and post a comment that is written to the page', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name).sort(), TOOLS);
    const korean = parsed<{ results: { slug: string }[] }>(await client.callTool({ name: 'search_posts', arguments: { query: '형태소' } }));
    assert.equal(korean.results[0]?.slug, KOREAN);
    const ok = parsed<{ status: number }>(await client.callTool({ name: 'post_comment', arguments: { slug: NGINX, document: commentDoc({ author: 'stdio-agent' }), api_key: API_KEY } }));
    assert.equal(ok.status, 201);
    const { readFile } = await import('node:fs/promises');
    const page = await readFile(join(project.root, 'dist', 'troubleshooting', NGINX, 'index.html'), 'utf8');
    assert.ok(page.includes('stdio-agent'));
  });
});
