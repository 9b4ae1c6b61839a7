import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { relative } from 'node:path';
import { createStartingApp } from '../../packages/writer/src/http/starting-app.ts';

/** `app` on a loopback port, closed with `project` after the test: its base URL. */
async function serve(t: { after: (fn: () => Promise<void>) => void }, app: Parameters<typeof createServer>[1], project: { remove(): Promise<void> }): Promise<string> {
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await project.remove();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
import { makeProject } from '../helpers/project.ts';

// Found with MCP clients against a writer that could not catch up (its database away):
// POST /mcp answered the writer's plain `{"error": …}` 503, no JSON-RPC message at all,
// though every /mcp error is JSON-RPC shaped (README, openapi.json's /mcp 503).
test('a starting writer refuses POST /mcp with a JSON-RPC error, the writer\'s 503 `starting` as data', async (t) => {
  const project = await makeProject();
  const app = createStartingApp({ distDir: project.config.distDir, site: project.config.site, store: 'files', startedAt: new Date(), ready: new Promise(() => {}), waitMs: 50 });
  const base = await serve(t, app, project);
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

// Found by asking for every file of openapi.json from a writer that could not catch up (its
// database away): a file asked for with an Accept naming JSON or markdown (`/openapi.json`
// and `/agencatalog/catalog.json` with `Accept: application/json`, llms.txt with axios's
// `application/json, text/plain, */*`) got 503 `starting`, though the existing dist/ is
// served while the writer catches up: only pages are negotiated.
test('a starting writer serves the files of the existing dist/ whatever Accept says; only pages wait to be negotiated', async (t) => {
  const project = await makeProject();
  const { distDir } = project.config;
  await project.write(`${relative(project.root, distDir)}/llms.txt`, '# Agora\n');
  await project.write(`${relative(project.root, distDir)}/openapi.json`, '{"openapi":"3.1.0"}\n');
  await project.write(`${relative(project.root, distDir)}/guide/a-post/index.html`, '<!doctype html><title>a post</title>\n');
  const app = createStartingApp({ distDir, site: project.config.site, store: 'files', startedAt: new Date(), ready: new Promise(() => {}), waitMs: 50 });
  const base = await serve(t, app, project);
  for (const accept of ['application/json', 'application/json, text/plain, */*', 'text/markdown']) {
    const json = await fetch(`${base}/openapi.json`, { headers: { Accept: accept } });
    assert.equal(json.status, 200, accept);
    assert.equal(await json.text(), '{"openapi":"3.1.0"}\n');
    const llms = await fetch(`${base}/llms.txt`, { headers: { Accept: accept } });
    assert.equal(llms.status, 200, accept);
  }
  // A page asked for as markdown or JSON is negotiated by the full app: it waits, then 503.
  assert.equal((await fetch(`${base}/guide/a-post/`, { headers: { Accept: 'text/markdown' } })).status, 503);
  assert.equal((await fetch(`${base}/guide/a-post/`)).status, 200);
});

// Found by an outside OpenAPI sweep: while the writer starts, a JSON mirror with no file
// (an unknown slug or name, a post added since the last build, every mirror on a first
// start) waits, then answers 503 `starting`, which openapi.json did not declare for them.
test('a starting writer\'s 503 for a JSON mirror with no file is declared by openapi.json', async (t) => {
  const { emitOpenApi } = await import('../../packages/generator/src/emit/openapi.ts');
  const { realCatalog } = await import('../public-data/harness.ts');
  const site = { config: { title: 't', description: '', baseUrl: 'http://agora.test', apiKey: 'k', writerUrl: '', lang: 'en', pageSize: 50 }, catalog: await realCatalog() };
  const doc = JSON.parse(emitOpenApi(site as never).body) as { paths: Record<string, { get?: { responses: Record<string, { headers?: Record<string, { required?: boolean }> }> } }> };
  const project = await makeProject();
  const app = createStartingApp({ distDir: project.config.distDir, site: project.config.site, store: 'files', startedAt: new Date(), ready: new Promise(() => {}), waitMs: 50 });
  const base = await serve(t, app, project);
  const reads: [string, string][] = [['/api/posts', '/api/posts'], ['/api/post/{slug}', '/api/post/nope'], ['/api/category/{cat}', '/api/category/guide'], ['/api/model/{model}', '/api/model/nobody'], ['/api/tag/{tag}', '/api/tag/nope'], ['/api/comments/{slug}', '/api/comments/nope'], ['/api/comments/count', '/api/comments/count'], ['/api/views', '/api/views']];
  for (const [template, path] of reads) {
    const res = await fetch(base + path, { headers: { Accept: 'application/json' } });
    assert.equal(res.status, 503, path);
    assert.ok(res.headers.get('retry-after'), path);
    const declared = doc.paths[template]?.get?.responses['503'];
    assert.ok(declared, `GET ${template} 503 declared`);
    assert.equal(declared.headers?.['Retry-After']?.required, true, template);
  }
});
