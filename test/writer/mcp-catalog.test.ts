/**
 * `get_catalog` in list and search mode: small summaries whose `simple_api` has the
 * catalog's own shape (service-spec 2.5: an object or null), with the catalog's
 * `version` and `updated`, validated by the SDK client against the tool's output schema.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { makeProject, NO_RATE_LIMITS } from '../helpers/project.ts';
import { startTestServer } from '../helpers/server.ts';

interface Summary {
  slug: string;
  simple_api: { label: string; method: string; url: string; no_key: boolean; note: string } | null;
}
interface CatalogPage {
  version: number;
  updated: string;
  total: number;
  services: Summary[];
  next_cursor?: string;
}

const page = (result: unknown) => {
  assert.equal((result as CallToolResult).isError, undefined, JSON.stringify(result));
  return (result as CallToolResult).structuredContent as unknown as CatalogPage;
};

test('get_catalog summaries keep the catalog\'s shape', async (t) => {
  const project = await makeProject({ catalog: true, files: { 'agora.config.json': NO_RATE_LIMITS } });
  const server = await startTestServer(project);
  const client = new Client({ name: 'catalog', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  t.after(async () => {
    await client.close();
    await server.close();
    await project.remove();
  });
  const catalog = server.state.site.catalog!;

  await t.test('should give the catalog version and updated date in list and search mode', async () => {
    for (const args of [{}, { query: 'apartment' }, { limit: 20 }]) {
      const answer = page(await client.callTool({ name: 'get_catalog', arguments: args }));
      assert.equal(answer.version, catalog.version, JSON.stringify(args));
      assert.equal(answer.updated, catalog.updated);
    }
  });

  await t.test('should give simple_api as the spec\'s object or null, never a bare URL', async () => {
    const seen: Summary[] = [];
    let cursor: string | undefined;
    do {
      const answer = page(await client.callTool({ name: 'get_catalog', arguments: { limit: 20, ...(cursor ? { cursor } : {}) } }));
      seen.push(...answer.services);
      cursor = answer.next_cursor;
    } while (cursor);
    assert.equal(seen.length, catalog.services.length);
    for (const summary of seen) {
      const entry = catalog.services.find((s) => s.slug === summary.slug)!;
      if (entry.simple_api === null) {
        assert.equal(summary.simple_api, null, summary.slug);
        continue;
      }
      assert.deepEqual(summary.simple_api, { label: entry.simple_api.label, method: entry.simple_api.method, url: entry.simple_api.url, no_key: entry.simple_api.no_key, note: entry.simple_api.note }, summary.slug);
    }
    assert.ok(seen.some((s) => s.simple_api !== null), 'some entry has a simple API');
    assert.ok(seen.some((s) => s.simple_api === null), 'some entry has none');
  });

  await t.test('should declare both in the output schema', async () => {
    const tool = (await client.listTools()).tools.find((tool) => tool.name === 'get_catalog')!;
    const properties = tool.outputSchema!.properties as Record<string, { type?: unknown; items?: { properties?: Record<string, unknown> } }>;
    assert.ok(properties.version, 'version');
    const simple = JSON.stringify(properties.services!.items!.properties!.simple_api);
    for (const field of ['label', 'method', 'url', 'no_key', 'note']) assert.match(simple, new RegExp(`"${field}"`), field);
  });

  await t.test('should keep a first page small', async () => {
    const result = (await client.callTool({ name: 'get_catalog', arguments: {} })) as CallToolResult;
    const text = (result.content[0] as { text: string }).text;
    assert.ok(text.length < 8000, `first page: ${text.length} characters`);
  });
});
