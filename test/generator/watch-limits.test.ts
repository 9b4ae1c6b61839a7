/**
 * `agora dev` watches content/ with chokidar. When the system's limits on file watches
 * are reached (inotify instances or watches, EMFILE / ENOSPC), chokidar emits an error
 * event, and with no listener `agora dev` died with a bare stack. Now it says which
 * limit and how to raise it, and polls content/ instead: edits still rebuild.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { watch as chokidarWatch, type ChokidarOptions } from 'chokidar';
import { watchContent } from '../../packages/generator/src/watch.ts';

/** Opens real chokidar watchers; the first (native) one fails as the system's limit makes it fail. */
function failingFirst(code: string) {
  const opened: ChokidarOptions[] = [];
  const open = (dir: string, options: ChokidarOptions) => {
    opened.push(options);
    const watcher = chokidarWatch(dir, options);
    if (opened.length === 1) setImmediate(() => watcher.emit('error', Object.assign(new Error(`${code}: too many open files, watch '${dir}'`), { code, syscall: 'watch' })));
    return watcher;
  };
  return { open, opened };
}

for (const [code, limit] of [['EMFILE', 'fs.inotify.max_user_instances'], ['ENOSPC', 'fs.inotify.max_user_watches']] as const) {
  test(`watchContent: at the system's watch limit (${code}) it says which and polls; edits are still seen`, async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'agora-watch-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    const warnings: string[] = [];
    const changes: string[] = [];
    const { open, opened } = failingFirst(code);
    const watcher = await watchContent(dir, (path) => changes.push(path), (m) => warnings.push(m), open);
    t.after(() => watcher.close());
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(warnings[0]!, new RegExp(`${code}: ${limit.replace(/\./g, '\\.')}`));
    assert.match(warnings[0]!, /Checking it every 100 ms instead; raise the limit/);
    assert.deepEqual(opened.map((o) => Boolean(o.usePolling)), [false, true]);
    await writeFile(join(dir, 'post.md'), 'text');
    const deadline = Date.now() + 5000;
    while (!changes.includes(join(dir, 'post.md')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.ok(changes.includes(join(dir, 'post.md')), `the edit was seen by polling (${changes.join(', ')})`);
  });
}

test('watchContent: another watch error is said, and the watching goes on', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'agora-watch-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const warnings: string[] = [];
  const changes: string[] = [];
  const { open, opened } = failingFirst('EACCES');
  const watcher = await watchContent(dir, (path) => changes.push(path), (m) => warnings.push(m), open);
  t.after(() => watcher.close());
  assert.equal(opened.length, 1);
  for (const deadline = Date.now() + 2000; warnings.length === 0 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 10));
  assert.match(warnings.join('\n'), /Watching .* for edits: EACCES/);
  await writeFile(join(dir, 'post.md'), 'text');
  const deadline = Date.now() + 5000;
  while (!changes.includes(join(dir, 'post.md')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  assert.ok(changes.includes(join(dir, 'post.md')));
});

test('watchContent: the folder removed and put back (a restore) is watched again', async (t) => {
  const parent = await mkdtemp(join(tmpdir(), 'agora-watch-'));
  t.after(() => rm(parent, { recursive: true, force: true }));
  const dir = join(parent, 'content');
  await mkdir(join(dir, 'posts'), { recursive: true });
  await writeFile(join(dir, 'posts', 'a.md'), 'text');
  const warnings: string[] = [];
  const changes: string[] = [];
  const watcher = await watchContent(dir, (path) => changes.push(path), (m) => warnings.push(m));
  t.after(() => watcher.close());
  const seen = async (path: string) => {
    const deadline = Date.now() + 5000;
    while (!changes.includes(path) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.ok(changes.includes(path), `${path} seen (${changes.join(', ')})`);
  };
  await rename(dir, join(parent, 'away'));
  for (const deadline = Date.now() + 5000; warnings.length === 0 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 20));
  assert.match(warnings.join('\n'), /content was removed: the site has no content until it is back/);
  const removals = changes.filter((c) => c === dir).length;
  await rename(join(parent, 'away'), dir);
  // Its return is a change of the folder (a rebuild of what is there), once it is watched again.
  for (const deadline = Date.now() + 5000; changes.filter((c) => c === dir).length === removals && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 20));
  assert.equal(changes.filter((c) => c === dir).length, removals + 1, 'the return reported once');
  // And every file that came back with it: the folder alone rebuilt no post (the site stayed empty).
  assert.equal(changes.filter((c) => c === join(dir, 'posts', 'a.md')).length >= 2, true, 'a.md reported again on the return');
  // Before: nothing after the restore was ever seen.
  await writeFile(join(dir, 'posts', 'b.md'), 'later edit');
  await seen(join(dir, 'posts', 'b.md'));
});
