/**
 * The embedded view store's journal (`store/embedded/views.ts`): each batch is a synced
 * line before its PUTs are answered; a crash leaves at worst a line cut short, which
 * was never acknowledged; folding into `views.json` never counts a line twice.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedViews } from '../../packages/writer/src/store/embedded/views.ts';

async function folder(t: { after: (fn: () => Promise<void>) => void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'agora-views-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

test('each batch is a journal line on disk before add resolves, and a fresh reader counts it', async (t) => {
  const dir = await folder(t);
  const views = new EmbeddedViews(join(dir, 'views.json'));
  await views.load();
  assert.deepEqual(await views.add(new Map([['a', 2], ['b', 1]])), new Map([['a', 2], ['b', 1]]));
  assert.deepEqual(await views.add(new Map([['a', 1]])), new Map([['a', 3]]));
  // No views.json yet: the journal alone holds them, and a process killed now loses nothing.
  const lines = (await readFile(join(dir, 'views.journal'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as unknown);
  assert.deepEqual(lines, [{ e: 0, add: { a: 2, b: 1 } }, { e: 0, add: { a: 1 } }]);
  assert.deepEqual(await new EmbeddedViews(join(dir, 'views.json')).load(), new Map([['a', 3], ['b', 1]]));
  await views.close();
});

test('a line cut short by a crash is not counted, and the next append cuts it away first', async (t) => {
  const dir = await folder(t);
  await writeFile(join(dir, 'views.json'), JSON.stringify({ views: { a: 10 } }));
  await writeFile(join(dir, 'views.journal'), '{"e":0,"add":{"a":1}}\n{"e":0,"add":{"a":5');
  const views = new EmbeddedViews(join(dir, 'views.json'));
  assert.deepEqual(await views.load(), new Map([['a', 11]]));
  assert.deepEqual(await views.add(new Map([['b', 1]])), new Map([['b', 1]]));
  assert.equal(await readFile(join(dir, 'views.journal'), 'utf8'), '{"e":0,"add":{"a":1}}\n{"e":0,"add":{"b":1}}\n');
  assert.deepEqual(await new EmbeddedViews(join(dir, 'views.json')).load(), new Map([['a', 11], ['b', 1]]));
  await views.close();
});

test('a broken line before the last stops the reader with the file and the fix', async (t) => {
  const dir = await folder(t);
  await writeFile(join(dir, 'views.journal'), '{"e":0,"add":{"a":1}}\nnot json\n{"e":0,"add":{"a":1}}\n');
  await assert.rejects(new EmbeddedViews(join(dir, 'views.json')).load(), (error: Error & { code?: string }) => {
    assert.equal(error.code, 'corrupt');
    assert.match(error.message, /views\.journal.*line 2 is not a journal entry.*Restore it from a backup/);
    return true;
  });
});

test('folding writes views.json with the next epoch and empties the journal; a crash between the two counts nothing twice', async (t) => {
  const dir = await folder(t);
  const views = new EmbeddedViews(join(dir, 'views.json'), 64);
  await views.load();
  for (let i = 0; i < 4; i++) await views.add(new Map([['a', 1]]));
  const file = JSON.parse(await readFile(join(dir, 'views.json'), 'utf8')) as { views: Record<string, number>; journal: number };
  assert.ok(file.journal >= 1, 'folded at least once');
  assert.ok((await readFile(join(dir, 'views.journal'), 'utf8')).length < 64 + 32);
  assert.deepEqual(await new EmbeddedViews(join(dir, 'views.json')).load(), new Map([['a', 4]]));
  await views.close();
  assert.equal(await readFile(join(dir, 'views.journal'), 'utf8'), '', 'folded at close');
  assert.deepEqual(JSON.parse(await readFile(join(dir, 'views.json'), 'utf8')).views, { a: 4 });

  // The crash: views.json written with epoch 3 (holding the epoch-2 line), the journal not yet emptied.
  await writeFile(join(dir, 'views.json'), JSON.stringify({ views: { a: 7 }, journal: 3 }));
  await writeFile(join(dir, 'views.journal'), '{"e":2,"add":{"a":3}}\n{"e":3,"add":{"a":1}}\n');
  assert.deepEqual(await new EmbeddedViews(join(dir, 'views.json')).load(), new Map([['a', 8]]));
});

test('a command that only read the counts never rewrites them at close', async (t) => {
  const dir = await folder(t);
  await writeFile(join(dir, 'views.journal'), '{"e":0,"add":{"a":1}}\n');
  const reader = new EmbeddedViews(join(dir, 'views.json'), 1);
  assert.deepEqual(await reader.load(), new Map([['a', 1]]));
  await reader.close();
  assert.equal(await readFile(join(dir, 'views.journal'), 'utf8'), '{"e":0,"add":{"a":1}}\n');
  await assert.rejects(readFile(join(dir, 'views.json')), { code: 'ENOENT' });
});

test('the journal folds before it can fill a small disk (an outside test filled a 512 KB folder with a 1 MB bound)', { skip: process.getuid?.() !== 0 ? 'needs root to mount a small tmpfs' : false }, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'agora-views-'));
  const run = (command: string, args: string[]) => new Promise<number>((r) => spawn(command, args, { stdio: 'ignore' }).once('exit', (c) => r(c ?? 1)));
  const mounted = (await run('mount', ['-t', 'tmpfs', '-o', 'size=512k', 'tmpfs', dir])) === 0;
  // One hook, in order: the disk goes, then the folder.
  t.after(async () => {
    if (mounted) await run('umount', [dir]);
    await rm(dir, { recursive: true, force: true });
  });
  if (!mounted) return t.skip('cannot mount a tmpfs here');
  const views = new EmbeddedViews(join(dir, 'views.json'));
  await views.load();
  // ~600 KB of journal lines in all: more than the folder holds.
  for (let i = 0; i < 20_000; i++) await views.add(new Map([[`post-${i % 7}`, 1]]));
  const folded = JSON.parse(await readFile(join(dir, 'views.json'), 'utf8')) as { journal: number };
  assert.ok(folded.journal >= 2, `folded ${folded.journal} times`);
  const total = [...(await new EmbeddedViews(join(dir, 'views.json')).load()).values()].reduce((a, b) => a + b, 0);
  assert.equal(total, 20_000);
  await views.close();
});
