import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { Client, ProtocolError, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { makeProject, postSource, NO_RATE_LIMITS, REPO_ROOT } from '../helpers/project.ts';
import { startTestServer, commentDoc, API_KEY } from '../helpers/server.ts';
import { startFakeProviders } from '../fakes/index.ts';
import { createPool, send } from '../helpers/http.ts';
import { createToken } from '../../packages/writer/src/public-data/tokens.ts';

const KOREAN = '2025-10-02-한국어-형태소-분석기-비교';
const NGINX = '2025-09-14-nginx-reverse-proxy-websocket-timeouts';
const TOOLS = ['call_public_data', 'get_catalog', 'get_post', 'list_comments', 'post_comment', 'search_posts'];
const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';

const text = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;
const data = <T>(result: unknown): T => (result as CallToolResult).structuredContent as T;
const errorBody = (result: unknown) => JSON.parse(text(result)) as { error: { code: string; message: string; field?: string } };
const MCP_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
/** A raw 2025-era `tools/list` request, for checks below the SDK client (the Host header). */
const TOOLS_LIST = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });

/** Clients of both eras: pinned to 2026-07-28, and the default 2025 `initialize` handshake. */
function clients(name: string) {
  return {
    modern: new Client({ name: `${name}-modern`, version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } } }),
    legacy: new Client({ name: `${name}-legacy`, version: '1.0.0' }),
  };
}

/** Expect a JSON-RPC error (not a tool error) with `code`. */
async function rejectsWith(promise: Promise<unknown>, code: number, message?: RegExp, data?: Record<string, unknown>): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof ProtocolError, `a ProtocolError, got ${String(error)}`);
    assert.equal(error.code, code);
    if (message) assert.match(error.message, message);
    if (data) assert.deepEqual(error.data, data);
    return true;
  });
}

/** The JSON-RPC message of a raw answer, a JSON body or one SSE `message` event. */
function jsonRpc(body: string): { result?: Record<string, unknown>; error?: { code: number; message: string } } {
  const data = body.startsWith('{') ? body : body.split('\n').find((line) => line.startsWith('data: '))?.slice(6);
  return JSON.parse(data ?? 'null');
}

/**
 * Where a tool schema does not port to every client, by the rules of MCP Inspector's
 * `--strict` lint: a `type` array (clients mapping onto one-type dialects drop it), a
 * schema that constrains nothing (`{}`: say `additionalProperties: true` for a
 * free-form object), and a bare boolean where a schema object is expected.
 */
function unportable(schema: unknown, path = ''): string[] {
  const found: string[] = [];
  const ASSERTIONS = /^(type|enum|const|multipleOf|maximum|exclusiveMaximum|minimum|exclusiveMinimum|maxLength|minLength|pattern|format|maxItems|minItems|uniqueItems|maxContains|minContains|maxProperties|minProperties|required|dependentRequired|properties|patternProperties|additionalProperties|propertyNames|items|prefixItems|contains|allOf|anyOf|oneOf|not|\$ref)$/;
  const walk = (node: unknown, at: string, keyword: string | null) => {
    if (typeof node === 'boolean') {
      if (!keyword || !['additionalProperties', 'unevaluatedProperties', 'additionalItems', 'unevaluatedItems'].includes(keyword)) found.push(`${at}: a bare ${node}`);
      return;
    }
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return;
    const o = node as Record<string, unknown>;
    if (Array.isArray(o.type)) found.push(`${at}: type ${JSON.stringify(o.type)}`);
    if (keyword !== 'not' && !Object.keys(o).some((k) => ASSERTIONS.test(k))) found.push(`${at}: constrains nothing`);
    for (const k of ['properties', 'patternProperties', '$defs', 'definitions']) for (const [name, sub] of Object.entries((o[k] ?? {}) as Record<string, unknown>)) walk(sub, `${at}.${k}.${name}`, k);
    for (const k of ['allOf', 'anyOf', 'oneOf', 'prefixItems']) ((o[k] ?? []) as unknown[]).forEach((sub, i) => walk(sub, `${at}.${k}[${i}]`, k));
    for (const k of ['items', 'contains', 'not', 'propertyNames', 'if', 'then', 'else', 'additionalProperties', 'unevaluatedProperties']) if (k in o) walk(o[k], `${at}.${k}`, k);
  };
  walk(schema, path, null);
  return found;
}

/** What every era must answer the same: tools with output schemas, structured results, the spec's errors. */
async function sharedChecks(t: { test: (name: string, fn: () => Promise<void>) => Promise<void> }, client: Client, baseUrl: string) {
  await t.test('should list every tool with input and output schemas', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name).sort(), TOOLS);
    for (const tool of tools) {
      assert.equal(tool.outputSchema?.type, 'object', `${tool.name} outputSchema`);
      assert.ok(tool.description, `${tool.name} description`);
      assert.doesNotMatch(tool.description, /header/i, `${tool.name} speaks of a header`);
    }
    assert.deepEqual(tools.find((tool) => tool.name === 'search_posts')?.inputSchema.required, ['query']);
    assert.match(tools.find((tool) => tool.name === 'post_comment')!.description!, new RegExp(API_KEY));
    // Before: list_comments' slug `type: ["string","null"]`, get_catalog's and call_public_data's free-form objects `additionalProperties: {}`.
    assert.deepEqual(tools.flatMap((tool) => [...unportable(tool.inputSchema, `${tool.name}.inputSchema`), ...unportable(tool.outputSchema, `${tool.name}.outputSchema`)]), []);
  });

  await t.test('should say only true capabilities and give the key and base URL in the instructions', async () => {
    const capabilities = client.getServerCapabilities();
    assert.equal(capabilities?.tools?.listChanged, false);
    assert.equal(capabilities?.resources?.listChanged, false);
    const instructions = client.getInstructions() ?? '';
    assert.ok(instructions.includes(API_KEY), instructions);
    assert.ok(instructions.includes(`${baseUrl}/agents.md`), instructions);
    assert.doesNotMatch(instructions, /localhost:8080|header/i);
  });

  await t.test('should search with structured results in English and Korean', async () => {
    const english = data<{ results: { slug: string; url: string }[] }>(await client.callTool({ name: 'search_posts', arguments: { query: 'websocket', limit: 3 } }));
    assert.equal(english.results[0]?.slug, NGINX);
    assert.ok(english.results[0]!.url.startsWith(baseUrl));
    assert.ok(english.results.length <= 3);
    const korean = await client.callTool({ name: 'search_posts', arguments: { query: '형태소 분석기' } });
    assert.equal(data<{ results: { slug: string }[] }>(korean).results[0]?.slug, KOREAN);
    assert.deepEqual(JSON.parse(text(korean)), data(korean), 'the text is the structured content');
  });

  await t.test('should get a post by its raw or percent-encoded slug', async () => {
    for (const slug of [KOREAN, encodeURIComponent(KOREAN)]) {
      const result = await client.callTool({ name: 'get_post', arguments: { slug } });
      assert.equal(result.isError, undefined, text(result));
      assert.match(text(result), /^---\ntitle: /);
      assert.match(text(result), /## Comments \(\d+\)/);
      const post = data<{ slug: string; url: string; comments: unknown[] }>(result);
      assert.equal(post.slug, KOREAN);
      // Then the same JSON as text, as MCP asks of a tool with an output schema.
      assert.deepEqual(JSON.parse(((result as CallToolResult).content[1] as { text: string }).text), post);
      assert.ok(post.url.startsWith(`${baseUrl}/`));
    }
    const missing = await client.callTool({ name: 'get_post', arguments: { slug: 'no-such-post' } });
    assert.equal(missing.isError, true);
    assert.equal(errorBody(missing).error.field, 'slug');
  });

  await t.test('should answer an unknown tool with -32602, not a tool error', async () => {
    await rejectsWith(client.callTool({ name: 'no_such_tool', arguments: {} }), -32602, /no_such_tool/);
  });

  // -32602 with data.uri (SEP-2164, a MUST in 2026-07-28; the SDK sends it in both eras, and
  // clients read either code with data.uri as resource-not-found).
  await t.test('should answer an unknown resource with -32602 and its uri', async () => {
    await rejectsWith(client.readResource({ uri: 'agora://post/no-such-post' }), -32602, /no-such-post/, { uri: 'agora://post/no-such-post' });
  });

  await t.test('should refuse bad arguments as a tool error the model can read', async () => {
    const result = await client.callTool({ name: 'search_posts', arguments: { query: 'x', category: 'news' } });
    assert.equal(result.isError, true);
    assert.match(text(result), /category/);
    // Refused by the tool's input schema: still the writer's error body, naming the argument.
    for (const [name, args, field] of [['search_posts', { query: 'x', category: 'news' }, 'category'], ['get_post', {}, 'slug'], ['get_catalog', { limit: 21 }, 'limit'], ['search_posts', { query: 123 }, 'query']] as const) {
      const refused = await client.callTool({ name, arguments: args });
      assert.equal(refused.isError, true, `${name} ${JSON.stringify(args)}`);
      const { error } = errorBody(refused);
      assert.equal(error.code, 'validation', `${name} ${JSON.stringify(args)}: ${error.message}`);
      assert.equal(error.field, field, `${name} ${JSON.stringify(args)}: ${error.message}`);
    }
    // A query of blanks only passed the schema and was refused as the HTTP route's `q` (`?q=nginx`), an argument the tool does not have.
    const blank = errorBody(await client.callTool({ name: 'search_posts', arguments: { query: ' \t ' } })).error;
    assert.equal(blank.field, 'query', blank.message);
    assert.doesNotMatch(blank.message, /\?q=|query\/q\b/, blank.message);
    assert.match(blank.message, /not only blanks/);
    // Counted once trimmed, as GET /api/search counts its q. Before: refused as over 200 characters.
    const padded = await client.callTool({ name: 'search_posts', arguments: { query: `   nginx${' '.repeat(200)}` } });
    assert.notEqual(padded.isError, true, JSON.stringify(padded.content));
  });

  await t.test('should ask for the comment key by argument, giving its value and never a header', async () => {
    for (const api_key of [undefined, 'nope']) {
      const refused = await client.callTool({ name: 'post_comment', arguments: { slug: NGINX, document: commentDoc(), ...(api_key ? { api_key } : {}) } });
      assert.equal(refused.isError, true);
      const { error } = errorBody(refused);
      assert.equal(error.code, 'unauthorized');
      assert.equal(error.field, 'api_key');
      assert.ok(error.message.includes(API_KEY), error.message);
      assert.doesNotMatch(error.message, /header|X-API-Key/i);
    }
  });
}

test('MCP over Streamable HTTP, both protocol eras', async (t) => {
  const fake = await startFakeProviders();
  // 120 more posts, so resources/list has more than one page.
  const extra = Object.fromEntries(Array.from({ length: 120 }, (_, i) => [`content/posts/2025-01-01-page-${String(i).padStart(3, '0')}.md`, postSource({ title: `Page ${i}` })]));
  const project = await makeProject({ samplePosts: true, catalog: true, files: { 'agora.config.json': NO_RATE_LIMITS, ...extra } });
  const server = await startTestServer(project, fake.env());
  const endpoint = new URL(`${server.url}/mcp`);
  const { modern, legacy } = clients('http');
  await modern.connect(new StreamableHTTPClientTransport(endpoint));
  await legacy.connect(new StreamableHTTPClientTransport(endpoint));
  const agent = createPool(1);
  t.after(async () => {
    agent.destroy();
    await modern.close();
    await legacy.close();
    await server.close();
    await fake.close();
    await project.remove();
  });
  const baseUrl = project.config.site.baseUrl;

  await t.test('should negotiate 2026-07-28 through server/discover, and 2025-11-25 through initialize', async () => {
    assert.equal(modern.getProtocolEra(), 'modern');
    assert.equal(modern.getNegotiatedProtocolVersion(), MODERN);
    assert.equal(legacy.getProtocolEra(), 'legacy');
    assert.equal(legacy.getNegotiatedProtocolVersion(), LEGACY);
    const envelope = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' } };
    const discover = await send(agent, endpoint.href, 'POST', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: envelope } }), { ...MCP_HEADERS, 'MCP-Protocol-Version': MODERN, 'Mcp-Method': 'server/discover' });
    assert.equal(discover.status, 200, discover.body);
    const result = jsonRpc(discover.body).result as { supportedVersions: string[]; capabilities: { tools: { listChanged: boolean } } };
    assert.deepEqual(result.supportedVersions, [MODERN]);
    assert.equal(result.capabilities.tools.listChanged, false);
  });

  await t.test('should answer params the spec refuses with -32602 naming the param, in both eras', async () => {
    const envelope = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' } };
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['resources/read', {}, /uri/],
      ['resources/read', { uri: 5 }, /uri/],
      ['resources/list', { cursor: 5 }, /cursor/],
      ['tools/list', { cursor: 5 }, /cursor/],
      ['tools/call', { name: 7 }, /name/],
    ];
    for (const [method, params, names] of cases) {
      const legacyAnswer = await send(agent, endpoint.href, 'POST', JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }), MCP_HEADERS);
      const modernAnswer = await send(agent, endpoint.href, 'POST', JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: envelope } }), { ...MCP_HEADERS, 'MCP-Protocol-Version': MODERN, 'Mcp-Method': method });
      for (const [era, answer] of [['2025', legacyAnswer], ['2026', modernAnswer]] as const) {
        const error = jsonRpc(answer.body).error;
        assert.equal(error?.code, -32602, `${era} ${method} ${JSON.stringify(params)}: ${answer.body}`);
        assert.match(error.message, names);
        assert.doesNotMatch(error.message, /"code":|invalid_type/, 'a sentence, not the validator\'s dump');
      }
    }
    const initialize = await send(agent, endpoint.href, 'POST', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }), MCP_HEADERS);
    assert.equal(jsonRpc(initialize.body).error?.code, -32602, initialize.body);
  });

  await t.test('should refuse a Content-Digest that is not the body\'s, and a lone surrogate, storing nothing', async () => {
    const before = (await (await fetch(`${server.url}/api/comments/${NGINX}`)).json()) as unknown[];
    const call = (document: string) => JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'post_comment', arguments: { slug: NGINX, document, api_key: API_KEY } } });
    const other = call(commentDoc({}, 'The body the digest was made for.'));
    const digest = `sha-256=:${createHash('sha256').update(other).digest('base64')}:`;
    const swapped = await send(agent, endpoint.href, 'POST', call(commentDoc({}, 'A different body than the digest names.')), { ...MCP_HEADERS, 'Content-Digest': digest });
    assert.equal(swapped.status, 400, swapped.body);
    const refused = jsonRpc(swapped.body).error as { code: number; data?: { field?: string } };
    assert.equal(refused.code, -32000);
    assert.equal(refused.data?.field, 'Content-Digest');
    const matching = await send(agent, endpoint.href, 'POST', other, { ...MCP_HEADERS, 'Content-Digest': digest });
    assert.equal(matching.status, 200, matching.body);
    assert.equal((jsonRpc(matching.body).result as { structuredContent: { status: number } }).structuredContent.status, 201);
    // JSON may escape half a surrogate pair; HTTP refuses the same text as bytes, so MCP must too.
    const lone = await modern.callTool({ name: 'post_comment', arguments: { slug: NGINX, document: commentDoc({}, 'A body with half a pair: \ud800 in it.'), api_key: API_KEY } });
    assert.equal(lone.isError, true);
    assert.equal(errorBody(lone).error.field, 'body');
    assert.match(errorBody(lone).error.message, /U\+D800 on line 6/);
    const author = await modern.callTool({ name: 'post_comment', arguments: { slug: NGINX, document: commentDoc({ author: 'a\udc00b' }, 'An ordinary body, long enough.'), api_key: API_KEY } });
    assert.equal(errorBody(author).error.field, 'author');
    const after = (await (await fetch(`${server.url}/api/comments/${NGINX}`)).json()) as unknown[];
    assert.equal(after.length, before.length + 1, 'only the comment whose digest matched');
  });

  await t.test('2026-07-28 (stateless, server/discover)', (tt) => sharedChecks(tt, modern, baseUrl));
  await t.test('2025-11-25 (initialize)', (tt) => sharedChecks(tt, legacy, baseUrl));

  await t.test('should post a comment with the route\'s rules, live on the page at once', async () => {
    const bad = await modern.callTool({ name: 'post_comment', arguments: { slug: NGINX, document: commentDoc({ type: 'debate' }), api_key: API_KEY } });
    assert.equal(bad.isError, true);
    assert.equal(errorBody(bad).error.field, 'position');
    const big = await modern.callTool({ name: 'post_comment', arguments: { slug: NGINX, document: commentDoc({}, 'x'.repeat(17 * 1024)), api_key: API_KEY } });
    assert.equal(errorBody(big).error.code, 'payload_too_large');

    const body = 'Posted through MCP: also raise proxy_send_timeout for long uploads.';
    const ok = data<{ status: number; location: string; comment: { id: string } }>(await modern.callTool({ name: 'post_comment', arguments: { slug: NGINX, document: commentDoc({ author: 'mcp-agent' }, body), api_key: API_KEY } }));
    assert.equal(ok.status, 201);
    assert.ok(ok.location.startsWith(`${baseUrl}/api/comments/`), ok.location);
    const page = await (await fetch(`${server.url}/troubleshooting/${NGINX}/`)).text();
    assert.ok(page.includes('mcp-agent'), 'the page shows the comment');
    const listed = data<{ comments: { id: string }[] }>(await legacy.callTool({ name: 'list_comments', arguments: { slug: NGINX } }));
    assert.ok(listed.comments.some((c) => c.id === ok.comment.id));
    assert.match(text(await legacy.callTool({ name: 'get_post', arguments: { slug: NGINX } })), /Posted through MCP/);
    // A Korean slug, percent-encoded as in its URL.
    const korean = data<{ status: number }>(await legacy.callTool({ name: 'post_comment', arguments: { slug: encodeURIComponent(KOREAN), document: commentDoc({ author: 'encoded-agent' }, '퍼센트 인코딩된 슬러그로 남긴 댓글입니다.'), api_key: API_KEY } }));
    assert.equal(korean.status, 201);
  });

  await t.test('should take the key from the X-API-Key header of an HTTP MCP request', async () => {
    const keyed = new Client({ name: 'keyed', version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } } });
    await keyed.connect(new StreamableHTTPClientTransport(endpoint, { requestInit: { headers: { 'X-API-Key': API_KEY } } }));
    t.after(() => keyed.close());
    const ok = data<{ status: number }>(await keyed.callTool({ name: 'post_comment', arguments: { slug: KOREAN, document: commentDoc({ author: 'header-agent' }, '헤더로 보낸 키로 남긴 댓글입니다.') } }));
    assert.equal(ok.status, 201);
  });

  await t.test('should page comments with a cursor', async () => {
    const first = data<{ total: number; comments: { id: string }[]; next_cursor?: string }>(await modern.callTool({ name: 'list_comments', arguments: { limit: 1 } }));
    assert.ok(first.total >= 2);
    assert.equal(first.comments.length, 1);
    assert.ok(first.next_cursor);
    const second = data<{ comments: { id: string }[] }>(await modern.callTool({ name: 'list_comments', arguments: { limit: 1, cursor: first.next_cursor } }));
    assert.notEqual(second.comments[0]?.id, first.comments[0]?.id);
    const bad = await modern.callTool({ name: 'list_comments', arguments: { cursor: 'not-a-cursor' } });
    assert.equal(errorBody(bad).error.field, 'cursor');
  });

  await t.test('should neither repeat nor skip a comment when one is posted between two pages', async () => {
    // The site-wide list is newest first: with a cursor that was an offset, a comment posted
    // between two pages pushed the last one of page 1 onto page 2 (found with raw tools/call).
    type Page = { comments: { id: string }[]; next_cursor?: string };
    const first = data<Page>(await modern.callTool({ name: 'list_comments', arguments: { limit: 2 } }));
    assert.ok(first.next_cursor);
    const posted = data<{ status: number }>(await modern.callTool({ name: 'post_comment', arguments: { slug: NGINX, document: commentDoc({ author: 'between-pages' }), api_key: API_KEY } }));
    assert.equal(posted.status, 201);
    const all = data<Page>(await modern.callTool({ name: 'list_comments', arguments: { limit: 200 } })).comments.map((c) => c.id);
    const second = data<Page>(await modern.callTool({ name: 'list_comments', arguments: { limit: 2, cursor: first.next_cursor } }));
    const start = all.indexOf(first.comments[1]!.id) + 1;
    assert.deepEqual(second.comments.map((c) => c.id), all.slice(start, start + 2), 'page 2 goes on after the last comment of page 1');
    // One post's comments, oldest first, page on the same way.
    const onPost = data<Page>(await modern.callTool({ name: 'list_comments', arguments: { slug: NGINX, limit: 1 } }));
    const afterIt = data<Page>(await modern.callTool({ name: 'list_comments', arguments: { slug: NGINX, limit: 1, cursor: onPost.next_cursor } }));
    const postAll = data<Page>(await modern.callTool({ name: 'list_comments', arguments: { slug: NGINX, limit: 200 } })).comments.map((c) => c.id);
    assert.deepEqual([...onPost.comments, ...afterIt.comments].map((c) => c.id), postAll.slice(0, 2));
  });

  await t.test('should list posts as resources a page at a time', async () => {
    const total = server.state.site.posts.length;
    assert.ok(total > 100);
    // The first page, raw (the SDK client walks every page when given no cursor).
    const raw = await send(agent, endpoint.href, 'POST', JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'resources/list', params: {} }), MCP_HEADERS);
    const first = jsonRpc(raw.body).result as { resources: { name: string }[]; nextCursor?: string };
    assert.equal(first.resources.length, 100);
    assert.ok(first.nextCursor);
    const second = await modern.listResources({ cursor: first.nextCursor });
    assert.equal(second.resources.length, total - 100);
    assert.equal(second.nextCursor, undefined);
    const seen = [...first.resources, ...second.resources].map((r) => r.name);
    assert.equal(new Set(seen).size, total);
    assert.equal((await legacy.listResources()).resources.length, total, 'the client walks the pages');
    const korean = (await legacy.listResources()).resources.find((r) => r.name === KOREAN);
    assert.ok(korean);
    assert.match(((await legacy.readResource({ uri: korean.uri })).contents[0] as { text: string }).text, /형태소/);
    await rejectsWith(modern.listResources({ cursor: 'bogus' }), -32602);
  });

  await t.test('should page and filter the catalog instead of one block', async () => {
    const first = await modern.callTool({ name: 'get_catalog', arguments: {} });
    const page = data<{ total: number; services: { slug: string }[]; next_cursor?: string }>(first);
    assert.ok(page.total >= 10);
    assert.equal(page.services.length, 5);
    assert.ok(page.next_cursor);
    assert.ok(text(first).length < 8000, `first page: ${text(first).length} characters`);
    const rest = data<{ services: { slug: string }[] }>(await modern.callTool({ name: 'get_catalog', arguments: { cursor: page.next_cursor, limit: 20 } }));
    assert.equal(page.services.length + rest.services.length, page.total);
    const filtered = data<{ services: { slug: string }[] }>(await modern.callTool({ name: 'get_catalog', arguments: { query: 'apartment' } }));
    assert.ok(filtered.services.some((s) => s.slug === 'apartment-complex'));
    assert.ok(filtered.services.length < page.total);
    const one = data<{ service: { slug: string; apis: unknown[] } }>(await modern.callTool({ name: 'get_catalog', arguments: { service: 'apartment-complex' } }));
    assert.equal(one.service.slug, 'apartment-complex');
    assert.ok(one.service.apis.length > 0);
  });

  await t.test('should call a simple endpoint and the proxy against the fakes', async () => {
    const apt = data<{ source: { operation: string } }>(await modern.callTool({ name: 'call_public_data', arguments: { endpoint: 'apt', params: { kaptCode: 'A10027875' } } }));
    assert.equal(apt.source.operation, 'getAphusBassInfoV5');
    const badQuery = await modern.callTool({ name: 'call_public_data', arguments: { endpoint: 'apt', params: { kaptCode: 'nope' } } });
    // Named as the tool's argument, not as the HTTP query (`query/kaptCode`).
    assert.equal(errorBody(badQuery).error.field, 'params.kaptCode');
    assert.match(errorBody(badQuery).error.message, /^params\.kaptCode /);
    // A parameter the input schema refuses is named whole, as its message names it. Before: field `params`.
    const numeric = errorBody(await modern.callTool({ name: 'call_public_data', arguments: { endpoint: 'weather', params: { nx: 60, ny: '127' } } }));
    assert.equal(numeric.error.field, 'params.nx', JSON.stringify(numeric));
    assert.match(numeric.error.message, /params\.nx: /);
    const args = { endpoint: 'proxy', service: 'apartment-complex', operation: 'getAphusBassInfoV5', params: { kaptCode: 'A10027875' } };
    const noToken = errorBody(await modern.callTool({ name: 'call_public_data', arguments: args }));
    assert.equal(noToken.error.code, 'unauthorized');
    assert.equal(noToken.error.field, 'agent_token');
    assert.doesNotMatch(noToken.error.message, /header/i);
    const { token } = await createToken(server.store.tokens, 'mcp test');
    const proxied = data<{ source: { operation: string } }>(await legacy.callTool({ name: 'call_public_data', arguments: { ...args, agent_token: token } }));
    assert.equal(proxied.source.operation, 'getAphusBassInfoV5');
    // The proxy's refusals name the tool's arguments too, not the HTTP body's fields (`body/params/kaptCode`).
    for (const [refused, field, message] of [
      [{ ...args, params: {} }, 'params.kaptCode', /^params\.kaptCode is required by getAphusBassInfoV5/],
      [{ ...args, params: { kaptCode: 'B1' } }, 'params.kaptCode', /^params\.kaptCode /],
      [{ ...args, service: 'nope' }, 'service', /^service `nope` is not in the catalog/],
      [{ ...args, operation: 'nope' }, 'operation', /^operation `nope` is not an operation of `apartment-complex`/],
    ] as const) {
      const body = errorBody(await modern.callTool({ name: 'call_public_data', arguments: { ...refused, agent_token: token } }));
      assert.equal(body.error.field, field, JSON.stringify(refused));
      assert.match(body.error.message, message);
      assert.doesNotMatch(body.error.message, /body\//);
    }
  });

  await t.test('should refuse GET and DELETE on /mcp with 405 and Allow', async () => {
    for (const method of ['GET', 'DELETE', 'PUT']) {
      const res = await fetch(endpoint, { method });
      assert.equal(res.status, 405, method);
      assert.equal(res.headers.get('allow'), 'POST, OPTIONS');
      // JSON-RPC shaped, as every /mcp error but the 413.
      assert.deepEqual(Object.keys((await res.json()) as object).sort(), ['error', 'id', 'jsonrpc']);
    }
  });

  await t.test('should read Accept media types case-insensitively (RFC 9110 8.3.1), as they are', async () => {
    for (const accept of ['APPLICATION/JSON, TEXT/EVENT-STREAM', 'Application/Json, Text/Event-Stream']) {
      const res = await fetch(endpoint, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: accept }, body: TOOLS_LIST });
      assert.equal(res.status, 200, `${accept}: ${res.status}`);
      // As JSON or as one SSE event, as the SDK picks.
      assert.match(await res.text(), /"result":\{"tools":\[\{/, accept);
    }
    // Still refused when one of the two is missing.
    assert.equal((await fetch(endpoint, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'TEXT/EVENT-STREAM' }, body: TOOLS_LIST })).status, 406);
  });

  await t.test('should tell a body that is not JSON (-32700) from JSON that is no message (-32600), and name an unknown protocol revision', async () => {
    const post = (body: string, type = 'application/json') => fetch(endpoint, { method: 'POST', headers: { 'Content-Type': type, Accept: 'application/json, text/event-stream' }, body });
    for (const [body, code] of [['', -32700], ['{not json', -32700], ['42', -32600], ['"str"', -32600], ['null', -32600], ['true', -32600]] as const) {
      const res = await post(body);
      assert.equal(res.status, 400, JSON.stringify(body));
      const answer = (await res.json()) as { jsonrpc: string; id: null; error: { code: number } };
      assert.equal(answer.error.code, code, JSON.stringify(body));
      assert.equal(answer.id, null);
    }
    for (const revision of ['2099-01-01', 'bogus']) {
      const res = await fetch(endpoint, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': revision }, body: TOOLS_LIST });
      assert.equal(res.status, 400, revision);
      const answer = (await res.json()) as { error: { message: string; data: { supported: string[] } } };
      assert.match(answer.error.message, /Unsupported MCP-Protocol-Version/);
      assert.ok(answer.error.data.supported.includes('2025-06-18') && answer.error.data.supported.includes('2026-07-28'));
      // 2026-07-28 (versioning): a version the server does not implement MUST get UnsupportedProtocolVersionError,
      // -32022, so that a client retries with one of `supported` (it was -32000, which reads as a legacy server).
      assert.equal((answer.error as unknown as { code: number }).code, -32022, revision);
    }
    // A modern request as a 2026-07-28 client sends it (header, Mcp-Method and _meta all naming the version):
    // the same -32022 as the SDK gives when the header is left out, with the version echoed.
    const envelope = { 'io.modelcontextprotocol/protocolVersion': '2099-01-01', 'io.modelcontextprotocol/clientCapabilities': {} };
    const future = await fetch(endpoint, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2099-01-01', 'Mcp-Method': 'server/discover' }, body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'server/discover', params: { _meta: envelope } }) });
    assert.equal(future.status, 400);
    const refused = (await future.json()) as { id: unknown; error: { code: number; data: { supported: string[]; requested: string } } };
    assert.equal(refused.error.code, -32022);
    assert.equal(refused.id, 7);
    assert.equal(refused.error.data.requested, '2099-01-01');
    assert.ok(refused.error.data.supported.includes(MODERN));
    const latin = await post('{"jsonrpc":"2.0","id":1,"method":"ping"}', 'application/json; charset=latin1');
    assert.equal(latin.status, 415);
    assert.equal(((await latin.json()) as { error: { code: number } }).error.code, -32000);
    // Before: 400 -32700 "not JSON": any `utf-*` charset passed and UTF-8 bytes were decoded as UTF-16.
    const utf16 = await post('{"jsonrpc":"2.0","id":1,"method":"ping"}', 'application/json; charset=utf-16');
    assert.equal(utf16.status, 415);
    assert.equal(((await utf16.json()) as { error: { code: number } }).error.code, -32000);
  });

  await t.test('should refuse a Host it does not serve (DNS rebinding) before reading the body', async () => {
    const port = endpoint.port;
    const rebound = await send(agent, endpoint.href, 'POST', TOOLS_LIST, { ...MCP_HEADERS, Host: `attacker.example:${port}` });
    assert.equal(rebound.status, 403);
    assert.match(JSON.parse(rebound.body).error.message, /attacker\.example/);
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`]) {
      const ok = await send(agent, endpoint.href, 'POST', TOOLS_LIST, { ...MCP_HEADERS, Host: host });
      assert.equal(ok.status, 200, host);
      assert.match(ok.body, /"tools":\[/);
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

test('MCP answers the AGORA_WRITER_URL host, where llms.txt and agents.md send agents', async (t) => {
  // A CDN serves the site, the writer has its own host (docs/deploy.md): llms.txt names
  // https://write.example/mcp, and the writer refused that Host with 403 "Invalid Host".
  const project = await makeProject({ files: { 'agora.config.json': NO_RATE_LIMITS }, baseUrl: 'https://site.example', env: { AGORA_WRITER_URL: 'https://write.example' } });
  const server = await startTestServer(project);
  const agent = createPool(1);
  t.after(async () => {
    agent.destroy();
    await server.close();
    await project.remove();
  });
  const llms = await send(agent, `${server.url}/llms.txt`, 'GET');
  assert.match(llms.body, /https:\/\/write\.example\/mcp/, 'llms.txt names the writer\'s /mcp');
  for (const [host, status] of [['write.example', 200], ['write.example:443', 200], ['other.example', 403]] as const) {
    const res = await send(agent, `${server.url}/mcp`, 'POST', TOOLS_LIST, { ...MCP_HEADERS, Host: host });
    assert.equal(res.status, status, host);
  }
  const browser = await send(agent, `${server.url}/mcp`, 'POST', TOOLS_LIST, { ...MCP_HEADERS, Host: 'write.example', Origin: 'https://write.example' });
  assert.equal(browser.status, 200, 'the writer\'s own origin');
});

/** A writer whose per-client comment budget is `perMinute`, and a 2026-07-28 client of it. */
async function limitedClient(t: { after(fn: () => Promise<void>): void }, perMinute: number) {
  const project = await makeProject({ samplePosts: true, files: { 'agora.config.json': JSON.stringify({ limits: { commentsPerIpPerMinute: perMinute } }) } });
  const server = await startTestServer(project);
  const client = new Client({ name: 'limited', version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  t.after(async () => {
    await client.close();
    await server.close();
    await project.remove();
  });
  return { server, client };
}

test('MCP rate limits as on the HTTP routes', async (t) => {
  const { client } = await limitedClient(t, 2);
  await t.test('should answer rate_limited after the per-client comment budget', async () => {
    const codes: string[] = [];
    for (let i = 0; i < 3; i++) {
      const result = await client.callTool({ name: 'post_comment', arguments: { slug: NGINX, document: commentDoc({}, `Comment number ${i} with enough characters.`), api_key: API_KEY } });
      codes.push(result.isError ? errorBody(result).error.code : 'ok');
    }
    assert.deepEqual(codes, ['ok', 'ok', 'rate_limited']);
  });
});

test('MCP counts a wrong comment key against the budget, as HTTP does', async (t) => {
  const { server, client } = await limitedClient(t, 3);
  const codes: string[] = [];
  for (let i = 0; i < 4; i++) {
    const result = await client.callTool({ name: 'post_comment', arguments: { slug: NGINX, document: commentDoc({}, `Comment number ${i} with enough characters.`), api_key: 'wrong' } });
    codes.push(errorBody(result).error.code);
  }
  assert.deepEqual(codes, ['unauthorized', 'unauthorized', 'unauthorized', 'rate_limited']);
  const http = await fetch(`${server.url}/api/comments/${NGINX}`, { method: 'POST', headers: { 'X-API-Key': API_KEY, 'Content-Type': 'text/plain; charset=utf-8' }, body: commentDoc({}, 'A good comment after the bad keys.') });
  assert.equal(http.status, 429, 'the same budget on HTTP');
});

const STDIO_BASE = 'https://stdio.example';
const STDIO_CONFIG = JSON.stringify({ ...JSON.parse(NO_RATE_LIMITS), baseUrl: STDIO_BASE });

function stdio(root: string, extra: string[] = []): StdioClientTransport {
  return new StdioClientTransport({ command: process.execPath, args: [join(REPO_ROOT, 'bin', 'agora'), '--root', root, 'mcp', ...extra], env: { ...process.env, LOG_LEVEL: 'silent' } as Record<string, string>, stderr: 'pipe' });
}

async function pageHas(root: string, slug: string, text: string): Promise<boolean> {
  return (await readFile(join(root, 'dist', 'troubleshooting', slug, 'index.html'), 'utf8')).includes(text);
}

test('agora mcp on its own answers every request piped in before the end of input, a long last answer whole', async (t) => {
  // One post with a long body: its resources/read answer is ~900 KB, more than a pipe holds at once.
  const long = postSource({ title: 'A long post' }) + '\nA sentence of the long post, repeated. '.repeat(22_000) + '\n';
  const project = await makeProject({ samplePosts: true, files: { 'agora.config.json': STDIO_CONFIG, 'content/posts/2025-01-01-long.md': long } });
  t.after(() => project.remove());
  const answers = await pipeInto(project.root, [], [
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'piped', version: '1' } } },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'post_comment', arguments: { slug: NGINX, document: commentDoc({ author: 'piped-alone' }, 'Sent through a pipe with no writer running.'), api_key: API_KEY } } },
    { jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri: 'agora://post/2025-01-01-long' } },
  ]);
  assert.deepEqual(answers.map((a) => a.id), [1, 2, 3]);
  assert.equal(answers[1]!.result?.structuredContent?.status, 201, 'the stored comment\'s 201 arrives');
  assert.ok((answers[2]!.result?.contents?.[0]?.text.length ?? 0) > 800_000, 'the long answer whole');
});

test('agora mcp answers a JSON-RPC batch with one array, and a line that is not JSON with a parse error, as POST /mcp does', async (t) => {
  // 2025-03-26: implementations MUST support receiving JSON-RPC batches. Over stdio the SDK's
  // transport dropped a batch line unanswered (the client waited for ever, and a piped session
  // for its 60 s grace), and a line that is not JSON got no -32700.
  const project = await makeProject({ samplePosts: true, files: { 'agora.config.json': STDIO_CONFIG } });
  t.after(() => project.remove());
  const started = Date.now();
  const lines = await pipeLines(project.root, [
    JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'batch', version: '1' } } }),
    JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    JSON.stringify([{ jsonrpc: '2.0', id: 2, method: 'ping' }, { jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri: `agora://post/${NGINX}` } }, { jsonrpc: '2.0', id: 5 }]),
    'not json',
    JSON.stringify([]),
    JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'ping' }),
  ]);
  assert.ok(Date.now() - started < 45_000, 'the session ends once everything is answered, not after the grace');
  const batch = lines.find((l) => Array.isArray(l)) as { id: number; result?: { contents?: unknown[] } }[] | undefined;
  assert.ok(batch, `one array answers the batch: ${JSON.stringify(lines).slice(0, 300)}`);
  // The member that is no request got its own -32600 in the array (it was left out).
  assert.deepEqual(batch.map((a) => a.id).sort(), [2, 3, 5]);
  assert.equal((batch.find((a) => a.id === 5) as { error?: { code: number } } | undefined)?.error?.code, -32600);
  assert.equal(batch.find((a) => a.id === 3)?.result?.contents?.length, 1);
  const single = lines.filter((l) => !Array.isArray(l)) as { id: number | null; error?: { code: number } }[];
  assert.deepEqual(single.filter((a) => a.id === null).map((a) => a.error?.code).sort(), [-32700, -32600].sort());
  assert.ok(single.some((a) => a.id === 4) && single.some((a) => a.id === 1));
});

test('MCP over stdio (agora mcp), both protocol eras', async (t) => {
  const project = await makeProject({ samplePosts: true, catalog: true, files: { 'agora.config.json': STDIO_CONFIG } });
  const { modern, legacy } = clients('stdio');
  t.after(async () => {
    await modern.close();
    await legacy.close();
    await project.remove();
  });

  await t.test('2026-07-28: discover, tools, and a comment written to the page', async (tt) => {
    await modern.connect(stdio(project.root));
    assert.equal(modern.getProtocolEra(), 'modern');
    await sharedChecks(tt, modern, STDIO_BASE);
    const ok = data<{ status: number }>(await modern.callTool({ name: 'post_comment', arguments: { slug: NGINX, document: commentDoc({ author: 'stdio-agent' }), api_key: API_KEY } }));
    assert.equal(ok.status, 201);
    assert.ok(await pageHas(project.root, NGINX, 'stdio-agent'));
    await modern.close();
  });

  await t.test('2025-11-25: initialize, then the same tools', async (tt) => {
    await legacy.connect(stdio(project.root));
    assert.equal(legacy.getProtocolEra(), 'legacy');
    assert.equal(legacy.getNegotiatedProtocolVersion(), LEGACY);
    await sharedChecks(tt, legacy, STDIO_BASE);
  });
});

/** Pipe JSON-RPC lines into `agora mcp` and close its input at once, as `printf … | agora mcp` does: every answer, by id. */
async function pipeInto(root: string, extra: string[], messages: unknown[]): Promise<{ id: number; result?: { structuredContent?: { status: number }; contents?: { text: string }[] }; error?: { code: number } }[]> {
  const child = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'agora'), '--root', root, 'mcp', ...extra], { env: { ...process.env, LOG_LEVEL: 'silent' }, stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stdin.end(messages.map((m) => JSON.stringify(m)).join('\n') + '\n');
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  assert.equal(code, 0);
  return out.split('\n').filter(Boolean).map((l) => JSON.parse(l)).sort((a, b) => a.id - b.id);
}

/** Pipe raw lines into `agora mcp` and close its input at once: every line it wrote, parsed. */
async function pipeLines(root: string, lines: string[]): Promise<unknown[]> {
  const child = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'agora'), '--root', root, 'mcp'], { env: { ...process.env, LOG_LEVEL: 'silent' }, stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stdin.end(lines.join('\n') + '\n');
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  assert.equal(code, 0);
  return out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as unknown);
}

test('MCP over stdio beside a running writer on the same data folder', async (t) => {
  const project = await makeProject({ samplePosts: true, catalog: true, files: { 'agora.config.json': STDIO_CONFIG } });
  const server = await startTestServer(project);
  const { modern, legacy } = clients('beside');
  t.after(async () => {
    await modern.close();
    await legacy.close();
    await server.close();
    await project.remove();
  });

  await t.test('should serve through the running writer, whose store and pages take the comment', async () => {
    await modern.connect(stdio(project.root, ['--writer', server.url]));
    assert.equal(modern.getProtocolEra(), 'modern');
    assert.ok((modern.getInstructions() ?? '').includes(API_KEY));
    const ok = data<{ status: number; comment: { id: string } }>(await modern.callTool({ name: 'post_comment', arguments: { slug: NGINX, document: commentDoc({ author: 'beside-agent' }), api_key: API_KEY } }));
    assert.equal(ok.status, 201);
    assert.ok(await pageHas(project.root, NGINX, 'beside-agent'));
    assert.ok((await server.store.comments.forSlug(NGINX)).some((c) => c.id === ok.comment.id), 'the writer stored it');
    await rejectsWith(modern.callTool({ name: 'no_such_tool', arguments: {} }), -32602);
    await rejectsWith(modern.readResource({ uri: 'agora://post/nope' }), -32602, /nope/, { uri: 'agora://post/nope' });
  });

  await t.test('should serve a 2025-11-25 client the same way', async () => {
    await legacy.connect(stdio(project.root, ['--writer', server.url]));
    assert.equal(legacy.getNegotiatedProtocolVersion(), LEGACY);
    const listed = await legacy.listTools();
    assert.deepEqual(listed.tools.map((tool) => tool.name).sort(), TOOLS);
    const called = await legacy.callTool({ name: 'search_posts', arguments: { query: '형태소' } });
    const found = data<{ results: { slug: string }[] }>(called);
    assert.equal(found.results[0]?.slug, KOREAN);
    // Nothing of the bridge's own 2026-07-28 session reaches a 2025 client (as when stdio serves itself).
    for (const result of [listed, called, await legacy.listResources(), await legacy.readResource({ uri: `agora://post/${NGINX}` })] as Record<string, unknown>[]) {
      assert.equal(result['ttlMs'], undefined);
      assert.equal(result['cacheScope'], undefined);
      assert.equal((result['_meta'] as Record<string, unknown> | undefined)?.['io.modelcontextprotocol/serverInfo'], undefined);
    }
  });

  await t.test('should check params before passing them on: -32602, not the validator\'s -32603', async () => {
    const lines = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'piped', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'resources/read', params: {} },
      { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { cursor: 5 } },
    ];
    const answers = await pipeInto(project.root, ['--writer', server.url], lines);
    assert.deepEqual(answers.filter((a) => a.id !== 1).map((a) => a.error?.code), [-32602, -32602], JSON.stringify(answers));
  });

  await t.test('should pass back the writer\'s own JSON-RPC error when it refuses the request itself (a body over 64 KB: 413)', async () => {
    const answers = await pipeInto(project.root, ['--writer', server.url], [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'piped', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'post_comment', arguments: { slug: NGINX, document: commentDoc({ author: 'too-long' }, 'x'.repeat(70_000)), api_key: API_KEY } } },
    ]);
    const refused = answers.find((a) => a.id === 2) as { error?: { code: number; message: string; data?: { code?: string } } } | undefined;
    // As POST /mcp answers it: -32000 with the writer's error object as data, not -32603 "Error POSTing to endpoint: {…}".
    assert.equal(refused?.error?.code, -32000, JSON.stringify(refused));
    assert.equal(refused?.error?.data?.code, 'payload_too_large');
    assert.doesNotMatch(refused?.error?.message ?? '', /POSTing|jsonrpc/);
  });

  await t.test('should answer every request written before the end of input (printf … | agora mcp)', async () => {
    const answers = await pipeInto(project.root, ['--writer', server.url], [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'piped', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'post_comment', arguments: { slug: NGINX, document: commentDoc({ author: 'piped-agent' }, 'Sent through a pipe that closes at once.'), api_key: API_KEY } } },
    ]);
    assert.deepEqual(answers.map((a) => a.id), [1, 2, 3]);
    assert.equal(answers[2]!.result?.structuredContent?.status, 201);
  });

  await t.test('should name --writer and the form it takes when given an address without a scheme', async () => {
    const port = new URL(server.url).port;
    for (const given of [`127.0.0.1:${port}`, `localhost:${port}`, 'ftp://127.0.0.1/']) {
      const child = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'agora'), '--root', project.root, 'mcp', '--writer', given], { env: { ...process.env, LOG_LEVEL: 'silent' }, stdio: ['pipe', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.stdin.end();
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      assert.notEqual(code, 0, given);
      // It said only "agora: Invalid URL" (or tried ftp:// and said "fetch failed").
      assert.match(stderr, /--writer/, `${given}: ${stderr}`);
      assert.match(stderr, /http:\/\/127\.0\.0\.1:8080/, `${given}: ${stderr}`);
    }
  });

  await t.test('should say how to name the writer when it does not answer where configured', async () => {
    const lost = new Client({ name: 'lost', version: '1.0.0' });
    const transport = stdio(project.root, ['--writer', 'http://127.0.0.1:9']);
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await assert.rejects(lost.connect(transport));
    await lost.close().catch(() => {});
    assert.match(stderr, /--writer/);
  });
});

test('agora mcp beside a writer that stops under the session names the writer and what to do', async (t) => {
  // Before: -32603 "fetch failed", naming neither the writer nor that a comment cut off
  // on the way may have been stored (found by an outside sweep killing the writer).
  const project = await makeProject({ samplePosts: true, files: { 'agora.config.json': STDIO_CONFIG } });
  const server = await startTestServer(project);
  const { modern } = clients('stopped');
  let closed = false;
  t.after(async () => {
    await modern.close();
    if (!closed) await server.close();
    await project.remove();
  });
  await modern.connect(stdio(project.root, ['--writer', server.url]));
  assert.ok((await modern.listTools()).tools.length > 0);
  await server.close();
  closed = true;
  const endpoint = new URL('/mcp', server.url).href;
  await rejectsWith(modern.callTool({ name: 'search_posts', arguments: { query: 'nginx' } }), -32603, new RegExp(`The writer at ${endpoint.replace(/[.]/g, '\\.')} cannot be reached \\(ECONNREFUSED\\).*agora start.*list_comments`));
});
