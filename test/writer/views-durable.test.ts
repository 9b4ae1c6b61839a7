/**
 * A view PUT's 200 is a promise too: the count it answers is on disk before the answer.
 * Before, counts lived in memory for up to a second (`AGORA_VIEWS_FLUSH_MS`), and a
 * SIGKILL lost every view answered in that second.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { putView } from '../helpers/keep-alive.ts';
import { makeProject, NO_RATE_LIMITS, REPO_ROOT } from '../helpers/project.ts';
import { untilListening } from '../helpers/json-lines.ts';
import { openEmbeddedStore } from '../../packages/writer/src/store/embedded/index.ts';

const SLUGS = ['2025-09-14-nginx-reverse-proxy-websocket-timeouts', '2025-03-18-ssh-agent-forwarding-pitfalls', '2025-10-21-caddy-automatic-tls-setup', '2025-04-11-systemd-unit-hardening-checklist'];

async function storedViews(dataDir: string): Promise<Map<string, number>> {
  const store = await openEmbeddedStore(dataDir, 'tool');
  try {
    return await store.views.load();
  } finally {
    await store.close();
  }
}

function startWriter(root: string): { child: ReturnType<typeof spawn>; url: Promise<string> } {
  const child = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'agora'), '--root', root, 'start'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return { child, url: untilListening(child) };
}

test('SIGKILL under view load loses no view that was answered', { timeout: 120_000 }, async (t) => {
  const project = await makeProject({ samplePosts: true, files: { 'agora.config.json': NO_RATE_LIMITS } });
  t.after(() => project.remove());
  const before = await storedViews(project.config.dataDir);
  const writer = startWriter(project.root);
  t.after(() => writer.child.kill('SIGKILL'));
  const base = await writer.url;

  const agent = new Agent({ keepAlive: true, maxSockets: 12 });
  t.after(() => agent.destroy());
  let stop = false;
  const answered = new Map<string, number>();
  const highest = new Map<string, number>();
  const client = async (k: number) => {
    for (let i = 0; !stop; i++) {
      const slug = SLUGS[(k + i) % SLUGS.length]!;
      const views = await putView(agent, base, slug);
      if (views === null) return;
      answered.set(slug, (answered.get(slug) ?? 0) + 1);
      highest.set(slug, Math.max(highest.get(slug) ?? 0, views));
    }
  };
  const clients = Array.from({ length: 12 }, (_, k) => client(k));
  const total = () => [...answered.values()].reduce((a, b) => a + b, 0);
  while (total() < 800) await new Promise((r) => setTimeout(r, 5));
  const exited = new Promise((resolve) => writer.child.once('exit', resolve));
  writer.child.kill('SIGKILL');
  await exited;
  stop = true;
  await Promise.all(clients);

  const after = await storedViews(project.config.dataDir);
  for (const slug of SLUGS) {
    const stored = after.get(slug) ?? 0;
    // PUTs stored but not yet answered when the process died may add more, never fewer.
    assert.ok(stored >= (before.get(slug) ?? 0) + (answered.get(slug) ?? 0), `${slug}: ${answered.get(slug)} answered after ${before.get(slug) ?? 0}, ${stored} stored`);
    assert.ok(stored >= (highest.get(slug) ?? 0), `${slug}: answered ${highest.get(slug)}, ${stored} stored`);
  }

  // A writer started again counts on from there.
  const again = startWriter(project.root);
  t.after(() => again.child.kill('SIGKILL'));
  const url = await again.url;
  const slug = SLUGS[0]!;
  assert.equal(await putView(agent, url, slug), (after.get(slug) ?? 0) + 1);
});
