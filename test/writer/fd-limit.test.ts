/**
 * The connection cap against the limit on open files (`http/fd-limit.ts`): with a limit
 * below `maxConnections` plus what the writer needs for itself, connections are capped
 * lower and the log says so, so a flood of connections never leaves the writer without
 * a descriptor to store a comment.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { capForOpenFiles, FD_RESERVE, openFilesLimit } from '../../packages/writer/src/http/fd-limit.ts';
import { makeProject, NO_RATE_LIMITS, REPO_ROOT } from '../helpers/project.ts';
import { commentDoc, API_KEY } from '../helpers/server.ts';
import { createPool, send } from '../helpers/http.ts';
import { untilListening, type LogEntry } from '../helpers/json-lines.ts';

const LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max cpu time              unlimited            unlimited            seconds
Max open files            1024                 524288               files
Max locked memory         8388608              8388608              bytes
`;

test('openFilesLimit reads the soft limit of /proc/self/limits', () => {
  assert.equal(openFilesLimit(LIMITS), 1024);
  assert.equal(openFilesLimit(LIMITS.replace('1024  ', 'unlimited')), null);
  assert.equal(openFilesLimit('no such line'), null);
  if (process.platform === 'linux') assert.ok((openFilesLimit() ?? 0) > 0, 'this process has a limit');
});

test('capForOpenFiles keeps room for the writer below the limit', () => {
  assert.deepEqual(capForOpenFiles(1000, 65536), { maxConnections: 1000 });
  assert.deepEqual(capForOpenFiles(1000, null), { maxConnections: 1000 });
  const capped = capForOpenFiles(1000, 1024);
  assert.equal(capped.maxConnections, 1024 - FD_RESERVE);
  assert.match(capped.warning ?? '', new RegExp(`at most 1024 files.*maxConnections 1000.*capped at ${1024 - FD_RESERVE}.*ulimit -n`));
  assert.equal(capForOpenFiles(0, 1024).maxConnections, 1024 - FD_RESERVE, 'no cap configured: the limit still sets one');
  assert.equal(capForOpenFiles(0, 100).maxConnections, 1, 'never below one');
  assert.deepEqual(capForOpenFiles(1000, 1000 + FD_RESERVE), { maxConnections: 1000 }, 'room for all: no warning');
});

test('a writer with few file descriptors caps its connections and still stores a comment under a flood of them', { timeout: 120_000, skip: process.platform !== 'linux' && 'ulimit and /proc' }, async (t) => {
  const project = await makeProject({ samplePosts: true, files: { 'agora.config.json': NO_RATE_LIMITS } });
  t.after(() => project.remove());
  const LIMIT = 768;
  const child = spawn('/bin/sh', ['-c', `ulimit -n ${LIMIT} && exec "$0" "$@"`, process.execPath, join(REPO_ROOT, 'bin', 'agora'), '--root', project.root, 'start'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  t.after(() => child.kill('SIGKILL'));
  const lines: LogEntry[] = [];
  const base = await untilListening(child, (entry) => lines.push(entry));
  const warning = lines.find((l) => /capped at/.test(l.msg ?? ''));
  assert.match(warning?.msg ?? '', new RegExp(`at most ${LIMIT} files.*capped at ${LIMIT - FD_RESERVE}`), 'the log says the cap and how to raise the limit');

  // A client with a connection open before the flood.
  const agent = createPool(1);
  t.after(() => agent.destroy());
  const slug = '2025-09-14-nginx-reverse-proxy-websocket-timeouts';
  assert.equal((await send(agent, `${base}/api/health`, 'GET')).status, 200);
  // The flood: more connections than the process has descriptors, held open.
  const { port } = new URL(base);
  const sockets: Socket[] = [];
  t.after(() => sockets.forEach((s) => s.destroy()));
  await Promise.all(Array.from({ length: LIMIT }, () => new Promise<void>((resolve) => {
    const socket = connect(Number(port), '127.0.0.1', () => resolve());
    socket.on('error', () => resolve()).on('close', () => resolve());
    sockets.push(socket);
  })));
  await new Promise((r) => setTimeout(r, 300));
  // Before: every descriptor went to connections, and the comment was lost with its
  // connection (ECONNRESET: the writer had no descriptor left).
  const headers = { 'X-API-Key': API_KEY, 'Content-Type': 'text/plain; charset=utf-8' };
  const res = await send(agent, `${base}/api/comments/${slug}`, 'POST', commentDoc({}, 'Stored while a flood of connections holds the writer at its cap.'), headers);
  assert.equal(res.status, 201, res.body);
  // A long comment starts the heavy renderer's worker, which opens its whole module graph
  // at once: with 256 descriptors kept it failed (503 render_unavailable, EMFILE) every time.
  const long = Array.from({ length: 60 }, (_, i) => `Paragraph ${i} of a long comment with **bold** and \`code\` and [a link](https://example.com/${i}) and more words here.`).join('\n\n');
  const heavy = await send(agent, `${base}/api/comments/${slug}`, 'POST', commentDoc({ author: 'long-writer' }, long), headers);
  assert.equal(heavy.status, 201, heavy.body);
  sockets.forEach((s) => s.destroy());
  const page = await send(agent, `${base}/api/comments/${slug}`, 'GET');
  assert.match(page.body, /holds the writer at its cap/);
});
