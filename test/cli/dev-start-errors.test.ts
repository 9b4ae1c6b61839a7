/**
 * `agora dev` started on content with errors says them (file:line:column, rule, fix),
 * keeps waiting, and starts as soon as an edit fixes them. It exited with code 1, so an
 * author had to run it again after every fix.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { once } from 'node:events';
import { makeProject, postSource, REPO_ROOT } from '../helpers/project.ts';

test('agora dev: content with errors at the start waits for the fix, then starts', { timeout: 120_000 }, async (t) => {
  const FILE = 'content/posts/2025-05-01-broken.md';
  const project = await makeProject({ files: { [FILE]: postSource({ date: 'yesterday' }), 'content/posts/2025-05-02-fine.md': postSource({ title: 'Fine', date: '2025-05-02' }) } });
  const child = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'agora'), 'dev', '-H', '127.0.0.1', '-p', '0'], {
    cwd: project.root,
    env: { ...process.env, AGORA_SEARCH_INDEX: '0', LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  t.after(async () => {
    child.kill('SIGTERM');
    if (child.exitCode === null) await once(child, 'exit');
    await project.remove();
  });
  const wait = async (what: string, done: () => boolean) => {
    const deadline = Date.now() + 60_000;
    while (!done() && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 50));
    assert.ok(done(), `${what} (exit ${child.exitCode}; stdout: ${stdout}; stderr: ${stderr})`);
  };
  await wait('the error and the wait', () => /Waiting for a fix/.test(stderr));
  assert.match(stderr, /content\/posts\/2025-05-01-broken\.md:3:1 error Unexpected date `yesterday`.*\(front-matter-date\)\n {2}fix: /);
  assert.equal(child.exitCode, null, 'still running');
  await writeFile(join(project.root, FILE), postSource({ date: '2025-05-01' }));
  await wait('the start after the fix', () => /Agora is serving (\S+) \(site: 2 posts/.test(stdout));
  const url = /Agora is serving (\S+)/.exec(stdout)![1]!;
  assert.equal(((await (await fetch(`${url}/api/health`)).json()) as { status: string }).status, 'ok');
});
