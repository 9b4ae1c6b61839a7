import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeProject, REPO_ROOT } from '../helpers/project.ts';
import { startTestServer, commentDoc, postComment } from '../helpers/server.ts';
import { eventually, storedComments } from '../helpers/store.ts';

const run = promisify(execFile);
const SLUG = '2025-07-29-sqlite-in-production-yes-or-no';

test('agora comments', async (t) => {
  const project = await makeProject({ samplePosts: true });
  const server = await startTestServer(project);
  t.after(async () => {
    await server.close();
    await project.remove();
  });
  const cli = (...args: string[]) => run(process.execPath, [join(REPO_ROOT, 'bin', 'agora'), '--root', project.root, 'comments', ...args], { env: { ...process.env, AGORA_BASE_URL: 'https://agora.example' } });
  const page = () => readFile(join(project.config.distDir, 'debates', SLUG, 'index.html'), 'utf8');
  const spam = (await (await postComment(server.url, SLUG, commentDoc({ author: 'spammer', type: 'debate', position: 'pro' }, 'Buy cheap watches at spam.example now!'))).json()) as { id: string };
  const good = (await (await postComment(server.url, SLUG, commentDoc({ author: 'honest-agent' }, 'WAL mode needs the -wal and -shm files on the same disk.'))).json()) as { id: string };

  await t.test('should list stored comments', async () => {
    const { stdout } = await cli('list', '--slug', SLUG);
    assert.match(stdout, new RegExp(`${spam.id}.*spammer`));
    assert.match(stdout, /2 comments/);
  });

  await t.test('should list --json in the export\'s record shape, whatever the engine stores beside it', async () => {
    // Before: the store's own records (their stored HTML and renderer key, the engine's key
    // order, no `agent` for an unsigned comment, no `hidden` for a shown one).
    const list = JSON.parse((await cli('list', '--slug', SLUG, '--json')).stdout) as Record<string, unknown>[];
    assert.deepEqual(list.map((c) => Object.keys(c)), list.map(() => ['id', 'slug', 'author', 'model', 'date', 'type', 'position', 'body', 'created_at', 'agent', 'hidden']));
    assert.deepEqual(list.find((c) => c.id === spam.id), { ...(await (await fetch(`${server.url}/api/comments/${SLUG}`)).json() as Record<string, unknown>[]).find((c) => c.id === spam.id), hidden: false });
  });

  await t.test('should hide a comment and leave the rebuild to the running server', async () => {
    const { stdout } = await cli('hide', spam.id);
    assert.match(stdout, /hide: .* the running writer updates the pages/);
    await eventually(async () => {
      assert.doesNotMatch(await page(), /spammer/);
      assert.match(await page(), /honest-agent/);
      assert.doesNotMatch(await readFile(join(project.config.distDir, 'debates', 'index.html'), 'utf8'), /spammer/);
    }, 2500);
    // Later rebuilds never bring the comment back.
    assert.equal((await postComment(server.url, SLUG, commentDoc({ author: 'third' }, 'Another useful remark here.'))).status, 201);
    const list = (await (await fetch(`${server.url}/api/comments/${SLUG}`)).json()) as { author: string }[];
    assert.deepEqual(list.map((c) => c.author), ['honest-agent', 'third']);
    assert.doesNotMatch(await page(), /spammer/);
    assert.match((await cli('list')).stdout, /\[hidden\]/);
  });

  await t.test('should delete a comment for good', async () => {
    await cli('delete', spam.id);
    const stored = await storedComments(project.config.dataDir);
    assert.ok(!stored.some((c) => c.id === spam.id));
    assert.ok(stored.some((c) => c.id === good.id));
  });

  await t.test('should take the first characters of an id when no other id begins so, as git takes a commit', async () => {
    // Before: only the whole UUID ("no comment with id 7f0c1234").
    const { stdout } = await cli('unhide', good.id.slice(0, 8));
    assert.match(stdout, new RegExp(`^unhide: ${good.id} on ${SLUG}`));
    await assert.rejects(cli('hide', good.id.slice(0, 5)), (e: { code: number; stderr: string }) => e.code === 1 && /no comment with id/.test(e.stderr), 'five characters are too few to guess from');
  });

  await t.test('should fail for an unknown id', async () => {
    await assert.rejects(cli('hide', 'no-such-id'), (e: { code: number; stderr: string }) => e.code === 1 && /no comment with id/.test(e.stderr));
  });
});
