/**
 * `agora comments import` killed while it stages its files (SIGKILL, OOM, a closed
 * terminal): every post file stays whole, and the staged copies it leaves are removed
 * by the writer's store when it opens, as every other killed write's temporary files
 * are. They were named `.import-<pid>-<n>.json.tmp`, a name that sweep does not know,
 * so each killed import left a copy of the posts it had staged in `data/comments/`
 * for good (found by killing an import of 1,880 comments under a running test).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from '../helpers/project.ts';
import { openEmbeddedStore } from '../../packages/writer/src/store/embedded/index.ts';

const SLUGS = 400;

const CHILD = `
import { openEmbeddedStore } from '${pathToFileURL(join(REPO_ROOT, 'packages/writer/src/store/embedded/index.ts')).href}';
const store = await openEmbeddedStore(process.argv[1], 'tool');
const comments = Array.from({ length: ${SLUGS} }, (_, i) => ({ id: 'c' + i, slug: 'p' + i, author: 'a', model: 'm', date: '2026-11-27', type: 'supplement', position: null, body: 'A comment body ' + i, created_at: '2026-11-27T00:00:00.000Z' }));
await store.comments.importMany(comments);
process.stdout.write('done');
`;

test('an import killed while staging leaves nothing the writer\'s store does not remove when it opens', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'agora-import-kill-'));
  try {
    const comments = join(dir, 'comments');
    const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=agora-source', '--input-type=module', '-e', CHILD, dir], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    // Kill it once it has staged a few post files, long before its 400 renames.
    for (;;) {
      const names = await readdir(comments).catch(() => [] as string[]);
      if (names.filter((n) => n.endsWith('.tmp')).length >= 5) break;
      assert.equal(out, '', 'the import ended before it could be killed');
      await new Promise((r) => setTimeout(r, 2));
    }
    child.kill('SIGKILL');
    await exited;
    assert.equal(out, '');
    const left = (await readdir(comments)).filter((n) => n.endsWith('.tmp'));
    assert.ok(left.length > 0, 'the kill left staged files (the case under test)');
    const store = await openEmbeddedStore(dir, 'server');
    await store.close();
    const after = await readdir(comments);
    assert.deepEqual(after.filter((n) => n.startsWith('.')), [], 'no staged copy or temporary file left');
    for (const name of after) JSON.parse(await readFile(join(comments, name), 'utf8'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
