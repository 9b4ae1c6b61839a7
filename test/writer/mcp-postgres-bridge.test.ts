/**
 * `agora mcp` in the folder of a running writer on the PostgreSQL store. No data folder
 * lock says a writer runs there (the store is the database), but the writer holds the
 * site's `dist/` for its life: `agora mcp` started its own node, which waited for that
 * `dist/` without end, so it answered nothing, not even `initialize` (found by an
 * outside MCP sweep with the SDK's stdio client: "Request timed out" after 60 s). Now
 * the writer records its address in the `dist/` lock too, and `agora mcp` passes every
 * request to it, as beside a writer on the files store.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { Client, type CallToolResult } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { makeProject, NO_RATE_LIMITS, REPO_ROOT } from '../helpers/project.ts';
import { startTestServer, commentDoc, API_KEY } from '../helpers/server.ts';
import { POSTGRES_MISSING, startPostgres } from '../helpers/postgres.ts';

const NGINX = '2025-09-14-nginx-reverse-proxy-websocket-timeouts';
const db = await startPostgres();

if (!db) {
  test('agora mcp beside a writer on postgres', { skip: POSTGRES_MISSING }, () => {});
} else {
  test('agora mcp beside a writer on postgres', async (t) => {
    const url = await db.createDatabase();
    const env = { AGORA_STORE: 'postgres', DATABASE_URL: url };
    const project = await makeProject({ samplePosts: true, files: { 'agora.config.json': NO_RATE_LIMITS }, env });
    const server = await startTestServer(project);
    const client = new Client({ name: 'pg-bridge', version: '1.0.0' });
    t.after(async () => {
      await client.close().catch(() => {});
      await server.close();
      await project.remove();
      await db.remove();
    });
    assert.equal(server.store.engine, 'postgres');

    await t.test('should record the writer\'s address in the dist/ lock', async () => {
      const lines = (await readFile(join(project.root, '.dist.lock'), 'utf8')).split('\n');
      assert.equal(lines[0], String(process.pid));
      assert.equal(lines[1], server.url.replace(/\/$/, ''));
    });

    await t.test('should answer through the running writer, whose page shows the comment', async () => {
      // As an agent spawns it: the store settings, no --writer, no PORT or HOST.
      const childEnv = { ...process.env, ...env, LOG_LEVEL: 'silent' } as Record<string, string>;
      delete childEnv.PORT;
      delete childEnv.HOST;
      const transport = new StdioClientTransport({ command: process.execPath, args: [join(REPO_ROOT, 'bin', 'agora'), '--root', project.root, 'mcp'], env: childEnv, stderr: 'pipe' });
      let stderr = '';
      transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      await client.connect(transport, { timeout: 20_000 }).catch((error: unknown) => assert.fail(`${String(error)}\n${stderr}`));
      const posted = (await client.callTool({ name: 'post_comment', arguments: { slug: NGINX, document: commentDoc({ author: 'pg-stdio-agent' }), api_key: API_KEY } })) as CallToolResult;
      assert.equal((posted.structuredContent as { status: number }).status, 201, JSON.stringify(posted));
      const page = await readFile(join(project.config.distDir, 'troubleshooting', NGINX, 'index.html'), 'utf8');
      assert.match(page, /pg-stdio-agent/, 'the running writer\'s page shows it');
    });
  });
}
