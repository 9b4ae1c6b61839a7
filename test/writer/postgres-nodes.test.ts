/**
 * Several writer nodes on one PostgreSQL (issue 10): a real server started for this
 * file (`test/helpers/postgres.ts`), nodes with their own project folder and `dist/`
 * but the same content and database. In-process nodes for the core behaviour; real
 * `agora start` child processes where a node must die (SIGKILL) or must not crash.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { makeProject, NO_RATE_LIMITS, REPO_ROOT, type TestProject } from '../helpers/project.ts';
import { API_KEY, commentDoc, postComment, startTestServer } from '../helpers/server.ts';
import { createPool, send } from '../helpers/http.ts';
import { eventually } from '../helpers/store.ts';
import { POSTGRES_MISSING, sql, startPostgres, type PostgresServer } from '../helpers/postgres.ts';
import { onJsonLines, type LogEntry } from '../helpers/json-lines.ts';

const run = promisify(execFile);
const SLUGS = ['2025-09-14-nginx-reverse-proxy-websocket-timeouts', '2025-08-19-should-agents-write-tests-first', 'postgres-connection-pooling-pgbouncer', '2025-10-02-한국어-형태소-분석기-비교'];
const DEBATE = '2025-07-29-sqlite-in-production-yes-or-no';
const AGORA = join(REPO_ROOT, 'bin', 'agora');
const HIGH_RATE_LIMITS = JSON.stringify({ limits: { commentsPerIpPerMinute: 100_000, commentsPerPostPerHour: 100_000, commentsPerSitePerHour: 100_000, duplicateWindowSeconds: 0 } });

const server = await startPostgres();


/** A node's project: the sample posts, no rate limits, the postgres store on `url`. */
function nodeProject(url: string): Promise<TestProject> {
  return makeProject({ samplePosts: true, files: { 'agora.config.json': NO_RATE_LIMITS }, env: { AGORA_STORE: 'postgres', DATABASE_URL: url } });
}

const commentsOf = async (base: string, slug: string): Promise<{ id: string; author: string }[]> => {
  const res = await fetch(`${base}/api/comments/${encodeURIComponent(slug)}`);
  assert.equal(res.status, 200);
  return (await res.json()) as { id: string; author: string }[];
};

/** A real `agora start` child process on a free port. */
interface NodeProcess {
  url: string;
  child: ChildProcess;
  /** Its stderr and non-JSON output so far (for failure messages). */
  output(): string;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<void>;
}

async function startNode(project: TestProject, url: string): Promise<NodeProcess> {
  const child = spawn(process.execPath, [AGORA, '--root', project.root, 'start'], {
    env: {
      ...process.env,
      PORT: '0', HOST: '127.0.0.1', AGORA_BASE_URL: 'https://agora.example', AGORA_STORE: 'postgres', DATABASE_URL: url,
      AGORA_VIEWS_FLUSH_MS: '100', AGORA_AGGREGATE_DELAY_MS: '100', LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()).length > 20_000 && (log = log.slice(-10_000)));
  const listening = new Promise<string>((resolve, reject) => {
    onJsonLines(child.stdout!, (entry, line) => {
      if (entry?.msg === 'agora listening' && entry.url) resolve(entry.url);
      if (!entry || (entry.level ?? 0) >= 40) log += `${line}\n`;
    });
    child.once('exit', (code, signal) => reject(new Error(`agora start exited (${code ?? signal}) before listening:\n${log}`)));
  });
  const deadline = setTimeout(() => child.kill('SIGKILL'), 60_000);
  try {
    const base = await listening;
    return {
      url: base,
      child,
      output: () => log,
      stop: async () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      },
    };
  } finally {
    clearTimeout(deadline);
  }
}

if (!server) {
  test('writer nodes on postgres', { skip: POSTGRES_MISSING }, () => {});
} else {
  const db: PostgresServer = server;
  test('writer nodes on postgres', async (t) => {
    t.after(() => db.remove());

    await t.test('should share comments, views and moderation between two nodes', async (t) => {
      const url = await db.createDatabase();
      const projects = [await nodeProject(url), await nodeProject(url)];
      const [a, b] = [await startTestServer(projects[0]!), await startTestServer(projects[1]!)];
      t.after(async () => {
        await Promise.all([a.close(), b.close()]);
        await Promise.all(projects.map((p) => p.remove()));
      });
      assert.equal(a.store.engine, 'postgres');

      // A comment through A: 201, A's outputs show it at once, B's soon after (target 1 s).
      const res = await postComment(a.url, DEBATE, commentDoc({ author: 'node-a-agent', type: 'debate', position: 'pro' }, 'Stored through node A, shown on node B.'));
      assert.equal(res.status, 201);
      const taken = Date.now();
      const first = (await res.json()) as { id: string };
      assert.ok((await commentsOf(a.url, DEBATE)).some((c) => c.id === first.id), 'on the node that took it');
      // The target is 1 s (the diagnostic below reports the real lag); the bound leaves room
      // for a loaded CI machine. The page and the mirrors are written side by side, so each is awaited.
      await eventually(async () => {
        assert.ok((await commentsOf(b.url, DEBATE)).some((c) => c.id === first.id));
      }, 5000);
      const lag = Date.now() - taken;
      await eventually(async () => {
        const page = await readFile(join(projects[1]!.config.distDir, 'debates', DEBATE, 'index.html'), 'utf8');
        assert.match(page, /node-a-agent/, 'on node B\'s page');
      }, 5000);
      t.diagnostic(`comment on the other node after ${lag} ms`);

      // And the other way.
      const second = (await (await postComment(b.url, DEBATE, commentDoc({ author: 'node-b-agent', type: 'debate', position: 'con' }, 'Stored through node B, shown on node A.'))).json()) as { id: string };
      await eventually(async () => {
        assert.deepEqual((await commentsOf(a.url, DEBATE)).map((c) => c.id), [first.id, second.id]);
      }, 5000);

      // Views spread over both nodes add up exactly, in the database and in both mirrors.
      const agent = createPool(32);
      t.after(() => agent.destroy());
      const puts = await Promise.all(Array.from({ length: 300 }, (_, i) => send(agent, `${(i % 2 ? a : b).url}/api/views/${encodeURIComponent(SLUGS[i % 3]!)}`, 'PUT')));
      const expected = new Map<string, number>();
      puts.forEach((r, i) => r.status === 200 && expected.set(SLUGS[i % 3]!, (expected.get(SLUGS[i % 3]!) ?? 0) + 1));
      assert.equal(puts.filter((r) => r.status === 200).length, 300);
      await eventually(async () => {
        const rows = await sql<{ slug: string; views: string }>(url, 'SELECT slug, views FROM views');
        assert.deepEqual(new Map(rows.map((r) => [r.slug, Number(r.views)])), expected);
      }, 5000);
      for (const node of [a, b]) {
        await eventually(async () => {
          const mirror = (await (await fetch(`${node.url}/api/views`)).json()) as Record<string, number>;
          for (const [slug, n] of expected) assert.equal(mirror[slug], n, `${node.url} /api/views ${slug}`);
        }, 5000);
      }

      // `agora comments hide` as a CLI process against the database: every node drops it.
      const { stdout } = await run(process.execPath, [AGORA, '--root', projects[0]!.root, 'comments', 'hide', first.id], { env: { ...process.env, AGORA_STORE: 'postgres', DATABASE_URL: url } });
      assert.match(stdout, /hide: .* the running writer updates the pages/);
      for (const [node, project] of [[a, projects[0]!], [b, projects[1]!]] as const) {
        await eventually(async () => {
          assert.deepEqual((await commentsOf(node.url, DEBATE)).map((c) => c.id), [second.id]);
          assert.doesNotMatch(await readFile(join(project.config.distDir, 'debates', DEBATE, 'index.html'), 'utf8'), /node-a-agent/);
        }, 2000);
      }

      // With node B down, a CLI change on B's site rebuilds B's dist/ itself (no writer there to follow it).
      await b.close();
      const unhide = await run(process.execPath, [AGORA, '--root', projects[1]!.root, 'comments', 'unhide', first.id], { env: { ...process.env, AGORA_STORE: 'postgres', DATABASE_URL: url } });
      assert.match(unhide.stdout, /unhide: .*\d+ files rewritten/);
      assert.match(await readFile(join(projects[1]!.config.distDir, 'debates', DEBATE, 'index.html'), 'utf8'), /node-a-agent/, 'node B\'s page shows it again');
      await eventually(async () => {
        assert.deepEqual((await commentsOf(a.url, DEBATE)).map((c) => c.id), [first.id, second.id], 'and running node A follows the store');
      }, 2000);
    });

    await t.test('should keep every acknowledged comment when a node is SIGKILLed during 500 concurrent comments', async (t) => {
      const url = await db.createDatabase();
      const projects = [await nodeProject(url), await nodeProject(url)];
      const nodes = [await startNode(projects[0]!, url), await startNode(projects[1]!, url)];
      const agent = createPool(256);
      t.after(async () => {
        agent.destroy();
        await Promise.all(nodes.map((n) => n.stop()));
        await Promise.all(projects.map((p) => p.remove()));
      });
      const [victim, survivor] = nodes as [NodeProcess, NodeProcess];

      let victimAcknowledged = 0;
      let killed = false;
      const killedAfter = new Promise<void>((resolve) => {
        const check = setInterval(() => {
          // Kill once the victim has acknowledged some, with the rest of the load in flight on both nodes.
          if (victimAcknowledged < 10) return;
          clearInterval(check);
          victim.child.kill('SIGKILL');
          killed = true;
          resolve();
        }, 1);
      });
      const results = await Promise.all(
        Array.from({ length: 500 }, async (_, i) => {
          const node = i % 2 ? victim : survivor;
          const slug = SLUGS[i % SLUGS.length]!;
          try {
            const r = await send(agent, `${node.url}/api/comments/${encodeURIComponent(slug)}`, 'POST', commentDoc({ author: `load-${i}` }, `Comment ${i} of the SIGKILL test, long enough.`), { 'X-API-Key': API_KEY, 'Content-Type': 'text/plain; charset=utf-8' });
            return { i, slug, status: r.status, id: r.status === 201 || r.status === 202 ? (JSON.parse(r.body) as { id: string }).id : null };
          } catch {
            return { i, slug, status: 0, id: null }; // the killed node's connections
          } finally {
            if (node === victim) victimAcknowledged++;
          }
        }),
      );
      await killedAfter;
      assert.ok(killed);
      // 201, or 202 when the page took longer than the rebuild wait (stored all the same).
      const acknowledged = results.filter((r) => r.status === 201 || r.status === 202);
      // The survivor stores every comment sent to it.
      assert.deepEqual(results.filter((r) => r.i % 2 === 0 && r.status !== 201 && r.status !== 202).map((r) => r.status), []);
      assert.ok(acknowledged.some((r) => r.i % 2 === 1), 'the victim acknowledged some before dying');
      assert.ok(results.some((r) => r.status === 0), 'the victim died with requests in flight');
      t.diagnostic(`${acknowledged.length} of 500 acknowledged (${results.filter((r) => r.status === 202).length} as 202); ${results.filter((r) => r.id === null).length} lost with the killed node`);

      const stored = new Set((await sql<{ id: string }>(url, 'SELECT id FROM comments')).map((r) => r.id));
      for (const r of acknowledged) assert.ok(stored.has(r.id!), `acknowledged comment ${r.i} is in the database`);

      const everyAcknowledgedOn = async (base: string) => {
        for (const slug of SLUGS) {
          const shown = new Set((await commentsOf(base, slug)).map((c) => c.id));
          for (const r of acknowledged.filter((x) => x.slug === slug)) assert.ok(shown.has(r.id!), `comment ${r.i} on ${base}`);
        }
      };
      await eventually(() => everyAcknowledgedOn(survivor.url), 5000);

      // Restarted, the killed node's start-up build reads the store: it shows what it missed.
      const restarted = await startNode(projects[0]!, url);
      nodes[0] = restarted;
      await everyAcknowledgedOn(restarted.url);
      for (const slug of SLUGS) {
        await eventually(async () => {
          assert.deepEqual((await commentsOf(restarted.url, slug)).map((c) => c.id), (await commentsOf(survivor.url, slug)).map((c) => c.id));
        }, 3000);
      }
      assert.equal(survivor.child.exitCode, null, 'the survivor still runs');
    });

    await t.test('should answer 503 while the database is down and recover by itself', async (t) => {
      const url = await db.createDatabase();
      // Rate limits on (shared through the database too), with budgets this load never reaches.
      const project = await makeProject({ samplePosts: true, files: { 'agora.config.json': HIGH_RATE_LIMITS } });
      const node = await startNode(project, url);
      const agent = createPool(16);
      t.after(async () => {
        agent.destroy();
        await node.stop();
        await project.remove();
      });

      type Result = { status: number; code?: string; id?: string; phase: string };
      const results: Result[] = [];
      let phase = 'up';
      let stopLoad = false;
      let n = 0;
      const worker = async () => {
        while (!stopLoad) {
          const i = n++;
          const at = phase;
          let r: { status: number; body: string };
          try {
            r = await send(agent, `${node.url}/api/comments/${encodeURIComponent(SLUGS[i % SLUGS.length]!)}`, 'POST', commentDoc({ author: `outage-${i}` }, `Comment ${i} of the outage test, long enough.`), { 'X-API-Key': API_KEY, 'Content-Type': 'text/plain; charset=utf-8' });
          } catch (error) {
            results.push({ status: 0, code: (error as Error).message, phase: at });
            await new Promise((res) => setTimeout(res, 20));
            continue;
          }
          const body = JSON.parse(r.body) as { id?: string; error?: { code: string } };
          results.push({ status: r.status, code: body.error?.code, id: body.id, phase: at });
          // Pace the load during the outage: each POST waits for the pool's connect attempt.
          if (r.status === 503) await new Promise((res) => setTimeout(res, 20));
        }
      };
      const until = async (what: string, ok: () => boolean, ms: number) => {
        const deadline = Date.now() + ms;
        while (!ok()) {
          if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; statuses: ${JSON.stringify(results.slice(-20))}\n${node.output().slice(-3000)}`);
          await new Promise((res) => setTimeout(res, 20));
        }
      };
      const load = Promise.all(Array.from({ length: 8 }, worker));
      try {
        await until('201s before the outage', () => results.filter((r) => r.status === 201).length >= 20, 10_000);
        await db.stop();
        phase = 'down';
        await until('503s while the database is down', () => results.filter((r) => r.phase === 'down' && r.status === 503).length >= 10, 15_000);
        const down = (await (await fetch(`${node.url}/api/health`)).json()) as { status: string; problems?: Record<string, unknown> };
        assert.equal(down.status, 'degraded', 'health names the store while it is away');
        assert.ok(down.problems?.['store']);
        await db.start();
        phase = 'back';
        await until('201s after the database returned', () => results.filter((r) => r.phase === 'back' && r.status === 201).length >= 20, 20_000);
      } finally {
        stopLoad = true;
        await load;
      }

      // Only 201 (stored), 202 (stored, page pending) and 503 store_unavailable, never a crash.
      assert.equal(node.child.exitCode, null, `the node did not exit:\n${node.output().slice(-3000)}`);
      assert.deepEqual(results.filter((r) => ![201, 202, 503].includes(r.status)), []);
      assert.deepEqual([...new Set(results.filter((r) => r.status === 503).map((r) => r.code))], ['store_unavailable']);
      // Never a 201 without a commit.
      const stored = new Set((await sql<{ id: string }>(url, 'SELECT id FROM comments')).map((r) => r.id));
      const acknowledged = results.filter((r) => r.status === 201 || r.status === 202);
      assert.deepEqual(acknowledged.filter((r) => !stored.has(r.id!)), []);
      t.diagnostic(`${acknowledged.length} stored, ${results.filter((r) => r.status === 503).length} answered 503`);
      assert.equal(((await (await fetch(`${node.url}/api/health`)).json()) as { status: string }).status, 'ok', 'and clears once writes work');
    });

    await t.test('should start while the database is down, serving the existing pages, and catch up once it is back', async (t) => {
      const url = await db.createDatabase();
      const project = await nodeProject(url);
      // A first start builds dist/; then the database goes away and the node restarts.
      const first = await startNode(project, url);
      await first.stop();
      await db.stop();
      const child = spawn(process.execPath, [AGORA, '--root', project.root, 'start'], {
        env: { ...process.env, PORT: '0', HOST: '127.0.0.1', AGORA_BASE_URL: 'https://agora.example', AGORA_STORE: 'postgres', DATABASE_URL: url, LOG_LEVEL: 'info' },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let dbUp = false;
      t.after(async () => {
        child.kill('SIGKILL');
        if (!dbUp) await db.start();
        await project.remove();
      });
      const seen = new Map<string, LogEntry>();
      const waitFor = (msg: string, ms: number) => new Promise<LogEntry>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no "${msg}" within ${ms} ms`)), ms);
        const check = () => {
          const entry = seen.get(msg);
          if (entry) {
            clearTimeout(timer);
            resolve(entry);
          } else setTimeout(check, 20);
        };
        check();
      });
      onJsonLines(child.stdout!, (entry) => {
        if (entry?.msg && !seen.has(entry.msg)) seen.set(entry.msg, entry);
      });
      const base = (await waitFor('agora accepting connections; catching up (serving the existing dist/ meanwhile)', 30_000)).url!;
      await waitFor('the store is unavailable (PostgreSQL down?); serving the existing dist/ and trying again', 10_000);
      assert.equal((await fetch(`${base}/`)).status, 200, 'the existing pages are served');
      assert.equal(((await (await fetch(`${base}/api/health`)).json()) as { status: string }).status, 'starting');
      assert.equal(child.exitCode, null, 'still running');
      await db.start();
      dbUp = true;
      await waitFor('agora listening', 60_000);
      assert.equal((await postComment(base, SLUGS[0]!, commentDoc({ author: 'after-the-outage' }))).status, 201);
    });
  });
}
