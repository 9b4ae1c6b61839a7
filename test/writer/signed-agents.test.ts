/**
 * Signed agents (issue 22, Web Bot Auth): real signatures made by the `web-bot-auth`
 * package against a key directory served by the test on a loopback port, verified by
 * a running writer (with `AGORA_AGENT_DIRECTORY_ALLOW_LOOPBACK=1`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { makeProject, REPO_ROOT } from '../helpers/project.ts';
import { startTestServer, commentDoc, postComment, API_KEY } from '../helpers/server.ts';
import { startTestAgent, type TestAgent } from '../helpers/signed-agent.ts';

const run = promisify(execFile);
const SLUG = '2025-09-14-nginx-reverse-proxy-websocket-timeouts';
const OTHER = '2025-08-19-should-agents-write-tests-first';
const LIMITS = JSON.stringify({ limits: { commentsPerIpPerMinute: 3, commentsPerPostPerHour: 1000, commentsPerSitePerHour: 1000, duplicateWindowSeconds: 600 } });
const AGORA = join(REPO_ROOT, 'bin', 'agora');

type Record_ = { id: string; author: string; agent: { origin: string; keyid: string } | null };

test('signed agents (Web Bot Auth)', async (t) => {
  const project = await makeProject({ samplePosts: true, files: { 'agora.config.json': LIMITS } });
  const server = await startTestServer(project, { AGORA_AGENT_DIRECTORY_ALLOW_LOOPBACK: '1' });
  const agent = await startTestAgent();
  const agents: TestAgent[] = [agent];
  t.after(async () => {
    await server.close();
    await Promise.all(agents.map((a) => a.close()));
    await project.remove();
  });
  const url = (slug: string) => `${server.url}/api/comments/${encodeURIComponent(slug)}`;
  const signedPost = async (slug: string, doc: string, a: TestAgent = agent, options?: Parameters<TestAgent['sign']>[1]) => postComment(server.url, slug, doc, await a.sign(url(slug), options));
  const refused = async (res: Response, status: number, check?: string) => {
    const body = (await res.json()) as { error: { code: string; check?: string; message: string } };
    assert.equal(res.status, status, JSON.stringify(body));
    if (check) assert.equal(body.error.check, check, body.error.message);
    return body.error;
  };

  await t.test('a signed comment is stored with its verified agent, shown on the page, the mirrors and the feeds', async () => {
    const res = await signedPost(SLUG, commentDoc({ author: 'signed-bot' }, 'A correction from a verified agent, signed with Ed25519.'));
    const body = (await res.json()) as Record_;
    assert.equal(res.status, 201, JSON.stringify(body));
    assert.deepEqual(body.agent, { origin: agent.origin, keyid: agent.keyid });
    const mirror = (await (await fetch(url(SLUG))).json()) as Record_[];
    assert.deepEqual(mirror.find((c) => c.id === body.id)?.agent, { origin: agent.origin, keyid: agent.keyid });
    const post = server.state.site.bySlug.get(SLUG)!;
    const page = await (await fetch(`${server.url}${post.url}`)).text();
    const card = page.slice(page.indexOf(`id="comment-${body.id}"`));
    assert.ok(card.includes(`✓ verified agent <span class="agent-origin">${agent.origin}</span>`), 'the card shows the verified agent and its origin');
    const feed = await readFile(join(project.config.distDir, post.url, 'comments.atom'), 'utf8');
    assert.ok(feed.includes(`verified agent ${agent.origin}`), 'the post\'s comment feed names the verified agent');
  });

  await t.test('an unsigned comment keeps working and records agent: null', async () => {
    const res = await postComment(server.url, SLUG, commentDoc({ author: 'plain-bot' }, 'An unsigned supplement, as every comment was before.'));
    const body = (await res.json()) as Record_;
    assert.equal(res.status, 201);
    assert.equal(body.agent, null);
  });

  await t.test('a replayed signature is refused with 401 check nonce, nothing stored', async () => {
    const headers = await agent.sign(url(OTHER));
    const first = await postComment(server.url, OTHER, commentDoc({ author: 'replay-bot' }, 'First use of this signature: accepted.'), headers);
    assert.equal(first.status, 201);
    const before = ((await (await fetch(url(OTHER))).json()) as Record_[]).length;
    await refused(await postComment(server.url, OTHER, commentDoc({ author: 'replay-bot' }, 'The same signature again: a replay.'), headers), 401, 'nonce');
    assert.equal(((await (await fetch(url(OTHER))).json()) as Record_[]).length, before);
  });
});
