/**
 * Signed agents on PostgreSQL (issue 22): a signature accepted by one writer node is a
 * replay on the other (the `agent_nonces` table), a block made with `agora agents
 * block` applies on every node at once, and the verified agent is stored in the
 * comment row (migration 3) and shown by the other node.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { makeProject, NO_RATE_LIMITS, REPO_ROOT, type TestProject } from '../helpers/project.ts';
import { API_KEY, commentDoc, postComment, startTestServer } from '../helpers/server.ts';
import { createPool, send } from '../helpers/http.ts';
import { eventually } from '../helpers/store.ts';
import { POSTGRES_MISSING, sql, startPostgres } from '../helpers/postgres.ts';
import { startTestAgent } from '../helpers/signed-agent.ts';

const run = promisify(execFile);
const SLUG = '2025-09-14-nginx-reverse-proxy-websocket-timeouts';
const AGORA = join(REPO_ROOT, 'bin', 'agora');
const server = await startPostgres();

function nodeProject(url: string): Promise<TestProject> {
  return makeProject({ samplePosts: true, files: { 'agora.config.json': NO_RATE_LIMITS }, env: { AGORA_STORE: 'postgres', DATABASE_URL: url } });
}

if (!server) {
  test('signed agents on postgres', { skip: POSTGRES_MISSING }, () => {});
} else {
  const db = server;
  test('signed agents on postgres: nonces and blocks shared by two nodes', async (t) => {
    t.after(() => db.remove());
    const url = await db.createDatabase();
    const projects = [await nodeProject(url), await nodeProject(url)];
    const env = { AGORA_AGENT_DIRECTORY_ALLOW_LOOPBACK: '1' };
    const [a, b] = [await startTestServer(projects[0]!, env), await startTestServer(projects[1]!, env)];
    const agent = await startTestAgent();
    t.after(async () => {
      await Promise.all([a.close(), b.close(), agent.close()]);
      await Promise.all(projects.map((p) => p.remove()));
    });
    const path = `/api/comments/${encodeURIComponent(SLUG)}`;

    // Behind one load balancer both nodes answer for the same authority; here the nodes
    // listen on different ports, so requests to A carry B's Host (what B's signature covers).
    const hostB = new URL(b.url).host;
    const toA = async (headers: Record<string, string>, body: string) => {
      const pool = createPool(1);
      try {
        return await send(pool, `${a.url}${path}`, 'POST', body, { Host: hostB, 'X-API-Key': API_KEY, 'Content-Type': 'text/plain; charset=utf-8', ...headers });
      } finally {
        pool.destroy();
      }
    };
    const signed = await agent.sign(`${b.url}${path}`);
    const doc = commentDoc({ author: 'pg-signed' }, 'Signed once, sent to two writer nodes.');
    const onB = await postComment(b.url, SLUG, doc, signed);
    const stored = (await onB.json()) as { id: string; agent: unknown };
    assert.equal(onB.status, 201, JSON.stringify(stored));
    assert.deepEqual(stored.agent, { origin: agent.origin, keyid: agent.keyid });
    // Node A has never seen this nonce: only the table tells it that B accepted it.
    const replay = await toA(signed, doc);
    assert.equal(replay.status, 401, replay.body);
    assert.equal((JSON.parse(replay.body) as { error: { check: string } }).error.check, 'nonce');
    // The same check passes for a fresh signature sent to A the same way (the Host trick is sound).
    const fresh = await toA(await agent.sign(`${b.url}${path}`), commentDoc({ author: 'pg-signed' }, 'A fresh signature through node A.'));
    assert.equal(fresh.status, 201, fresh.body);

    // One signature reaching both nodes at once: exactly one accepts it.
    const racing = await agent.sign(`${b.url}${path}`);
    const both = await Promise.all([
      postComment(b.url, SLUG, commentDoc({ author: 'race-bot' }, 'Racing one signature to node B.'), racing).then((r) => r.status),
      toA(racing, commentDoc({ author: 'race-bot' }, 'Racing one signature to node A.')).then((r) => r.status),
    ]);
    assert.deepEqual(both.sort(), [201, 401]);
    const rows = await sql<{ n: number }>(url, 'SELECT count(*)::int AS n FROM agent_nonces');
    assert.equal(rows[0]!.n, 3, 'each accepted nonce is one row');

    // The verified agent is in the row and on the other node's mirror.
    const row = await sql<{ agent_origin: string; agent_keyid: string }>(url, 'SELECT agent_origin, agent_keyid FROM comments WHERE id = $1', [stored.id]);
    assert.deepEqual(row[0], { agent_origin: agent.origin, agent_keyid: agent.keyid });
    await eventually(async () => {
      const listed = (await (await fetch(`${a.url}${path}`)).json()) as { id: string; agent: unknown }[];
      assert.deepEqual(listed.find((c) => c.id === stored.id)?.agent, { origin: agent.origin, keyid: agent.keyid });
    }, 2000);

    // A block made by the CLI applies on both nodes at once.
    await run(process.execPath, [AGORA, '--root', projects[0]!.root, 'agents', 'block', agent.origin], { env: { ...process.env, AGORA_STORE: 'postgres', DATABASE_URL: url } });
    for (const node of [a, b]) {
      const res = await postComment(node.url, SLUG, commentDoc({ author: 'pg-blocked' }, 'Blocked on every node.'), await agent.sign(`${node.url}${path}`));
      assert.equal(res.status, 403);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'agent_blocked');
    }
  });
}
