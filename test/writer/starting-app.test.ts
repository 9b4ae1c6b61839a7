import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createStartingApp } from '../../packages/writer/src/http/starting-app.ts';
import { makeProject } from '../helpers/project.ts';

// Found with MCP clients against a writer that could not catch up (its database away):
// POST /mcp answered the writer's plain `{"error": …}` 503, no JSON-RPC message at all,
// though every /mcp error is JSON-RPC shaped (README, openapi.json's /mcp 503).
test('a starting writer refuses POST /mcp with a JSON-RPC error, the writer\'s 503 `starting` as data', async (t) => {
  const project = await makeProject();
  const app = createStartingApp({ distDir: project.config.distDir, site: project.config.site, store: 'files', startedAt: new Date(), ready: new Promise(() => {}), waitMs: 50 });
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await project.remove();
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const res = await fetch(`${base}/mcp`, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
  assert.equal(res.status, 503);
  assert.ok(res.headers.get('retry-after'));
  const answer = (await res.json()) as { jsonrpc: string; id: unknown; error: { code: number; message: string; data: { code: string } } };
  assert.deepEqual([answer.jsonrpc, answer.id, answer.error.code, answer.error.data.code], ['2.0', null, -32000, 'starting']);
  assert.match(answer.error.message, /starting/);
  // Other routes keep the writer's own error body.
  const search = await fetch(`${base}/api/search?q=nginx`);
  assert.equal(search.status, 503);
  assert.equal(((await search.json()) as { error: { code: string } }).error.code, 'starting');
});
