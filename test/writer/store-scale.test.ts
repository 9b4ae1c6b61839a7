/**
 * The embedded store end to end, as an operator uses it: export and import through the
 * CLI, a writer SIGKILLed under load, moderation from another process during load, and
 * the site-wide outputs catching up within the aggregate delay.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { makeProject, NO_RATE_LIMITS, REPO_ROOT, type TestProject } from '../helpers/project.ts';
import { startTestServer, commentDoc, postComment, API_KEY } from '../helpers/server.ts';
import { createPool, send } from '../helpers/http.ts';
import { eventually, storedComments } from '../helpers/store.ts';

const run = promisify(execFile);
const SLUGS = ['2025-09-14-nginx-reverse-proxy-websocket-timeouts', '2025-08-19-should-agents-write-tests-first', 'postgres-connection-pooling-pgbouncer', '2025-10-02-한국어-형태소-분석기-비교'];

const cli = (project: TestProject, ...args: string[]) =>
  run(process.execPath, [join(REPO_ROOT, 'bin', 'agora'), '--root', project.root, ...args], { env: { ...process.env, AGORA_BASE_URL: 'https://agora.example' } });

const project = () => makeProject({ samplePosts: true, files: { 'agora.config.json': NO_RATE_LIMITS } });

async function answers(base: string): Promise<string[]> {
  const out: string[] = [];
  for (const slug of SLUGS) out.push(await (await fetch(`${base}/api/comments/${encodeURIComponent(slug)}`)).text());
  out.push(await (await fetch(`${base}/api/comments/count`)).text());
  return out;
}

test('export and import', { timeout: 180_000 }, async (t) => {
  const source = await project();
  const target = await project();
  t.after(async () => {
    await source.remove();
    await target.remove();
  });
  const server = await startTestServer(source);
  const ids: string[] = [];
  for (let i = 0; i < 24; i++) {
    const res = await postComment(server.url, SLUGS[i % SLUGS.length]!, commentDoc(i % 5 === 0 ? { type: 'debate', position: 'pro', author: `a${i}` } : { author: `a${i}` }, `Comment number ${i} with enough text to pass.`));
    assert.equal(res.status, 201);
    ids.push(((await res.json()) as { id: string }).id);
  }
  await server.close();
  await cli(source, 'comments', 'hide', ids[3]!);
  const file = join(source.root, 'export.jsonl');

  await t.test('should export every comment as JSON Lines, hidden ones marked', async () => {
    await cli(source, 'comments', 'export', '--out', file);
    const lines = (await readFile(file, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.equal(lines.length, 24);
    assert.deepEqual(Object.keys(lines[0]!), ['id', 'slug', 'author', 'model', 'date', 'type', 'position', 'body', 'created_at', 'agent', 'hidden']);
    assert.equal(lines.filter((l) => l.hidden === true).map((l) => l.id).join(), ids[3]);
  });

  await t.test('should import into a fresh data folder with identical API answers, and again as a no-op', async () => {
    const first = await cli(target, 'comments', 'import', file);
    assert.match(first.stdout, /imported 24 comments on 4 posts; 0 already stored/);
    const second = await cli(target, 'comments', 'import', file);
    assert.match(second.stdout, /imported 0 comments on 0 posts; 24 already stored/);
    const a = await startTestServer(source);
    const b = await startTestServer(target);
    try {
      assert.deepEqual(await answers(b.url), await answers(a.url));
      assert.equal((await storedComments(target.config.dataDir)).find((c) => c.id === ids[3])?.hidden, true);
    } finally {
      await a.close();
      await b.close();
    }
  });

  await t.test('should reject a file with one bad line, naming file:line, and import nothing', async () => {
    const fresh = await project();
    t.after(() => fresh.remove());
    const lines = (await readFile(file, 'utf8')).trim().split('\n');
    const bad = JSON.parse(lines[6]!) as Record<string, unknown>;
    bad.author = 'evil\u001b[2J';
    lines[6] = JSON.stringify(bad);
    const badFile = join(fresh.root, 'bad.jsonl');
    await writeFile(badFile, `${lines.join('\n')}\n`);
    await assert.rejects(cli(fresh, 'comments', 'import', badFile), (e: { code: number; stderr: string }) => e.code === 1 && e.stderr.includes(`${badFile}:7:`) && /author/.test(e.stderr));
    assert.deepEqual(await storedComments(fresh.config.dataDir), []);
    lines[6] = JSON.stringify({ ...bad, author: 'fine', slug: 'no-such-post' });
    await writeFile(badFile, `${lines.join('\n')}\n`);
    await assert.rejects(cli(fresh, 'comments', 'import', badFile), (e: { stderr: string }) => e.stderr.includes(`${badFile}:7:`) && /not a post of this site/.test(e.stderr));
    assert.deepEqual(await storedComments(fresh.config.dataDir), []);
  });
});

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

async function startCli(p: TestProject, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'agora'), '--root', p.root, 'start'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', AGORA_BASE_URL: 'https://agora.example' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  // Caught up, not only accepting connections (the writer answers `starting` while it builds).
  await eventually(async () => assert.equal(((await (await fetch(`http://127.0.0.1:${port}/api/health`)).json()) as { status: string }).status, 'ok'), 30_000);
  return child;
}

test('a writer SIGKILLed during concurrent POSTs keeps every acknowledged comment', { timeout: 180_000 }, async (t) => {
  const p = await project();
  t.after(() => p.remove());
  const port = await freePort();
  let child = await startCli(p, port);
  t.after(() => child.kill('SIGKILL'));
  const pool = createPool(32);
  t.after(() => pool.destroy());
  const acked: string[] = [];
  const sends = Array.from({ length: 400 }, (_, i) =>
    send(pool, `http://127.0.0.1:${port}/api/comments/${encodeURIComponent(SLUGS[i % SLUGS.length]!)}`, 'POST', commentDoc({ author: `load-${i}` }, `Comment ${i} under load, long enough.`), { 'X-API-Key': API_KEY, 'Content-Type': 'text/plain; charset=utf-8' })
      .then((r) => {
        if (r.status === 201 || r.status === 202) acked.push((JSON.parse(r.body) as { id: string }).id);
      }, () => {}),
  );
  await eventually(async () => assert.ok(acked.length >= 60), 20_000);
  child.kill('SIGKILL');
  await Promise.all(sends);
  assert.ok(acked.length < 400, 'the kill landed during the load');
  // Every data file is whole, and every acknowledged comment is there.
  for (const name of await readdir(join(p.config.dataDir, 'comments'))) {
    if (name.endsWith('.json')) JSON.parse(await readFile(join(p.config.dataDir, 'comments', name), 'utf8'));
  }
  const stored = new Set((await storedComments(p.config.dataDir)).map((c) => c.id));
  assert.deepEqual(acked.filter((id) => !stored.has(id)), []);
  // The restarted writer starts at once (the dead one's locks went with it) and shows them all.
  child = await startCli(p, port);
  let shown = 0;
  for (const slug of SLUGS) shown += ((await (await fetch(`http://127.0.0.1:${port}/api/comments/${encodeURIComponent(slug)}`)).json()) as unknown[]).length;
  assert.equal(shown, stored.size);
});

test('moderation from another process during a burst of POSTs loses no acknowledged comment', { timeout: 180_000 }, async (t) => {
  const p = await project();
  t.after(() => p.remove());
  const server = await startTestServer(p);
  t.after(() => server.close());
  const pool = createPool(32);
  t.after(() => pool.destroy());
  const victims: string[] = [];
  for (let i = 0; i < 4; i++) victims.push(((await (await postComment(server.url, SLUGS[i]!, commentDoc({ author: `victim-${i}` }))).json()) as { id: string }).id);
  const acked: string[] = [];
  let stop = false;
  const load = (async () => {
    for (let round = 0; !stop; round++) {
      await Promise.all(Array.from({ length: 16 }, (_, i) =>
        send(pool, `${server.url}/api/comments/${encodeURIComponent(SLUGS[(round + i) % SLUGS.length]!)}`, 'POST', commentDoc({ author: `burst-${round}-${i}` }, `Burst ${round}/${i}, long enough.`), { 'X-API-Key': API_KEY, 'Content-Type': 'text/plain; charset=utf-8' })
          .then((r) => {
            assert.equal(r.status, 201, r.body);
            acked.push((JSON.parse(r.body) as { id: string }).id);
          })));
    }
  })();
  for (const id of victims) await cli(p, 'comments', 'delete', id);
  stop = true;
  await load;
  assert.ok(acked.length > 0);
  const stored = new Set((await storedComments(p.config.dataDir)).map((c) => c.id));
  assert.deepEqual(acked.filter((id) => !stored.has(id)), [], 'every acknowledged comment is stored');
  assert.deepEqual(victims.filter((id) => stored.has(id)), [], 'every deleted comment is gone');
  // The writer follows the deletions on its pages too.
  await eventually(async () => {
    for (const slug of SLUGS) {
      const list = (await (await fetch(`${server.url}/api/comments/${encodeURIComponent(slug)}`)).json()) as { id: string }[];
      assert.ok(!list.some((c) => victims.includes(c.id)));
    }
  }, 3000);
});

test('site-wide outputs follow a burst within the aggregate delay', { timeout: 180_000 }, async (t) => {
  const p = await project();
  t.after(() => p.remove());
  const server = await startTestServer(p, { AGORA_AGGREGATE_DELAY_MS: '300' });
  t.after(() => server.close());
  const countFile = join(p.config.distDir, 'api', 'comments', 'count');
  const before = await readFile(countFile, 'utf8');
  const results = await Promise.all(Array.from({ length: 30 }, (_, i) => postComment(server.url, SLUGS[i % 4]!, commentDoc({ author: `b${i}` }))));
  assert.ok(results.every((r) => r.status === 201));
  // The post's own mirror shows its comments at once; the count follows.
  assert.equal(((await (await fetch(`${server.url}/api/comments/${encodeURIComponent(SLUGS[0]!)}`)).json()) as unknown[]).length, 8);
  // 300 ms of delay plus the flush itself; generous for a loaded CI machine.
  await eventually(async () => assert.equal((JSON.parse(await readFile(countFile, 'utf8')) as { total: number }).total, 30), 5000);
  assert.notEqual(before, await readFile(countFile, 'utf8'));
});
