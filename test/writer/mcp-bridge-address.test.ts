/**
 * `agora mcp` beside a running writer finds it where it listens: the writer records its
 * address in `data/.writer.lock` (after its pid), so a writer on a port other than the
 * configured one is still reached without `--writer`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { Client, type CallToolResult } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { freePort } from '../helpers/http.ts';
import { makeProject, NO_RATE_LIMITS, REPO_ROOT } from '../helpers/project.ts';
import { startTestServer } from '../helpers/server.ts';

const NGINX = '2025-09-14-nginx-reverse-proxy-websocket-timeouts';


/** The bridge as an agent spawns it: no `--writer`, no `PORT` or `HOST` in its environment. */
function bridge(root: string): { transport: StdioClientTransport; stderr: () => string } {
  const env = { ...process.env, LOG_LEVEL: 'silent' } as Record<string, string>;
  delete env.PORT;
  delete env.HOST;
  const transport = new StdioClientTransport({ command: process.execPath, args: [join(REPO_ROOT, 'bin', 'agora'), '--root', root, 'mcp'], env, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return { transport, stderr: () => stderr };
}

test('agora mcp finds a writer on a port other than the configured one', async (t) => {
  const port = await freePort();
  // agora.config.json names no port: the bridge's configured address is the default 8080.
  const project = await makeProject({ samplePosts: true, port, files: { 'agora.config.json': NO_RATE_LIMITS } });
  const server = await startTestServer(project);
  const client = new Client({ name: 'bridge-address', version: '1.0.0' });
  t.after(async () => {
    await client.close();
    await server.close();
    await project.remove();
  });

  await t.test('should record the pid, then the address, in data/.writer.lock', async () => {
    const lines = (await readFile(join(project.config.dataDir, '.writer.lock'), 'utf8')).split('\n');
    assert.equal(lines[0], String(process.pid));
    assert.equal(lines[1], `http://127.0.0.1:${port}`);
  });

  await t.test('should still name the pid when refusing a second writer', async () => {
    // Another port, so the port check passes and the lock refuses.
    await assert.rejects(startTestServer({ ...project, config: { ...project.config, port: 0 } }), (error: Error) => {
      assert.match(error.message, new RegExp(`already used by another agora writer \\(pid ${process.pid}\\)`));
      return true;
    });
  });

  await t.test('should list and call tools through the running writer without --writer', async () => {
    const { transport, stderr } = bridge(project.root);
    await client.connect(transport).catch((error: unknown) => assert.fail(`${String(error)}\n${stderr()}`));
    const { tools } = await client.listTools();
    assert.ok(tools.some((tool) => tool.name === 'search_posts'), tools.map((tool) => tool.name).join(', '));
    const found = (await client.callTool({ name: 'search_posts', arguments: { query: 'websocket' } })) as CallToolResult;
    assert.equal((found.structuredContent as { results: { slug: string }[] }).results[0]?.slug, NGINX);
  });
});
