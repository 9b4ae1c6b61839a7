/**
 * `/mcp` below the SDK client: the `Origin` rule and CORS of the Streamable HTTP
 * transport (a present, foreign Origin is 403; none passes), and JSON-RPC's parse error.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { makeProject, NO_RATE_LIMITS } from '../helpers/project.ts';
import { startTestServer } from '../helpers/server.ts';
import { createPool, send } from '../helpers/http.ts';

const MCP_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
const TOOLS_LIST = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
const ALLOW_HEADERS = ['content-type', 'accept', 'mcp-session-id', 'mcp-protocol-version', 'x-api-key', 'authorization', 'signature', 'signature-input', 'signature-agent', 'content-digest'];

/** A writer on a loopback port for one test, with a connection pool to it. */
async function mcpWriter(t: TestContext, options: { baseUrl?: string; env?: Record<string, string> } = {}) {
  const project = await makeProject({ files: { 'agora.config.json': NO_RATE_LIMITS }, ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}) });
  const server = await startTestServer(project, options.env);
  const agent = createPool(1);
  t.after(async () => {
    agent.destroy();
    await server.close();
    await project.remove();
  });
  return { server, agent, endpoint: `${server.url}/mcp` };
}

test('/mcp checks Origin and answers CORS', async (t) => {
  const { server, agent, endpoint } = await mcpWriter(t, { baseUrl: 'https://site.example', env: { AGORA_MCP_HOSTS: 'agents.internal' } });
  const self = new URL(server.url).origin;

  await t.test('should refuse a foreign Origin with 403 and a JSON-RPC error', async () => {
    // Not an origin as browsers write one, though it parses to an allowed host (it was allowed and echoed back).
    for (const origin of ['http://evil.example', 'https://site.example.evil.example', 'null', 'http://localhost\\@evil.example', 'http://localhost/path']) {
      const res = await send(agent, endpoint, 'POST', TOOLS_LIST, { ...MCP_HEADERS, Origin: origin });
      assert.equal(res.status, 403, origin);
      const body = JSON.parse(res.body) as { jsonrpc: string; id: null; error: { code: number; message: string } };
      assert.equal(body.jsonrpc, '2.0');
      assert.equal(body.id, null);
      assert.equal(body.error.code, -32000);
      assert.match(body.error.message, /Origin/);
      assert.match(body.error.message, /AGORA_MCP_HOSTS/, 'the message names the setting');
      assert.equal(res.headers['access-control-allow-origin'], undefined, origin);
    }
  });

  await t.test('should answer a request without Origin (CLI clients, agents)', async () => {
    const res = await send(agent, endpoint, 'POST', TOOLS_LIST, MCP_HEADERS);
    assert.equal(res.status, 200, res.body);
    assert.match(res.body, /"tools":\[/);
    assert.equal(res.headers['access-control-allow-origin'], undefined);
  });

  await t.test('should answer the site, the same origin and AGORA_MCP_HOSTS, echoing the Origin', async () => {
    for (const origin of ['https://site.example', self, 'https://agents.internal:8443']) {
      const res = await send(agent, endpoint, 'POST', TOOLS_LIST, { ...MCP_HEADERS, Origin: origin });
      assert.equal(res.status, 200, `${origin}: ${res.body}`);
      assert.match(res.body, /"tools":\[/);
      assert.equal(res.headers['access-control-allow-origin'], origin);
      assert.match(String(res.headers['vary']), /Origin/i);
      assert.match(String(res.headers['access-control-expose-headers']), /Mcp-Session-Id/i);
    }
  });

  await t.test('should check Host before Origin (DNS rebinding sends both as the attacker)', async () => {
    const port = new URL(server.url).port;
    const res = await send(agent, endpoint, 'POST', TOOLS_LIST, { ...MCP_HEADERS, Host: `attacker.example:${port}`, Origin: `http://attacker.example:${port}` });
    assert.equal(res.status, 403);
    assert.match(JSON.parse(res.body).error.message, /attacker\.example/);
  });

  await t.test('should answer a preflight from an allowed Origin with CORS headers', async () => {
    const res = await send(agent, endpoint, 'OPTIONS', undefined, { Origin: 'https://site.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type, mcp-protocol-version, x-api-key' });
    assert.equal(res.status, 204);
    assert.equal(res.headers['access-control-allow-origin'], 'https://site.example');
    assert.match(String(res.headers['access-control-allow-methods']), /\bPOST\b/);
    const allowed = String(res.headers['access-control-allow-headers']).toLowerCase().split(/\s*,\s*/);
    for (const name of ALLOW_HEADERS) assert.ok(allowed.includes(name), `Allow-Headers lacks ${name}: ${allowed.join(', ')}`);
    assert.match(String(res.headers['access-control-expose-headers']), /Mcp-Session-Id/i);
    assert.match(String(res.headers['vary']), /Origin/i);
  });

  await t.test('should refuse a preflight from a foreign Origin with 403', async () => {
    const res = await send(agent, endpoint, 'OPTIONS', undefined, { Origin: 'http://evil.example', 'Access-Control-Request-Method': 'POST' });
    assert.equal(res.status, 403);
    assert.equal(res.headers['access-control-allow-origin'], undefined);
  });

  await t.test('should keep the 405 with Allow for GET and DELETE, and refuse a foreign Origin there too', async () => {
    for (const method of ['GET', 'DELETE']) {
      const plain = await send(agent, endpoint, method);
      assert.equal(plain.status, 405, method);
      assert.equal(plain.headers['allow'], 'POST, OPTIONS');
      const allowed = await send(agent, endpoint, method, undefined, { Origin: 'https://site.example' });
      assert.equal(allowed.status, 405, method);
      assert.equal(allowed.headers['allow'], 'POST, OPTIONS');
      assert.equal(allowed.headers['access-control-allow-origin'], 'https://site.example');
      const foreign = await send(agent, endpoint, method, undefined, { Origin: 'http://evil.example' });
      assert.equal(foreign.status, 403, method);
    }
  });

  await t.test('should serve an SDK client that sends an allowed Origin', async () => {
    const client = new Client({ name: 'browser-like', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(endpoint), { requestInit: { headers: { Origin: 'https://site.example' } } }));
    t.after(() => client.close());
    assert.ok((await client.listTools()).tools.length > 0);
  });
});

test('/mcp answers invalid JSON with the JSON-RPC parse error', async (t) => {
  const { agent, endpoint } = await mcpWriter(t);

  await t.test('should answer -32700 with id null and HTTP 400', async () => {
    for (const body of ['{"jsonrpc":"2.0","id":1,"method":', 'not json', '{"a":1,}']) {
      const res = await send(agent, endpoint, 'POST', body, MCP_HEADERS);
      assert.equal(res.status, 400, body);
      assert.match(String(res.headers['content-type']), /^application\/json/);
      const answer = JSON.parse(res.body) as { jsonrpc: string; id: unknown; error: { code: number; message: string } };
      assert.equal(answer.jsonrpc, '2.0');
      assert.equal(answer.id, null);
      assert.equal(answer.error.code, -32700);
      assert.match(answer.error.message, /^Parse error: ./);
    }
  });

  await t.test('should answer an over-long body 413 as a JSON-RPC error carrying the writer\'s', async () => {
    const res = await send(agent, endpoint, 'POST', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(70 * 1024) } }), MCP_HEADERS);
    assert.equal(res.status, 413);
    const answer = JSON.parse(res.body);
    assert.deepEqual([answer.jsonrpc, answer.id, answer.error.code, answer.error.data.code], ['2.0', null, -32000, 'payload_too_large']);
  });
});
