/**
 * A first start (no dist/ yet) whose PostgreSQL store does not answer: the log and
 * `/api/health` said "serving the existing dist/", though there was none and every read
 * answered 503. They now say there is nothing to serve until the first build.
 * (No PostgreSQL is needed: the URL names a port nothing listens on.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { makeProject, REPO_ROOT } from '../helpers/project.ts';
import { onJsonLines } from '../helpers/json-lines.ts';

const closedPort = () => new Promise<number>((resolve) => {
  const s = createServer().listen(0, '127.0.0.1', () => {
    const { port } = s.address() as { port: number };
    s.close(() => resolve(port));
  });
});

test('a first start with the store away says there is no dist/ to serve yet', { timeout: 60_000 }, async (t) => {
  const project = await makeProject({ samplePosts: true });
  t.after(() => project.remove());
  assert.equal(existsSync(join(project.config.distDir, 'index.html')), false, 'a first start');
  const url = `postgres://agora:secret@127.0.0.1:${await closedPort()}/agora`;
  const child = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'agora'), '--root', project.root, 'start'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', AGORA_STORE: 'postgres', DATABASE_URL: url, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  t.after(() => void child.kill('SIGKILL'));
  const logged: { msg?: string; url?: string }[] = [];
  onJsonLines(child.stdout!, (entry) => entry && logged.push(entry));
  const until = async (what: string, ok: () => boolean) => {
    for (const started = Date.now(); !ok(); await new Promise((r) => setTimeout(r, 50))) {
      if (Date.now() - started > 30_000) assert.fail(`no ${what} within 30 s: ${JSON.stringify(logged)}`);
    }
  };
  await until('warning', () => logged.some((e) => e.msg?.startsWith('the store is unavailable')));
  const warning = logged.find((e) => e.msg?.startsWith('the store is unavailable'))!.msg!;
  assert.match(warning, /no dist\/ to serve yet \(the first build needs the store\); trying again$/);
  assert.doesNotMatch(warning, /serving the existing dist/);
  const base = logged.find((e) => e.url)!.url!;
  const health = (await (await fetch(`${base}/api/health`)).json()) as { status: string; problems?: { store?: { reason?: string } } };
  assert.equal(health.status, 'starting');
  assert.match(JSON.stringify(health.problems), /no dist\/ to serve yet/);
});
