import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeProject, REPO_ROOT } from '../helpers/project.ts';
import { startTestServer, serveProject, postComment, commentDoc, API_KEY } from '../helpers/server.ts';
import { storedComments } from '../helpers/store.ts';
import { execFile } from 'node:child_process';
import { connect } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DEFAULT_LIMITS, loadLimits } from '../../packages/writer/src/http/limits-config.ts';
import { PUBLIC_DATA_PATHS } from '../../packages/writer/src/http/rate-limit.ts';
import { addressKey } from '../../packages/writer/src/http/client-key.ts';
import { createDuplicateGuard } from '../../packages/writer/src/http/duplicate-guard.ts';

const POST_A = '2025-10-21-caddy-automatic-tls-setup';
const POST_B = '2025-09-14-nginx-reverse-proxy-websocket-timeouts';
const POST_C = '2025-03-18-ssh-agent-forwarding-pitfalls';

test('loadLimits', async (t) => {
  await t.test('should give the defaults without a `limits` key', () => {
    assert.deepEqual(loadLimits({}), DEFAULT_LIMITS);
  });
  await t.test('should take given values and keep defaults for the rest', () => {
    const limits = loadLimits({ limits: { commentsPerIpPerMinute: 0, trustProxy: 'loopback' } });
    assert.equal(limits.commentsPerIpPerMinute, 0);
    assert.equal(limits.trustProxy, 'loopback');
    assert.equal(limits.viewsPerIpPerMinute, DEFAULT_LIMITS.viewsPerIpPerMinute);
  });
  await t.test('should name an unknown key and list the known ones', () => {
    assert.throws(() => loadLimits({ limits: { commentsPerMinute: 5 } }), /Unexpected key `limits\.commentsPerMinute`, expected one of commentsPerIpPerMinute, .*agora\.config\.json/);
  });
  await t.test('should refuse negative, fractional and string counts naming the key', () => {
    assert.throws(() => loadLimits({ limits: { viewsPerIpPerMinute: -1 } }), /`limits\.viewsPerIpPerMinute` -1, expected a whole number ≥ 0/);
    assert.throws(() => loadLimits({ limits: { maxConnections: 1.5 } }), /`limits\.maxConnections` 1\.5/);
    assert.throws(() => loadLimits({ limits: { requestTimeoutMs: '10s' } }), /`limits\.requestTimeoutMs` "10s"/);
  });
  await t.test('should refuse a bad trustProxy and a header deadline above the request deadline', () => {
    assert.throws(() => loadLimits({ limits: { trustProxy: -2 } }), /`limits\.trustProxy` -2, expected false, true, a hop count/);
    assert.throws(() => loadLimits({ limits: { headersTimeoutMs: 20_000, requestTimeoutMs: 5_000 } }), /`limits\.headersTimeoutMs` 20000 above `limits\.requestTimeoutMs` 5000/);
    assert.throws(() => loadLimits({ limits: [] }), /Unexpected `limits` \[\]/);
  });
});

test('addressKey', async (t) => {
  await t.test('should count IPv4 and IPv4-mapped addresses alike', () => {
    assert.equal(addressKey('203.0.113.7'), '203.0.113.7');
    assert.equal(addressKey('::ffff:203.0.113.7'), '203.0.113.7');
  });
  await t.test('should count an IPv6 /64 as one client', () => {
    assert.equal(addressKey('2001:db8:1:2::1'), addressKey('2001:db8:1:2:ffff:1:2:3'));
    assert.notEqual(addressKey('2001:db8:1:2::1'), addressKey('2001:db8:1:3::1'));
    assert.equal(addressKey('::1'), '0000:0000:0000:0000::/64');
  });
});

test('createDuplicateGuard', async (t) => {
  let now = 0;
  const guard = createDuplicateGuard({ windowMs: 1000, now: () => now, maxEntries: 2 });
  await t.test('should find the same post, author and body within the window', () => {
    guard.remember('p', 'a', 'body\n', 'id-1');
    assert.equal(guard.check('p', 'a', 'body'), 'id-1');
    assert.equal(guard.check('p', 'b', 'body'), null);
    assert.equal(guard.check('q', 'a', 'body'), null);
  });
  await t.test('should forget after the window', () => {
    now = 1001;
    assert.equal(guard.check('p', 'a', 'body'), null);
  });
  await t.test('should keep at most maxEntries', () => {
    guard.remember('p', 'a', '1', 'x1');
    guard.remember('p', 'a', '2', 'x2');
    guard.remember('p', 'a', '3', 'x3');
    assert.equal(guard.check('p', 'a', '1'), null);
    assert.equal(guard.check('p', 'a', '3'), 'x3');
  });
  await t.test('should do nothing with a window of 0', () => {
    const off = createDuplicateGuard({ windowMs: 0 });
    off.remember('p', 'a', 'b', 'id');
    assert.equal(off.check('p', 'a', 'b'), null);
  });
});

const LIMITS = {
  commentsPerIpPerMinute: 3,
  commentsPerPostPerHour: 2,
  commentsPerSitePerHour: 3,
  viewsPerIpPerMinute: 2,
  publicDataPerIpPerMinute: 1,
  proxyPerIpPerMinute: 1,
  duplicateWindowSeconds: 7200,
  trustProxy: 'loopback',
};

test('rate limits on a real server', async (t) => {
  const project = await makeProject({ samplePosts: true, catalog: true, files: { 'agora.config.json': JSON.stringify({ limits: LIMITS }) } });
  const server = await startTestServer(project);
  t.after(async () => {
    await server.close();
    await project.remove();
  });
  // The limiter reads Date.now(): a mocked Date moves windows on without sleeping.
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  // Each client is an address in X-Forwarded-For (trustProxy: loopback).
  const from = (ip: string, headers: Record<string, string> = {}) => ({ 'X-Forwarded-For': ip, ...headers });
  const put = (slug: string, ip: string) => fetch(`${server.url}/api/views/${slug}`, { method: 'PUT', headers: from(ip) });
  const post = (slug: string, ip: string, doc: string, key = API_KEY) =>
    fetch(`${server.url}/api/comments/${slug}`, { method: 'POST', headers: from(ip, { 'X-API-Key': key, 'Content-Type': 'text/plain; charset=utf-8' }), body: doc });
  const stored = async () => ((await (await fetch(`${server.url}/api/health`)).json()) as { comments: number }).comments;

  await t.test('should answer views within budget with RateLimit headers, then 429 until the window resets', async () => {
    const first = await put(POST_A, '198.51.100.1');
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('ratelimit-policy'), '"views";q=2;w=60');
    assert.equal(first.headers.get('ratelimit'), '"views";r=1;t=60');
    assert.equal((await put(POST_B, '198.51.100.1')).status, 200);
    const over = await put(POST_A, '198.51.100.1');
    assert.equal(over.status, 429);
    assert.equal(over.headers.get('retry-after'), '60');
    assert.equal(over.headers.get('ratelimit'), '"views";r=0;t=60');
    assert.equal(over.headers.get('content-type'), 'application/json; charset=utf-8');
    const body = (await over.json()) as { error: { code: string; message: string } };
    assert.equal(body.error.code, 'rate_limited');
    assert.match(body.error.message, /at most 2 per 60 s \(views\); retry in 60 s/);
    assert.equal((await put(POST_A, '198.51.100.2')).status, 200, 'another client has its own budget');
    t.mock.timers.tick(30_000);
    assert.equal((await put(POST_A, '198.51.100.1')).headers.get('retry-after'), '30');
    t.mock.timers.tick(30_000);
    assert.equal((await put(POST_A, '198.51.100.1')).status, 200, 'a new window');
  });

  await t.test('should count every comment POST per address, bad keys included', async () => {
    for (let i = 0; i < 3; i++) assert.equal((await post(POST_A, '198.51.100.10', commentDoc(), 'wrong-key')).status, 401);
    const res = await post(POST_A, '198.51.100.10', commentDoc({ author: 'good-agent' }));
    assert.equal(res.status, 429);
    assert.match(res.headers.get('ratelimit-policy') ?? '', /^"comments-ip";q=3;w=60$/);
    assert.equal(await stored(), 0);
  });

  await t.test('should count only stored comments against the per-post budget', async () => {
    const refused = await post(POST_A, '198.51.100.20', commentDoc({ type: 'nonsense' }));
    assert.equal(refused.status, 400);
    assert.equal(refused.headers.get('ratelimit')?.split(', ')[1], '"comments-post";r=2;t=3600', 'the 400 says its point is back');
    const ok = await post(POST_A, '198.51.100.20', commentDoc({ author: 'agent-1' }));
    assert.equal(ok.status, 201);
    assert.equal(ok.headers.get('ratelimit-policy'), '"comments-ip";q=3;w=60, "comments-post";q=2;w=3600, "comments-site";q=3;w=3600');
    assert.equal(ok.headers.get('ratelimit'), '"comments-ip";r=1;t=60, "comments-post";r=1;t=3600, "comments-site";r=2;t=3600', 'the 400 took no post or site budget');
    assert.equal((await post(POST_A, '198.51.100.21', commentDoc({ author: 'agent-2' }))).status, 201);
    const over = await post(POST_A, '198.51.100.22', commentDoc({ author: 'agent-3' }));
    assert.equal(over.status, 429);
    assert.match(((await over.json()) as { error: { message: string } }).error.message, /at most 2 per 3600 s \(comments-post\)/);
    assert.equal(await stored(), 2);
  });

  await t.test('should answer a repeated comment with the first one and charge nothing', async () => {
    const doc = commentDoc({ author: 'agent-1' });
    const again = await post(POST_A, '198.51.100.23', doc);
    assert.equal(again.status, 429, 'the post is over budget, so even a duplicate is refused first');
    t.mock.timers.tick(3600_000);
    const repeat = await post(POST_A, '198.51.100.24', doc);
    assert.equal(repeat.status, 200);
    // Its headers say what is left after the refund (before: one less than was left).
    assert.equal(repeat.headers.get('ratelimit')?.split(', ')[1], '"comments-post";r=2;t=3600', 'the duplicate charged nothing');
    const first = (await (await fetch(`${server.url}/api/comments/${POST_A}`)).json()) as { id: string; author: string }[];
    assert.equal(((await repeat.json()) as { id: string }).id, first.find((c) => c.author === 'agent-1')?.id);
    assert.equal(await stored(), 2, 'nothing stored');
    assert.equal((await post(POST_A, '198.51.100.24', commentDoc({ author: 'agent-4' }))).headers.get('ratelimit')?.split(', ')[1], '"comments-post";r=1;t=3600');
  });

  await t.test('should stop comments on every post once the site budget is spent', async () => {
    assert.equal((await post(POST_B, '198.51.100.30', commentDoc({ author: 'agent-5' }))).status, 201);
    assert.equal((await post(POST_C, '198.51.100.31', commentDoc({ author: 'agent-6' }))).status, 201);
    const over = await post(POST_C, '198.51.100.32', commentDoc({ author: 'agent-7' }));
    assert.equal(over.status, 429);
    assert.match(((await over.json()) as { error: { message: string } }).error.message, /\(comments-site\)/);
    assert.equal(await stored(), 5);
  });

  await t.test('should limit each of the six public-data endpoints per address', async () => {
    for (const [i, path] of PUBLIC_DATA_PATHS.entries()) {
      const ip = `198.51.100.${40 + i}`;
      const first = await fetch(`${server.url}${path}`, { headers: from(ip) });
      assert.notEqual(first.status, 429, path);
      assert.equal(first.headers.get('ratelimit-policy'), '"public-data";q=1;w=60', path);
      assert.equal((await fetch(`${server.url}${path}`, { headers: from(ip) })).status, 429, path);
    }
  });

  await t.test('should limit the catalog proxy per address, before the token check', async () => {
    const call = () => fetch(`${server.url}/agencatalog/api/call`, { method: 'POST', headers: from('198.51.100.60', { 'Content-Type': 'application/json' }), body: '{}' });
    assert.equal((await call()).status, 401);
    const over = await call();
    assert.equal(over.status, 429);
    assert.equal(over.headers.get('ratelimit-policy'), '"proxy";q=1;w=60');
  });
});

test('rate limits without trustProxy', async (t) => {
  const project = await makeProject({ samplePosts: true, files: { 'agora.config.json': JSON.stringify({ limits: { viewsPerIpPerMinute: 1 } }) } });
  const server = await startTestServer(project);
  t.after(async () => {
    await server.close();
    await project.remove();
  });
  await t.test('should ignore X-Forwarded-For and count the socket address', async () => {
    const put = (ip: string) => fetch(`${server.url}/api/views/${POST_A}`, { method: 'PUT', headers: { 'X-Forwarded-For': ip } });
    assert.equal((await put('203.0.113.1')).status, 200);
    assert.equal((await put('203.0.113.2')).status, 429);
  });
  await t.test('should leave routes without a limit alone', async () => {
    const res = await fetch(`${server.url}/api/health`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('ratelimit'), null);
  });
});

test('the same comment sent 30 times at once is stored once; the others answer 200 with it', { timeout: 60_000 }, async (t) => {
  const config = JSON.stringify({ limits: { commentsPerIpPerMinute: 0, commentsPerPostPerHour: 0, commentsPerSitePerHour: 0, duplicateWindowSeconds: 600 } });
  const { project, server } = await serveProject(t, { samplePosts: true, files: { 'agora.config.json': config } });
  const doc = commentDoc({ author: 'impatient-agent' }, 'Sent thirty times at once by an agent that did not wait for the answer.');
  const answers = await Promise.all(Array.from({ length: 30 }, () => postComment(server.url, POST_A, doc)));
  const statuses = answers.map((a) => a.status).sort();
  assert.deepEqual(statuses, [...Array(29).fill(200), 201].sort());
  const ids = new Set(await Promise.all(answers.map(async (a) => ((await a.json()) as { id: string }).id)));
  assert.equal(ids.size, 1, 'every answer names the one comment');
  assert.equal((await storedComments(project.config.dataDir)).filter((c) => c.author === 'impatient-agent').length, 1);
});

const pick = (body: { id: string; status?: string }) => ({ id: body.id, status: body.status });

test('sending a hidden comment again does not undo the hide: 200 with it, nothing new shown', { timeout: 60_000 }, async (t) => {
  const config = JSON.stringify({ limits: { commentsPerIpPerMinute: 0, commentsPerPostPerHour: 0, commentsPerSitePerHour: 0, duplicateWindowSeconds: 600 } });
  const { project, server } = await serveProject(t, { samplePosts: true, files: { 'agora.config.json': config } });
  const doc = commentDoc({ author: 'hidden-agent' }, 'A comment a moderator will hide, then sent again.');
  const created = await postComment(server.url, POST_A, doc);
  assert.equal(created.status, 201);
  const { id } = (await created.json()) as { id: string };
  // A repeat of a shown comment is just its record.
  const repeat = (await (await postComment(server.url, POST_A, doc)).json()) as { id: string; status?: string };
  assert.deepEqual([repeat.id, repeat.status], [id, undefined]);
  // As a moderator does: the CLI, in its own process.
  await promisify(execFile)(process.execPath, [join(REPO_ROOT, 'bin', 'agora'), '--root', project.root, 'comments', 'hide', id]);
  const shownAuthors = async () => ((await (await fetch(`${server.url}/api/comments/${POST_A}`)).json()) as { author: string }[]).map((c) => c.author);
  for (let i = 0; i < 100 && (await shownAuthors()).includes('hidden-agent'); i++) await new Promise((r) => setTimeout(r, 50));
  assert.ok(!(await shownAuthors()).includes('hidden-agent'), 'hidden');
  const answers = await Promise.all(Array.from({ length: 5 }, () => postComment(server.url, POST_A, doc)));
  assert.deepEqual(answers.map((a) => a.status), [200, 200, 200, 200, 200]);
  for (const a of answers) {
    // The 200 says the comment is hidden: an agent must not read it as shown.
    const body = (await a.json()) as { id: string; status?: string; message?: string };
    assert.deepEqual([body.id, body.status], [id, 'hidden']);
    assert.match(body.message ?? '', /moderator hid this comment/);
  }
  assert.equal((await storedComments(project.config.dataDir)).filter((c) => c.author === 'hidden-agent').length, 1);
  assert.ok(!(await shownAuthors()).includes('hidden-agent'), 'still hidden');
});

test('a hidden comment sent again after a restart, or hidden while another writer ran, stays hidden', { timeout: 90_000 }, async (t) => {
  // The duplicate guard's memory off: only the store says what was hidden.
  const config = JSON.stringify({ limits: { commentsPerIpPerMinute: 0, commentsPerPostPerHour: 0, commentsPerSitePerHour: 0, duplicateWindowSeconds: 0 } });
  const project = await makeProject({ samplePosts: true, files: { 'agora.config.json': config } });
  t.after(() => project.remove());
  const hide = (id: string) => promisify(execFile)(process.execPath, [join(REPO_ROOT, 'bin', 'agora'), '--root', project.root, 'comments', 'hide', id]);
  const docA = commentDoc({ author: 'hidden-before-restart' }, 'Hidden, then the writer restarts, then sent again.');
  const docB = commentDoc({ author: 'hidden-while-running' }, 'Hidden while this writer runs, then sent again.');
  let server = await startTestServer(project);
  const created = await postComment(server.url, POST_A, docA);
  assert.equal(created.status, 201);
  const { id } = (await created.json()) as { id: string };
  await server.close();
  await hide(id);
  server = await startTestServer(project);
  t.after(() => server.close());
  const again = await postComment(server.url, POST_A, docA);
  assert.equal(again.status, 200, 'the restarted writer knows the hidden comment from the store');
  assert.deepEqual(Object.values(pick((await again.json()) as { id: string; status?: string })), [id, 'hidden']);

  const second = await postComment(server.url, POST_A, docB);
  assert.equal(second.status, 201);
  const secondId = ((await second.json()) as { id: string }).id;
  await hide(secondId);
  const shown = async () => ((await (await fetch(`${server.url}/api/comments/${POST_A}`)).json()) as { id: string }[]).map((c) => c.id);
  for (let i = 0; i < 100 && (await shown()).includes(secondId); i++) await new Promise((r) => setTimeout(r, 50));
  const resent = await postComment(server.url, POST_A, docB);
  assert.equal(resent.status, 200, 'the hide reached this writer through the store\'s changes');
  assert.equal(((await resent.json()) as { id: string }).id, secondId);
  const stored = await storedComments(project.config.dataDir);
  assert.equal(stored.filter((c) => c.author.startsWith('hidden-')).length, 2);
  assert.deepEqual((await shown()).filter((c) => c === id || c === secondId), []);
});

test('a comment POST whose body never all arrived gives back its per-post and per-site points', { timeout: 60_000 }, async (t) => {
  const config = JSON.stringify({ limits: { commentsPerIpPerMinute: 0, commentsPerPostPerHour: 2, commentsPerSitePerHour: 2 } });
  const { server } = await serveProject(t, { samplePosts: true, files: { 'agora.config.json': config } });
  const { hostname, port } = new URL(server.url);
  // Three clients that announce a body, send five bytes of it and hang up.
  for (let i = 0; i < 3; i++) {
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => {
        socket.write(`POST /api/comments/${POST_A} HTTP/1.1\r\nHost: x\r\nX-API-Key: ${API_KEY}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 100\r\n\r\n---\nau`);
        setTimeout(() => socket.destroy(), 100);
      });
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
  }
  await new Promise((r) => setTimeout(r, 200));
  // Nothing was stored: the post's budget of two is whole.
  for (let i = 0; i < 2; i++) assert.equal((await postComment(server.url, POST_A, commentDoc({}, `A whole comment number ${i}, after the abandoned ones.`))).status, 201);
  assert.equal((await postComment(server.url, POST_A, commentDoc({}, 'A third one is over the budget of two.'))).status, 429);
});
