/**
 * One process writes dist/ at a time (`rebuild/dist-lock.ts`). An `agora build` beside
 * a running writer wrote pages from its own, older reading of the comments over the
 * writer's, and the writer never wrote them again: comments answered 201 vanished from
 * their pages. The build now refuses, and a writer that starts while a build runs waits.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { makeProject, REPO_ROOT } from '../helpers/project.ts';
import { serveProject, startTestServer, postComment, commentDoc } from '../helpers/server.ts';
import { claimDist } from '../../packages/writer/src/rebuild/dist-lock.ts';

const run = promisify(execFile);
const AGORA = join(REPO_ROOT, 'bin', 'agora');
const SLUG = '2025-10-21-caddy-automatic-tls-setup';
const PAGE = `setups/${SLUG}/index.html`;

test('agora build beside a running writer', async (t) => {
  const { project, server } = await serveProject(t, { samplePosts: true });
  const posted = await postComment(server.url, SLUG, commentDoc({}, 'A comment the writer published before the build.'));
  assert.equal(posted.status, 201);
  const { id } = (await posted.json()) as { id: string };
  const pageBefore = await readFile(join(project.config.distDir, PAGE), 'utf8');
  assert.ok(pageBefore.includes(id));

  for (const args of [['build'], ['build', '--force']]) {
    await t.test(`should refuse \`agora ${args.join(' ')}\`, naming the writer, and leave dist/ as the writer keeps it`, async () => {
      const outcome = await run(process.execPath, [AGORA, '--root', project.root, ...args]).then(
        () => ({ code: 0, stderr: '' }),
        (error: { code: number; stderr: string }) => error,
      );
      assert.equal(outcome.code, 1);
      assert.match(outcome.stderr, new RegExp(`Cannot build: \`.*dist\` is being written by another agora process \\(pid ${process.pid}\\), most likely a running writer \\(\`agora start\`, \`serve\` or \`dev\`\\)`));
      assert.match(outcome.stderr, /`agora dev` rebuilds on every edit by itself; to publish edited posts under `agora start`, restart it \(its start rebuilds what changed\), or stop it and build/);
      assert.equal(await readFile(join(project.config.distDir, PAGE), 'utf8'), pageBefore);
    });
  }

  await t.test('should build once the writer has stopped', async () => {
    await server.close();
    const { stdout } = await run(process.execPath, [AGORA, '--root', project.root, 'build']);
    assert.match(stdout, /built 16 posts/);
    assert.ok((await readFile(join(project.config.distDir, PAGE), 'utf8')).includes(id));
  });
});

test('a writer started while a build holds dist/ waits for it', async (t) => {
  const project = await makeProject({ samplePosts: true });
  t.after(() => project.remove());
  const build = await claimDist(project.config.distDir);
  const started = performance.now();
  const release = setTimeout(() => void build.release(), 1500);
  const server = await startTestServer(project);
  t.after(() => server.close());
  clearTimeout(release);
  assert.ok(performance.now() - started >= 1400, `caught up after ${Math.round(performance.now() - started)} ms, before the build let go`);
  assert.equal((await postComment(server.url, SLUG, commentDoc())).status, 201);
});
