/**
 * `agora dev`: a post file moved away and back (a `git checkout` of a commit without
 * it, a rename and its undo) comes back with the comments and views the store kept for
 * it, on its page and in every mirror, as a fresh build of the same folder shows them.
 * It came back with none until dev was restarted. `bin/agora dev` runs as a child
 * process, as an author runs it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { makeProject, postSource } from '../helpers/project.ts';
import { startDev } from '../helpers/dev-process.ts';
import { commentDoc, postComment } from '../helpers/server.ts';

const SLUG = '2025-05-01-returns';
const FILE = `content/posts/${SLUG}.md`;

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('agora dev: a post moved away and back keeps its comments and views', { timeout: 120_000 }, async (t) => {
  const project = await makeProject({ files: { [FILE]: postSource({ title: 'Returns' }), 'content/posts/2025-05-02-other.md': postSource({ title: 'Other', date: '2025-05-02' }) } });
  const dev = startDev(project, { AGORA_BASE_URL: 'https://agora.example', AGORA_AGGREGATE_DELAY_MS: '100' });
  t.after(async () => {
    await dev.stop();
    await project.remove();
  });
  const base = await dev.url();

  assert.equal((await postComment(base, SLUG, commentDoc({ author: 'kept-author' }, 'A comment that must survive the move.'))).status, 201);
  for (let i = 0; i < 3; i++) assert.equal((await fetch(`${base}/api/views/${SLUG}`, { method: 'PUT' })).status, 200);

  const away = join(project.root, `${SLUG}.md.away`);
  await rename(join(project.root, FILE), away);
  await until('the post to go', async () => ((await fetch(`${base}/api/post/${SLUG}`)).status === 404 ? true : undefined));
  await rename(away, join(project.root, FILE));

  const json = async (path: string): Promise<any> => (await fetch(base + path)).json();
  const comments = await until('its comments to come back', async () => {
    const list = await json(`/api/comments/${SLUG}`);
    return Array.isArray(list) && list.length === 1 ? list : undefined;
  });
  assert.equal((comments[0] as { author: string }).author, 'kept-author');
  const post = await until('its record to show them', async () => {
    const record = await json(`/api/post/${SLUG}`);
    return record.comment_count === 1 && record.views === 3 ? record : undefined;
  });
  assert.deepEqual([post.comment_count, post.views], [1, 3]);
  assert.match(await (await fetch(`${base}/guide/${SLUG}/`)).text(), /A comment that must survive the move\./);
  await until('the site-wide counts to follow', async () => {
    const count = (await json('/api/comments/count')) as { total: number };
    const views = (await json('/api/views')) as Record<string, number>;
    return count.total === 1 && views[SLUG] === 3 ? true : undefined;
  });
  // And the count goes on from there.
  assert.deepEqual(await (await fetch(`${base}/api/views/${SLUG}`, { method: 'PUT' })).json(), { views: 4 });
});
