/**
 * `agora dev` started on content with errors says them (file:line:column, rule, fix),
 * keeps waiting, and starts as soon as an edit fixes them. It exited with code 1, so an
 * author had to run it again after every fix.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeProject, postSource } from '../helpers/project.ts';
import { startDev } from '../helpers/dev-process.ts';

test('agora dev: content with errors at the start waits for the fix, then starts', { timeout: 120_000 }, async (t) => {
  const FILE = 'content/posts/2025-05-01-broken.md';
  const project = await makeProject({ files: { [FILE]: postSource({ date: 'yesterday' }), 'content/posts/2025-05-02-fine.md': postSource({ title: 'Fine', date: '2025-05-02' }) } });
  const dev = startDev(project);
  t.after(async () => {
    await dev.stop();
    await project.remove();
  });
  await dev.until('the error and the wait', () => /Waiting for a fix/.test(dev.stderr()));
  assert.match(dev.stderr(), /content\/posts\/2025-05-01-broken\.md:3:1 error Unexpected date `yesterday`.*\(front-matter-date\)\n {2}fix: /);
  assert.equal(dev.child.exitCode, null, 'still running');
  // At once: an edit made while dev starts watching is not missed.
  await writeFile(join(project.root, FILE), postSource({ date: '2025-05-01' }));
  const url = await dev.url();
  assert.match(dev.stdout(), /\(site: 2 posts/);
  assert.equal(((await (await fetch(`${url}/api/health`)).json()) as { status: string }).status, 'ok');
});
