/**
 * MCP's `post_comment` while the PostgreSQL store is away: the same answer as
 * `POST /api/comments/{slug}` (503 `store_unavailable`, nothing stored), as a tool error
 * the agent can read and retry on, never `internal`; and it works again once the
 * database is back. Found stopping the database under three `agora start` nodes: HTTP
 * answered 503 `store_unavailable`, `post_comment` `{"code": "internal"}`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeProject, NO_RATE_LIMITS } from '../helpers/project.ts';
import { API_KEY, commentDoc, postComment, startTestServer } from '../helpers/server.ts';
import { POSTGRES_MISSING, sql, startPostgres } from '../helpers/postgres.ts';

const SLUG = '2025-09-14-nginx-reverse-proxy-websocket-timeouts';

const server = await startPostgres();

async function postOverMcp(base: string, author: string): Promise<{ isError?: boolean; body: { status?: number; error?: { code: string; message: string } } }> {
  const res = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'post_comment', arguments: { slug: SLUG, document: commentDoc({ author }), api_key: API_KEY } } }),
  });
  assert.equal(res.status, 200);
  const text = await res.text();
  const json = text.startsWith('{') ? text : text.split('\n').find((l) => l.startsWith('data: '))!.slice(6);
  const result = (JSON.parse(json) as { result: { isError?: boolean; content: { text: string }[] } }).result;
  return { isError: result.isError, body: JSON.parse(result.content[0]!.text) };
}

if (!server) {
  test('post_comment with the store down', { skip: POSTGRES_MISSING }, () => {});
} else {
  test('post_comment with the PostgreSQL store down answers store_unavailable, as HTTP does, and works once it is back', { timeout: 120_000 }, async (t) => {
    t.after(() => server.remove());
    const url = await server.createDatabase();
    const project = await makeProject({ samplePosts: true, files: { 'agora.config.json': NO_RATE_LIMITS }, env: { AGORA_STORE: 'postgres', DATABASE_URL: url } });
    const node = await startTestServer(project);
    t.after(async () => {
      await node.close();
      await project.remove();
    });
    assert.equal((await postOverMcp(node.url, 'before')).body.status, 201);

    await server.stop();
    const http = await postComment(node.url, SLUG, commentDoc({ author: 'http-while-down' }));
    assert.equal(http.status, 503);
    assert.equal(((await http.json()) as { error: { code: string } }).error.code, 'store_unavailable');
    const mcp = await postOverMcp(node.url, 'mcp-while-down');
    assert.equal(mcp.isError, true);
    assert.equal(mcp.body.error?.code, 'store_unavailable', `the HTTP answer, not ${JSON.stringify(mcp.body)}`);
    assert.match(mcp.body.error?.message ?? '', /Try again/);

    await server.start();
    assert.equal((await postOverMcp(node.url, 'after')).body.status, 201);
    const authors = (await sql<{ author: string }>(url, 'SELECT author FROM comments ORDER BY author')).map((r) => r.author);
    assert.deepEqual(authors, ['after', 'before']);
  });
}
