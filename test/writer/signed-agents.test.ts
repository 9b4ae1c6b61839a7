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
import { createHash } from 'node:crypto';
import { createServer } from 'node:net';
import { gzipSync } from 'node:zlib';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { makeProject, REPO_ROOT } from '../helpers/project.ts';
import { startTestServer, commentDoc, postComment, API_KEY } from '../helpers/server.ts';
import { startTestAgent, type TestAgent } from '../helpers/signed-agent.ts';
import { createPool, send } from '../helpers/http.ts';

const run = promisify(execFile);
const SLUG = '2025-09-14-nginx-reverse-proxy-websocket-timeouts';
const OTHER = '2025-08-19-should-agents-write-tests-first';
const LIMITS = JSON.stringify({ limits: { commentsPerIpPerMinute: 1000, commentsPerPostPerHour: 1000, commentsPerSitePerHour: 1000, agentDirectoryFetchesPerIpPerMinute: 1000, duplicateWindowSeconds: 600 } });
const TIGHT = JSON.stringify({ limits: { commentsPerIpPerMinute: 3, commentsPerPostPerHour: 1000, commentsPerSitePerHour: 1000, duplicateWindowSeconds: 600 } });
const AGORA = join(REPO_ROOT, 'bin', 'agora');

/** A sample site served with `config` as its agora.config.json, and a signing agent whose loopback directory it may fetch; both stopped after the test. */
async function serveWithAgent(t: { after: (fn: () => Promise<void>) => void }, config: string) {
  const project = await makeProject({ samplePosts: true, files: { 'agora.config.json': config } });
  const server = await startTestServer(project, { AGORA_AGENT_DIRECTORY_ALLOW_LOOPBACK: '1' });
  const agent = await startTestAgent();
  t.after(async () => {
    await server.close();
    await agent.close();
    await project.remove();
  });
  return { project, server, agent };
}

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
  /** The header each check is about (the error's `field`). */
  const FIELD: Record<string, string> = { headers: 'Signature-Agent', components: 'Signature-Input', expires: 'Signature-Input', created: 'Signature-Input', keyid: 'Signature-Input', alg: 'Signature-Input', nonce: 'Signature-Input', tag: 'Signature-Input', signature: 'Signature', authority: 'Signature', signature_agent: 'Signature-Agent', directory_unreachable: 'Signature-Agent', directory_address: 'Signature-Agent', directory_origin: 'Signature-Agent' };
  const refused = async (res: Response, status: number, check?: string) => {
    const body = (await res.json()) as { error: { code: string; check?: string; field?: string; message: string } };
    assert.equal(res.status, status, JSON.stringify(body));
    if (check) {
      assert.equal(body.error.check, check, body.error.message);
      if (FIELD[check]) assert.equal(body.error.field, FIELD[check], `${check}: ${body.error.message}`);
    }
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
    // The post's comment feeds follow with the site-wide outputs.
    await server.flushAggregates();
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

  const count = async (slug: string) => ((await (await fetch(url(slug))).json()) as Record_[]).length;
  const fresh = async () => {
    const a = await startTestAgent();
    agents.push(a);
    return a;
  };

  await t.test('each failed check answers 401 naming it, and stores nothing', async () => {
    const doc = commentDoc({ author: 'failing-bot' }, 'This comment must never be stored by the writer.');
    const before = await count(OTHER);
    const signed = await agent.sign(url(OTHER));
    // Signature and Signature-Input without Signature-Agent.
    await refused(await postComment(server.url, OTHER, doc, { Signature: signed.Signature!, 'Signature-Input': signed['Signature-Input']! }), 401, 'headers');
    await refused(await signedPost(OTHER, doc, agent, { tag: 'not-web-bot-auth' }), 401, 'tag');
    // Signed without covering signature-agent (web-bot-auth then covers @authority only), header added afterwards.
    const bare = await agent.sign(url(OTHER), { signatureAgent: '' });
    await refused(await postComment(server.url, OTHER, doc, { ...bare, 'Signature-Agent': JSON.stringify(agent.origin) }), 401, 'components');
    await refused(await signedPost(OTHER, doc, agent, { createdS: -700, expiresS: -650 }), 401, 'expires');
    await refused(await signedPost(OTHER, doc, agent, { createdS: 300, expiresS: 400 }), 401, 'created');
    await refused(await signedPost(OTHER, doc, agent, { expiresS: 3600 }), 401, 'expires');
    // Signed for another host and sent here: the signature base has this writer's authority, so it does not verify.
    await refused(await postComment(server.url, OTHER, doc, await agent.sign(`http://evil.example/api/comments/${OTHER}`)), 401, 'signature');
    // Sent with that other host as Host: not a host of this site.
    const pool = createPool(1);
    const evil = await send(pool, url(OTHER), 'POST', doc, { Host: 'evil.example', 'X-API-Key': API_KEY, 'Content-Type': 'text/plain; charset=utf-8', ...(await agent.sign(`http://evil.example/api/comments/${OTHER}`)) });
    pool.destroy();
    assert.equal(evil.status, 401);
    assert.equal((JSON.parse(evil.body) as { error: { check: string } }).error.check, 'authority');
    // A signature that is not the key's: one byte changed.
    const good = await agent.sign(url(OTHER));
    const sig = good.Signature!;
    const i = sig.indexOf(':') + 5;
    const tampered = sig.slice(0, i) + (sig[i] === 'A' ? 'B' : 'A') + sig.slice(i + 1);
    await refused(await postComment(server.url, OTHER, doc, { ...good, Signature: tampered }), 401, 'signature');
    // Another agent's key, claimed to be in this agent's directory.
    const stranger = await fresh();
    const claimed = await stranger.sign(url(OTHER), { signatureAgent: JSON.stringify(agent.origin) });
    await refused(await postComment(server.url, OTHER, doc, claimed), 401, 'keyid');
    // A Signature-Agent that is not an origin.
    await refused(await signedPost(OTHER, doc, agent, { signatureAgent: JSON.stringify(`${agent.origin}/keys`) }), 401, 'signature_agent');
    assert.equal(await count(OTHER), before);
  });

  await t.test('a signature may cover more than @authority and signature-agent (RFC 9421): the body\'s digest, its type, the whole URI', async () => {
    const doc = commentDoc({ author: 'thorough-bot' }, 'Signed over its method, URI, type, key and body digest.');
    const digest = `sha-256=:${createHash('sha256').update(doc).digest('base64')}:`;
    const covered = { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Digest': digest, 'X-API-Key': API_KEY };
    const components = ['@method', '@target-uri', '@authority', '@path', '@scheme', 'signature-agent', 'content-type', 'content-digest', 'x-api-key'];
    const signed = await agent.sign(url(OTHER), { method: 'POST', headers: covered, components });
    const res = await postComment(server.url, OTHER, doc, { ...signed, 'Content-Digest': digest });
    assert.equal(res.status, 201, await res.clone().text());
    assert.deepEqual(((await res.json()) as { agent: unknown }).agent, { origin: agent.origin, keyid: agent.keyid });

    // The same signature over a digest that is not the body's: the signature verifies, the body does not match it.
    const before = await count(OTHER);
    const other = commentDoc({ author: 'thorough-bot' }, 'A body that is not the one the digest was made of.');
    const wrong = `sha-256=:${createHash('sha256').update(other + 'x').digest('base64')}:`;
    const resigned = await agent.sign(url(OTHER), { method: 'POST', headers: { ...covered, 'Content-Digest': wrong }, components });
    const refusedDigest = await postComment(server.url, OTHER, other, { ...resigned, 'Content-Digest': wrong });
    assert.equal(refusedDigest.status, 400);
    const error = ((await refusedDigest.json()) as { error: { field: string; message: string } }).error;
    assert.equal(error.field, 'Content-Digest');
    assert.match(error.message, /sha-256 is not the digest of the body that arrived/);
    // A compressed body's digest is of its encoded bytes, which are decoded before any check: refused, not waved through.
    const zipped = await fetch(url(OTHER), {
      method: 'POST',
      headers: { 'X-API-Key': API_KEY, 'Content-Type': 'text/plain; charset=utf-8', 'Content-Encoding': 'gzip', 'Content-Digest': wrong },
      body: gzipSync(other),
    });
    assert.equal(zipped.status, 400);
    const zippedError = ((await zipped.json()) as { error: { field: string; message: string } }).error;
    assert.equal(zippedError.field, 'Content-Digest');
    assert.match(zippedError.message, /cannot be checked on a body sent with Content-Encoding gzip/);
    // Covering a field the request does not carry fails (RFC 9421 2.5): it was signed as an empty
    // value, so a signature "over" content-digest sent without one bound no body (found sending one).
    const unsent = await agent.sign(url(OTHER), { method: 'POST', headers: { 'Content-Type': 'text/plain; charset=utf-8' }, components: ['@authority', 'signature-agent', 'content-type', 'content-digest'] });
    const absent = await refused(await postComment(server.url, OTHER, other, unsent), 401, 'components');
    assert.match(absent.message, /covers "content-digest", which the request does not carry/);
    // An algorithm this server does not know is ignored (RFC 9530).
    assert.equal((await postComment(server.url, OTHER, other, { 'Content-Digest': 'md5=:AAAA:' })).status, 201);
    assert.equal(await count(OTHER), before + 1);
  });

  await t.test('a dictionary Signature-Agent covered as "signature-agent";key="<member>" (RFC 9421 2.1.2, as the draft signs it) is verified', async () => {
    // Found signing as other Web Bot Auth agents do (Cloudflare's examples: `agent1="https://…"`
    // and `"signature-agent";key="agent1"`): the base has the member's value alone, but the whole
    // field was signed in its place, so every such signature was 401 `signature`.
    const target = new URL(url(OTHER));
    const keyed = async (member: string, header: string, baseValue: string, nonce = `keyed-${Math.random()}`) => {
      const created = Math.floor(Date.now() / 1000);
      const params = `("@authority" "signature-agent";key="${member}");created=${created};expires=${created + 60};keyid="${agent.keyid}";nonce="${nonce}";tag="web-bot-auth"`;
      const base = `"@authority": ${target.host}\n"signature-agent";key="${member}": ${baseValue}\n"@signature-params": ${params}`;
      const signature = Buffer.from(await agent.signer.sign(base)).toString('base64');
      return { 'Signature-Agent': header, 'Signature-Input': `sig1=${params}`, Signature: `sig1=:${signature}:` };
    };
    const quoted = JSON.stringify(agent.origin);
    for (const [member, header] of [['sig1', `sig1=${quoted}`], ['agent1', `agent1=${quoted}`], ['agent1', `other="https://elsewhere.example", agent1=${quoted}`]] as const) {
      const res = await postComment(server.url, OTHER, commentDoc({ author: 'member-bot' }, `Signed over the Signature-Agent member ${member} of ${header}.`), await keyed(member, header, quoted));
      assert.equal(res.status, 201, await res.clone().text());
      assert.deepEqual(((await res.json()) as { agent: unknown }).agent, { origin: agent.origin, keyid: agent.keyid });
    }
    const before = await count(OTHER);
    const doc = commentDoc({ author: 'member-bot' }, 'This comment must never be stored by the writer.');
    // A member the field does not have, and a field that is no dictionary.
    await refused(await postComment(server.url, OTHER, doc, await keyed('agent2', `agent1=${quoted}`, quoted)), 401, 'signature_agent');
    await refused(await postComment(server.url, OTHER, doc, await keyed('agent1', quoted, quoted)), 401, 'signature_agent');
    // The whole field signed in the member's place does not verify.
    await refused(await postComment(server.url, OTHER, doc, await keyed('agent1', `agent1=${quoted}`, `agent1=${quoted}`)), 401, 'signature');
    assert.equal(await count(OTHER), before);
  });

  await t.test('a missing expires, or a created that is missing or no integer, is refused under its own check', async () => {
    // Found by signing without expires: the answer said check "created".
    const target = new URL(url(OTHER));
    const quoted = JSON.stringify(agent.origin);
    const doc = commentDoc({ author: 'timeless-bot' }, 'This comment must never be stored by the writer.');
    const before = await count(OTHER);
    const sans = async (params: string) => {
      const input = `("@authority" "signature-agent");${params};keyid="${agent.keyid}";nonce="p-${Math.random()}";tag="web-bot-auth"`;
      const base = `"@authority": ${target.host}\n"signature-agent": ${quoted}\n"@signature-params": ${input}`;
      return { 'Signature-Agent': quoted, 'Signature-Input': `sig1=${input}`, Signature: `sig1=:${Buffer.from(await agent.signer.sign(base)).toString('base64')}:` };
    };
    const now = Math.floor(Date.now() / 1000);
    assert.match((await refused(await postComment(server.url, OTHER, doc, await sans(`created=${now}`)), 401, 'expires')).message, /expires is missing/);
    assert.match((await refused(await postComment(server.url, OTHER, doc, await sans(`created=${now}.5;expires=${now + 60}`)), 401, 'created')).message, /created is not an integer/);
    assert.match((await refused(await postComment(server.url, OTHER, doc, await sans(`expires=${now + 60}`)), 401, 'created')).message, /created is missing/);
    assert.equal(await count(OTHER), before);
  });

  await t.test('an alg that is not the key\'s, and an expires just passed, are refused under their own checks', async () => {
    const doc = commentDoc({ author: 'mismatched-bot' }, 'This comment must never be stored by the writer.');
    const before = await count(OTHER);
    await refused(await signedPost(OTHER, doc, agent, { alg: 'rsa-pss-sha512' }), 401, 'alg');
    // Past by 5 s: http-message-sig's verify checks expires strictly; the writer names the check.
    await refused(await signedPost(OTHER, doc, agent, { createdS: -120, expiresS: -5 }), 401, 'expires');
    assert.equal(await count(OTHER), before);
  });

  await t.test('key directories that cannot be used answer 401, bounded in time', async () => {
    const doc = commentDoc({ author: 'directory-bot' }, 'This comment must never be stored either.');
    const before = await count(OTHER);
    const gone = await fresh();
    const goneHeaders = await gone.sign(url(OTHER));
    await gone.close();
    // Its port held by a listener that hangs up at once: the writer remembers the failure
    // per origin (failureTtlMs), and a later agent given the freed port by the system would
    // share the origin and be refused as unreachable (seen under load: `forged` below).
    const hangUp = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve, reject) => hangUp.once('error', reject).listen(Number(new URL(gone.origin).port), '127.0.0.1', resolve));
    t.after(() => new Promise<void>((resolve) => hangUp.close(() => resolve())));
    await refused(await postComment(server.url, OTHER, doc, goneHeaders), 401, 'directory_unreachable');
    const redirecting = await fresh();
    redirecting.answer = { status: 302, headers: { location: 'http://10.0.0.1/.well-known/http-message-signatures-directory' } };
    await refused(await signedPost(OTHER, doc, redirecting), 401, 'directory_unreachable');
    const slow = await fresh();
    slow.answer = { delayMs: 10_000 };
    const started = Date.now();
    await refused(await signedPost(OTHER, doc, slow), 401, 'directory_unreachable');
    assert.ok(Date.now() - started < 6000, `a directory that never answers costs the timeout, not a hang (${Date.now() - started} ms)`);
    const forged = await fresh();
    forged.answer = { badSignature: true };
    await refused(await signedPost(OTHER, doc, forged), 401, 'directory_signature');
    const huge = await fresh();
    huge.answer = { body: JSON.stringify({ keys: [], pad: 'x'.repeat(100_000) }) };
    await refused(await signedPost(OTHER, doc, huge), 401, 'directory_invalid');
    const notJson = await fresh();
    notJson.answer = { body: '<html>' };
    await refused(await signedPost(OTHER, doc, notJson), 401, 'directory_invalid');
    // An unsigned directory is fine (its signature is checked where present).
    const unsigned = await fresh();
    unsigned.answer = { unsigned: true };
    assert.equal((await signedPost(OTHER, commentDoc({ author: 'unsigned-dir-bot' }, 'Signed request, directory without its own signature.'), unsigned)).status, 201);
    assert.equal(await count(OTHER), before + 1);
  });

  await t.test('the directory is cached: one fetch for many signed requests', async () => {
    const cached = await fresh();
    for (let i = 0; i < 3; i++) assert.equal((await signedPost(OTHER, commentDoc({ author: 'cached-bot' }, `Cached directory comment number ${i}.`), cached)).status, 201);
    assert.equal(cached.fetches, 1);
  });

  await t.test('duplicates follow the verified agent: the same agent and body answer 200, an unsigned twin is its own comment', async () => {
    const doc = commentDoc({ author: 'dup-bot' }, 'A body the agent sends twice after a lost answer.');
    const first = (await (await signedPost(OTHER, doc)).json()) as Record_;
    const again = await signedPost(OTHER, doc);
    assert.equal(again.status, 200);
    assert.equal(((await again.json()) as Record_).id, first.id);
    const unsigned = await postComment(server.url, OTHER, doc);
    assert.equal(unsigned.status, 201, 'an unsigned comment with the same author and body is not the signed one');
    assert.equal(((await unsigned.json()) as Record_).agent, null);
  });

  await t.test('agora agents block|unblock|list: a blocked origin or key answers 403 at once, nothing stored', async () => {
    const cli = (...args: string[]) => run(process.execPath, [AGORA, '--root', project.root, 'agents', ...args], { env: { ...process.env, AGORA_DATA_DIR: project.config.dataDir } });
    const doc = commentDoc({ author: 'blocked-bot' }, 'A comment from an agent the operator blocked.');
    const before = await count(OTHER);
    // `agora comments list` names each signed comment's origin and key: what `block` takes.
    const listed = (await run(process.execPath, [AGORA, '--root', project.root, 'comments', 'list', '--slug', OTHER], { env: { ...process.env, AGORA_DATA_DIR: project.config.dataDir } })).stdout;
    assert.ok(listed.includes(`[signed: ${agent.origin} key ${agent.keyid}]`), listed);
    assert.match((await cli('block', agent.origin)).stdout, /blocked origin/);
    assert.match((await cli('list')).stdout, new RegExp(`origin\\t${agent.origin.replace(/[.:/]/g, '\\$&')}`));
    const error = await refused(await signedPost(OTHER, doc), 403);
    assert.equal(error.code, 'agent_blocked');
    // The same origin written another way is the same blocked agent.
    const mapped = agent.origin.replace('127.0.0.1', '[::ffff:127.0.0.1]');
    assert.equal((await refused(await signedPost(OTHER, doc, agent, { signatureAgent: JSON.stringify(mapped) }), 403)).code, 'agent_blocked');
    assert.equal((await postComment(server.url, OTHER, commentDoc({ author: 'blocked-bot' }, 'Unsigned comments are not affected by agent blocks.'))).status, 201);
    await cli('unblock', agent.origin);
    assert.equal((await signedPost(OTHER, commentDoc({ author: 'blocked-bot' }, 'Unblocked again: this one is stored.'))).status, 201);
    await cli('block', agent.keyid);
    assert.equal((await refused(await signedPost(OTHER, doc), 403)).code, 'agent_blocked');
    await cli('unblock', agent.keyid);
    assert.equal(await count(OTHER), before + 2);
    assert.match((await cli('list')).stdout, /no blocked agents/);
  });

  await t.test('a refused signature on /mcp is a JSON-RPC error carrying the writer\'s, whatever the method', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' });
    const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...(await agent.sign(`${server.url}/mcp`, { tag: 'not-web-bot-auth' })) };
    const res = await fetch(`${server.url}/mcp`, { method: 'POST', headers, body });
    assert.equal(res.status, 401);
    const answer = (await res.json()) as { jsonrpc: string; id: null; error: { code: number; message: string; data: { code: string; check: string } } };
    assert.deepEqual([answer.jsonrpc, answer.id, answer.error.code], ['2.0', null, -32000]);
    assert.deepEqual([answer.error.data.code, answer.error.data.check], ['signature_invalid', 'tag']);
    assert.match(answer.error.message, /^Web Bot Auth signature refused \(tag\)/);
  });

  await t.test('post_comment over MCP\'s HTTP transport stores the verified agent', async () => {
    const signingFetch = async (input: string | URL | Request, init?: RequestInit) => {
      const target = input instanceof Request ? input.url : String(input);
      const headers = new Headers(init?.headers);
      for (const [k, v] of Object.entries(await agent.sign(target))) headers.set(k, v);
      return fetch(input, { ...init, headers });
    };
    const client = new Client({ name: 'signed-mcp', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { fetch: signingFetch }));
    try {
      const result = (await client.callTool({ name: 'post_comment', arguments: { slug: SLUG, document: commentDoc({ author: 'mcp-signed' }, 'Posted over MCP with a Web Bot Auth signature.'), api_key: API_KEY } })) as CallToolResult;
      assert.ok(!result.isError, JSON.stringify(result.content));
      const comment = (result.structuredContent as { comment: Record_ }).comment;
      assert.deepEqual(comment.agent, { origin: agent.origin, keyid: agent.keyid });
      const listed = (await client.callTool({ name: 'list_comments', arguments: { slug: SLUG } })) as CallToolResult;
      const found = (listed.structuredContent as { comments: Record_[] }).comments.find((c) => c.id === comment.id);
      assert.deepEqual(found?.agent, { origin: agent.origin, keyid: agent.keyid });
    } finally {
      await client.close();
    }
  });
});

test('rate budgets follow the verified agent; failed signatures cost the address', async (t) => {
  const { project, server, agent } = await serveWithAgent(t, TIGHT);
  const url = `${server.url}/api/comments/${encodeURIComponent(SLUG)}`;
  const doc = (n: number, author = 'budget-bot') => commentDoc({ author }, `Comment number ${n} against the budget.`);
  for (let i = 0; i < 3; i++) assert.equal((await postComment(server.url, SLUG, doc(i, 'address-bot'))).status, 201);
  assert.equal((await postComment(server.url, SLUG, doc(3, 'address-bot'))).status, 429, 'the address budget is spent');
  for (let i = 0; i < 3; i++) {
    const res = await postComment(server.url, SLUG, doc(i), await agent.sign(url));
    assert.equal(res.status, 201, 'a verified agent has its own budget, not its address\'s');
    // Named as what it is (before: `comments-ip`, as if the address's).
    // Beside it, the budget all agents signing from this address share (five clients' worth).
    assert.match(res.headers.get('ratelimit') ?? '', new RegExp(`^"comments-agent";r=${2 - i};t=\\d+, "comments-agents-ip";r=${14 - i};t=\\d+, "comments-post"`));
    assert.match(res.headers.get('ratelimit-policy') ?? '', /^"comments-agent";q=3;w=60, "comments-agents-ip";q=15;w=60, /);
  }
  const over = await postComment(server.url, SLUG, doc(3), await agent.sign(url));
  assert.equal(over.status, 429, 'and it is spent too');
  assert.match(((await over.json()) as { error: { message: string } }).error.message, /\(comments-agent\)/);
  assert.ok(over.headers.get('retry-after'));
});

test('agents signing from one address share a budget of five clients besides their own (origins are cheap to make)', async (t) => {
  const limits = JSON.stringify({ limits: { commentsPerIpPerMinute: 1, commentsPerPostPerHour: 1000, commentsPerSitePerHour: 1000 } });
  const project = await makeProject({ samplePosts: true, files: { 'agora.config.json': limits } });
  const server = await startTestServer(project, { AGORA_AGENT_DIRECTORY_ALLOW_LOOPBACK: '1' });
  // Six origins (a directory each, as wildcard DNS gives one attacker any number), one address.
  const agents = await Promise.all(Array.from({ length: 6 }, () => startTestAgent()));
  t.after(async () => {
    await server.close();
    await Promise.all(agents.map((a) => a.close()));
    await project.remove();
  });
  const url = `${server.url}/api/comments/${encodeURIComponent(SLUG)}`;
  const statuses: number[] = [];
  let last: Response | null = null;
  for (const [i, a] of agents.entries()) {
    last = await postComment(server.url, SLUG, commentDoc({ author: `origin-${i}` }, `Signed from origin ${i}, the same address.`), await a.sign(url));
    statuses.push(last.status);
    if (i < 5) assert.match(last.headers.get('ratelimit') ?? '', new RegExp(`"comments-agents-ip";r=${4 - i};t=\\d+`));
  }
  // Before: each origin a fresh budget, all six stored (100 a minute from one address in an outside test).
  assert.deepEqual(statuses, [201, 201, 201, 201, 201, 429]);
  const body = (await last!.json()) as { error: { message: string } };
  assert.match(body.error.message, /signed comment requests from this address .*\(comments-agents-ip\)/);
  assert.equal((await postComment(server.url, SLUG, commentDoc({ author: 'unsigned' }, 'An unsigned comment from the same address.'))).status, 201, 'the address\'s own budget is apart');
});

test('failed signatures are counted against the address', async (t) => {
  const { project, server, agent } = await serveWithAgent(t, TIGHT);
  const url = `${server.url}/api/comments/${encodeURIComponent(SLUG)}`;
  for (let i = 0; i < 3; i++) {
    const refused = await postComment(server.url, SLUG, commentDoc(), await agent.sign(url, { tag: 'wrong' }));
    assert.equal(refused.status, 401);
    // A counted answer carries its budget, as openapi.json declares for every answer of the route.
    assert.match(refused.headers.get('ratelimit') ?? '', new RegExp(`^"comments-ip";r=${2 - i};t=\\d+$`));
    assert.match(refused.headers.get('ratelimit-policy') ?? '', /^"comments-ip";q=3;w=60$/);
  }
  const res = await postComment(server.url, SLUG, commentDoc(), await agent.sign(url, { tag: 'wrong' }));
  assert.equal(res.status, 429);
  assert.match(res.headers.get('ratelimit') ?? '', /^"comments-ip";r=0;t=\d+$/);
  assert.ok(Number(res.headers.get('retry-after')) > 0);
  assert.equal((await postComment(server.url, SLUG, commentDoc())).status, 429, 'an unsigned POST from that address is over budget too');
});

test('key-directory fetches have a budget per address: a throttled client aims no fetch', async (t) => {
  const limits = JSON.stringify({ limits: { commentsPerIpPerMinute: 100, commentsPerPostPerHour: 1000, commentsPerSitePerHour: 1000, agentDirectoryFetchesPerIpPerMinute: 2 } });
  const project = await makeProject({ samplePosts: true, files: { 'agora.config.json': limits } });
  const server = await startTestServer(project, { AGORA_AGENT_DIRECTORY_ALLOW_LOOPBACK: '1' });
  const agent = await startTestAgent();
  // A directory that may not be cached: every signed request would fetch it again.
  agent.answer = { headers: { 'cache-control': 'no-store' } };
  t.after(async () => {
    await server.close();
    await agent.close();
    await project.remove();
  });
  const url = `${server.url}/api/comments/${encodeURIComponent(SLUG)}`;
  const answers: Response[] = [];
  for (let i = 0; i < 5; i++) answers.push(await postComment(server.url, SLUG, commentDoc({}, `Signed comment ${i}, its directory fetched each time.`), await agent.sign(url)));
  assert.deepEqual(answers.map((r) => r.status), [201, 201, 429, 429, 429]);
  assert.equal(agent.fetches, 2, 'a throttled client cannot make the writer fetch any origin');
  const over = (await answers[2]!.json()) as { error: { code: string; message: string } };
  assert.equal(over.error.code, 'rate_limited');
  assert.match(over.error.message, /key-directory fetches/);
  assert.ok(Number(answers[2]!.headers.get('retry-after')) > 0);
  // Unsigned comments from that address have their own budget still.
  assert.equal((await postComment(server.url, SLUG, commentDoc({}, 'An unsigned comment from the same address.'))).status, 201);
});

test('signed requests have a budget per address, taken before the nonce is claimed: one client cannot fill the nonce store', async (t) => {
  // Every signed request claims a nonce kept until it expires (up to 11 min), in a store of
  // bounded size: one address sent 2,000 signed pings to /mcp in 18 s, unthrottled, and at
  // that pace filled it, after which every agent's signed requests answered 503.
  const limits = JSON.stringify({ limits: { commentsPerIpPerMinute: 100, commentsPerPostPerHour: 1000, commentsPerSitePerHour: 1000, signedRequestsPerIpPerMinute: 3 } });
  const { project, server, agent } = await serveWithAgent(t, limits);
  const ping = async (signed: Record<string, string>) => fetch(`${server.url}/mcp`, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...signed }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) });
  const statuses: number[] = [];
  for (let i = 0; i < 3; i++) statuses.push((await ping(await agent.sign(`${server.url}/mcp`))).status);
  const refusedSignature = await agent.sign(`${server.url}/mcp`);
  const over = await ping(refusedSignature);
  assert.deepEqual([...statuses, over.status], [200, 200, 200, 429]);
  const body = (await over.json()) as { error: { code: number; data?: { code: string; message: string } } };
  assert.match(JSON.stringify(body), /signed requests from this address/);
  assert.ok(Number(over.headers.get('retry-after')) > 0);
  // Unsigned requests are not charged: an unsigned ping still answers.
  assert.equal((await ping({})).status, 200);
});

test('a covered header is verified as sent: whitespace inside its value is kept (RFC 9421 2.1)', async (t) => {
  // The verifier squeezed every run of whitespace in a covered field to one space, while the
  // signer (web-bot-auth's http-message-sig over a fetch Request) kept it as the RFC says: a
  // signature covering a User-Agent with two spaces in a row answered 401 signature.
  const { server, agent } = await serveWithAgent(t, LIMITS);
  const url = `${server.url}/api/comments/${encodeURIComponent(SLUG)}`;
  const ua = 'survey-agent/2.0  (research;  contact@agent.example)';
  const signed = await agent.sign(url, { method: 'POST', headers: { 'User-Agent': ua }, components: ['@authority', 'signature-agent', 'user-agent'] });
  const res = await postComment(server.url, SLUG, commentDoc({}, 'Signed over a User-Agent with doubled spaces.'), { ...signed, 'User-Agent': ua });
  assert.equal(res.status, 201, await res.text());
  // The bytes are still bound: the same signature over a value squeezed on the way is refused.
  const again = await agent.sign(url, { method: 'POST', headers: { 'User-Agent': ua }, components: ['@authority', 'signature-agent', 'user-agent'] });
  const squeezed = await postComment(server.url, SLUG, commentDoc({}, 'Signed over a User-Agent sent otherwise.'), { ...again, 'User-Agent': ua.replace(/\s+/g, ' ') });
  assert.equal(squeezed.status, 401);
});

test('a directory key past its exp, or before its nbf, signs nothing (401 keyid)', async (t) => {
  // A key its agent retired with `exp` in the directory kept signing until it was removed.
  const { server, agent } = await serveWithAgent(t, LIMITS);
  const url = `${server.url}/api/comments/${encodeURIComponent(SLUG)}`;
  const now = Math.floor(Date.now() / 1000);
  for (const [extra, message] of [[{ exp: now - 60 }, /expired \(its exp .* is past/], [{ nbf: now + 3600 }, /is not valid yet/]] as const) {
    agent.answer = { jwkExtra: extra, headers: { 'cache-control': 'no-store' } };
    const res = await postComment(server.url, SLUG, commentDoc({}, `Signed with a key outside its window ${JSON.stringify(extra)}.`), await agent.sign(url));
    assert.equal(res.status, 401);
    const body = (await res.json()) as { error: { code: string; check: string; message: string } };
    assert.deepEqual([body.error.code, body.error.check], ['signature_invalid', 'keyid']);
    assert.match(body.error.message, message);
  }
  agent.answer = { jwkExtra: { exp: now + 3600, nbf: now - 60 }, headers: { 'cache-control': 'no-store' } };
  assert.equal((await postComment(server.url, SLUG, commentDoc({}, 'Signed with a key inside its window.'), await agent.sign(url))).status, 201);
});

test('a foreign Host or Origin on /mcp is refused before the signature is checked: no fetch, no nonce, no budget', async (t) => {
  const project = await makeProject({ samplePosts: true, files: { 'agora.config.json': TIGHT } });
  const server = await startTestServer(project, { AGORA_AGENT_DIRECTORY_ALLOW_LOOPBACK: '1' });
  const agent = await startTestAgent();
  const pool = createPool(1);
  t.after(async () => {
    pool.destroy();
    await server.close();
    await agent.close();
    await project.remove();
  });
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
  const mcpHeaders = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
  const signed = await agent.sign(`${server.url}/mcp`);
  const host = await send(pool, `${server.url}/mcp`, 'POST', body, { ...mcpHeaders, ...signed, Host: 'evil.example' });
  assert.equal(host.status, 403, host.body);
  const origin = await send(pool, `${server.url}/mcp`, 'POST', body, { ...mcpHeaders, ...signed, Origin: 'https://evil.example' });
  assert.equal(origin.status, 403, origin.body);
  assert.equal(JSON.parse(origin.body).error.code, -32000);
  assert.equal(agent.fetches, 0, 'no directory fetched for a request refused by its Host or Origin');
  assert.equal(origin.headers['ratelimit'], undefined, 'no budget counted');
  // The nonce was not spent: the same signature is still good from the right host.
  const good = await send(pool, `${server.url}/mcp`, 'POST', body, { ...mcpHeaders, ...signed });
  assert.equal(good.status, 200, good.body);
});

test('without AGORA_AGENT_DIRECTORY_ALLOW_LOOPBACK a loopback directory is refused', async (t) => {
  const project = await makeProject({ samplePosts: true, files: { 'agora.config.json': LIMITS } });
  const server = await startTestServer(project);
  const agent = await startTestAgent();
  t.after(async () => {
    await server.close();
    await agent.close();
    await project.remove();
  });
  const url = `${server.url}/api/comments/${encodeURIComponent(SLUG)}`;
  const res = await postComment(server.url, SLUG, commentDoc(), await agent.sign(url));
  const body = (await res.json()) as { error: { check: string } };
  assert.equal(res.status, 401);
  assert.equal(body.error.check, 'signature_agent', 'http origins are refused outright');
  assert.equal(agent.fetches, 0);
});

test('agora agents block|unblock take a key thumbprint that starts with "-" (one key in 64) as the key, not as an option', async (t) => {
  const project = await makeProject({});
  t.after(() => project.remove());
  const cli = (...args: string[]) => run(process.execPath, [AGORA, '--root', project.root, 'agents', ...args], { env: { ...process.env, AGORA_DATA_DIR: project.config.dataDir } });
  const keyid = '-ZYj4uhGtNDeFPQqOk6xKjVNhvlON7L19kK7M8sHCu4';
  assert.equal((await cli('block', keyid)).stdout, `blocked key ${keyid}\n`);
  assert.match((await cli('list')).stdout, new RegExp(`^key\\t${keyid}\\t`, 'm'));
  assert.equal((await cli('unblock', keyid)).stdout, `unblocked key ${keyid}\n`);
  assert.match((await cli('list')).stdout, /no blocked agents/);
  await assert.rejects(cli('block', '--dat-dir', 'x'), (error: { code: number; stderr: string }) => error.code === 1 && /too many arguments|neither an agent origin/.test(error.stderr));
  await assert.rejects(cli('block', '-x'), (error: { code: number; stderr: string }) => error.code === 1 && /`-x` is neither an agent origin/.test(error.stderr));
  assert.match((await cli('list')).stdout, /no blocked agents/, 'the refused words stored nothing');
});

test('agora agents block stores an origin in the spelling the writer knows it by, so a trailing dot or an IPv4-mapped address still blocks', async (t) => {
  const { project, server, agent } = await serveWithAgent(t, LIMITS);
  const cli = (...args: string[]) => run(process.execPath, [AGORA, '--root', project.root, 'agents', ...args], { env: { ...process.env, AGORA_DATA_DIR: project.config.dataDir } });
  const url = `${server.url}/api/comments/${encodeURIComponent(SLUG)}`;
  const port = new URL(agent.origin).port;
  // Found by blocking `http://localhost.:<port>`: the CLI said "blocked origin http://localhost.:<port>",
  // the writer knows the agent as http://localhost:<port>, and its comments went on being stored.
  for (const [spelling, known] of [[`http://localhost.:${port}`, `http://localhost:${port}`], [`http://[::ffff:127.0.0.1]:${port}`, `http://127.0.0.1:${port}`]] as const) {
    assert.equal((await cli('block', spelling)).stdout, `blocked origin ${known}\n`);
    const res = await postComment(server.url, SLUG, commentDoc({ author: 'spelled-bot' }, `Signed as ${spelling}, which is blocked.`), await agent.sign(url, { signatureAgent: JSON.stringify(known) }));
    assert.equal(res.status, 403, await res.text());
    assert.equal((await cli('unblock', spelling)).stdout, `unblocked origin ${known}\n`);
  }
  await assert.rejects(cli('block', 'https://a b'), (error: { code: number; stderr: string }) => error.code === 1 && /`https:\/\/a b` is not a URL/.test(error.stderr));
});
