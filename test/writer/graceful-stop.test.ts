/**
 * SIGTERM under load: the writer stops taking requests, answers every one it took, and
 * exits 0 well before its forced exit. Before, keep-alive clients kept sending on their
 * open sockets (500 more comments in 10 s), the forced exit at 10 s cut requests in
 * flight, and some of those comments were stored but never answered (a client that
 * retries them posts them twice). Every comment answered 2xx is stored, and every view
 * count answered is saved (those answered while stopping were lost).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { request, Agent } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { putView } from '../helpers/keep-alive.ts';
import { makeProject, NO_RATE_LIMITS, REPO_ROOT } from '../helpers/project.ts';
import { commentDoc, API_KEY } from '../helpers/server.ts';
import { storedComments } from '../helpers/store.ts';
import { untilListening, type LogEntry } from '../helpers/json-lines.ts';

const SLUGS = ['2025-09-14-nginx-reverse-proxy-websocket-timeouts', '2025-03-18-ssh-agent-forwarding-pitfalls', '2025-10-21-caddy-automatic-tls-setup', '2025-04-11-systemd-unit-hardening-checklist'];

/** One POST on a keep-alive agent: its status, or the error's code when no answer came. */
function post(agent: Agent, base: string, slug: string, body: string): Promise<{ status?: number; id?: string; error?: string }> {
  return new Promise((resolve) => {
    const req = request(`${base}/api/comments/${slug}`, { method: 'POST', agent, headers: { 'X-API-Key': API_KEY, 'Content-Type': 'text/plain; charset=utf-8' } }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode, id: res.statusCode && res.statusCode < 300 ? (JSON.parse(text) as { id: string }).id : undefined}));
      res.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message}));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message}));
    req.end(body);
  });
}

test('SIGTERM under load answers every request it took and exits 0', { timeout: 120_000 }, async (t) => {
  const project = await makeProject({ samplePosts: true, files: { 'agora.config.json': NO_RATE_LIMITS } });
  t.after(() => project.remove());
  const child = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'agora'), '--root', project.root, 'start'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  t.after(() => child.kill('SIGKILL'));
  const lines: LogEntry[] = [];
  const base = await untilListening(child, (entry) => lines.push(entry));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  // 12 keep-alive clients posting without pause; SIGTERM once they are under way.
  const agent = new Agent({ keepAlive: true, maxSockets: 12 });
  t.after(() => agent.destroy());
  let stop = false;
  let n = 0;
  const results: Awaited<ReturnType<typeof post>>[] = [];
  // The highest view count each post's PUTs were answered with.
  const viewsAnswered = new Map<string, number>();
  const client = async (k: number) => {
    while (!stop) {
      const slug = SLUGS[k % SLUGS.length]!;
      if (k % 3 !== 0) {
        const viewed = await putView(agent, base, slug);
        if (viewed === null) return;
        viewsAnswered.set(slug, Math.max(viewsAnswered.get(slug) ?? 0, viewed));
        continue;
      }
      const answer = await post(agent, base, slug, commentDoc({ author: `client-${k}` }, `Comment ${n++} from client ${k}, sent around the stop.`));
      results.push(answer);
      if (answer.error) return;
    }
  };
  const clients = Array.from({ length: 12 }, (_, k) => client(k));
  while (results.filter((r) => r.status === 201).length < 30) await new Promise((r) => setTimeout(r, 20));
  const signalled = performance.now();
  child.kill('SIGTERM');
  const code = await exited;
  const stoppedMs = performance.now() - signalled;
  stop = true;
  await Promise.all(clients);

  assert.equal(code, 0, 'a clean exit, not the forced one');
  assert.ok(stoppedMs < 8000, `stopped in ${Math.round(stoppedMs)} ms`);
  assert.ok(lines.some((l) => l.msg === 'agora stopped'));
  const answered = results.filter((r) => r.id).map((r) => r.id!);
  const stored = new Set((await storedComments(project.config.dataDir)).map((c) => c.id));
  for (const id of answered) assert.ok(stored.has(id), `${id} answered 201 and stored`);
  // Every comment stored was answered: none was taken and left without its 201.
  assert.equal(stored.size, answered.length, `${stored.size} stored, ${answered.length} answered`);
  // Every view count answered is saved, those answered while stopping included.
  const saved = (JSON.parse(await readFile(join(project.config.dataDir, 'views.json'), 'utf8')) as { views: Record<string, number> }).views;
  assert.ok(viewsAnswered.size > 0);
  for (const [slug, count] of viewsAnswered) assert.ok((saved[slug] ?? 0) >= count, `${slug}: answered ${count}, saved ${saved[slug]}`);
});
