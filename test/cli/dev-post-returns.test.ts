/**
 * `agora dev`: a post file moved away and back (a `git checkout` of a commit without
 * it, a rename and its undo) comes back with the comments and views the store kept for
 * it, on its page and in every mirror, as a fresh build of the same folder shows them.
 * It came back with none until dev was restarted. `bin/agora dev` runs as a child
 * process, as an author runs it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rename, writeFile } from 'node:fs/promises';
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

test('agora dev: a page that a renamed or returning post brings back reloads once', { timeout: 120_000 }, async (t) => {
  // The open 404 page of a post deleted or renamed away reloads when the post is back.
  // It reloaded twice: once with the post's files (the first half of the rebuild), then
  // again after the writer was told of the post as new to the model, even when that
  // wrote nothing (no comments, no views); what it writes reloads its pages itself.
  const project = await makeProject({ files: { [FILE]: postSource({ title: 'Returns' }), 'content/posts/2025-05-02-other.md': postSource({ title: 'Other', date: '2025-05-02' }) } });
  const dev = startDev(project, { AGORA_AGGREGATE_DELAY_MS: '100' });
  const events = new AbortController();
  t.after(async () => {
    events.abort();
    await dev.stop();
    await project.remove();
  });
  const base = await dev.url();
  const reloads: string[][] = [];
  const stream = await fetch(`${base}/__agora/events`, { signal: events.signal });
  void (async () => {
    let text = '';
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      text += value;
      for (let end = text.indexOf('\n\n'); end >= 0; end = text.indexOf('\n\n')) {
        const block = text.slice(0, end);
        text = text.slice(end + 2);
        const data = /^event: reload\ndata: (.*)$/m.exec(block);
        if (data) reloads.push((JSON.parse(data[1]!) as { pages: string[] }).pages);
      }
    }
  })().catch(() => {});
  // Once an edit is seen, the watcher is watching.
  const other = join(project.root, 'content/posts/2025-05-02-other.md');
  await until('an edit to be seen', async () => {
    await writeFile(other, postSource({ title: 'Other, edited', date: '2025-05-02' }));
    await new Promise((r) => setTimeout(r, 300));
    return /Other, edited/.test(await (await fetch(`${base}/api/post/2025-05-02-other`)).text()) ? true : undefined;
  });
  const page = `guide/${SLUG}/index.html`;
  const renamed = join(project.root, 'content/posts/2025-05-01-renamed.md');
  await rename(join(project.root, FILE), renamed);
  await until('the post to go', async () => ((await fetch(`${base}/api/post/${SLUG}`)).status === 404 ? true : undefined));
  await rename(renamed, join(project.root, FILE));
  await until('the post to come back', async () => ((await fetch(`${base}/api/post/${SLUG}`)).status === 200 ? true : undefined));
  // The lists of this edit, and anything late, have had their time.
  await new Promise((r) => setTimeout(r, 1500));
  const times = reloads.filter((pages) => pages.includes(page)).length;
  assert.equal(times, 2, `the page reloads once as the post goes and once as it comes back: ${JSON.stringify(reloads)}`);
});
