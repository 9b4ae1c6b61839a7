/**
 * The static search page over an index split into shards (issue 21, item 3), in
 * Chromium under the site's CSP: it merges every shard, and finds the words of an edit
 * within 10 s while the index follows in the background; `/api/health` says how stale
 * the index is.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { NEEDS_CHROMIUM, serveInBrowser } from '../helpers/browser.ts';
import { postSource } from '../helpers/project.ts';
import { eventually } from '../helpers/store.ts';

const name = (i: number) => `2025-06-${String(i + 1).padStart(2, '0')}-p${i}`;
const files = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`content/posts/${name(i)}.md`, postSource({ title: `Post ${i}`, date: name(i).slice(0, 10) }, `Word${i}marker opens post ${i}.\n`)]));

interface Health {
  search_index: { state: string; pending_pages: number; stale_since: string | null; stale_ms: number; last_indexed_at: string | null };
}

test('search over index shards in a real browser', { skip: NEEDS_CHROMIUM }, async (t) => {
  const { project, server, browser } = await serveInBrowser(t, { files, searchIndex: true, searchShardPages: 4 });
  // The writer indexes in the background after it starts: wait for every shard, so the
  // first subtest merges shards instead of passing on the /api/search fallback.
  await eventually(async () => {
    const health = (await (await fetch(`${server.url}/api/health`)).json()) as Health;
    assert.equal(health.search_index.state, 'current');
  }, 60_000);
  const page = await browser.newPage();
  const search = async (q: string): Promise<string[]> => {
    await page.goto(`${server.url}/search/?q=${encodeURIComponent(q)}`);
    await page.waitForFunction(() => !/^(Searching…)?$/.test(document.querySelector('[data-search-status]')?.textContent ?? ''), null, { timeout: 10_000 });
    // Paths: Pagefind links are relative; the writer's /api/search (the page's fallback while a shard is swapped) links absolutely.
    const hrefs = await page.locator('.search-results a').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
    return hrefs.map((href) => new URL(href, server.url).pathname);
  };

  await t.test('should find a post of every shard', async () => {
    for (let i = 0; i < 12; i++) assert.deepEqual(await search(`Word${i}marker`), [`/guide/${name(i)}/`], `post ${i}`);
  });

  await t.test('should report the index current in /api/health', async () => {
    const health = (await (await fetch(`${server.url}/api/health`)).json()) as Health;
    assert.equal(health.search_index.state, 'current');
    assert.equal(health.search_index.pending_pages, 0);
    assert.equal(health.search_index.stale_since, null);
  });

  await t.test('should find an edit\'s words within 10 s, reporting the index stale meanwhile', async () => {
    const file = join(project.root, `content/posts/${name(7)}.md`);
    await project.write(`content/posts/${name(7)}.md`, postSource({ title: 'Post 7', date: name(7).slice(0, 10) }, 'Quasarlettuce opens post 7 now.\n'));
    const edited = performance.now();
    // As `agora dev`'s watcher does.
    await server.state.updateSources([file]);
    const stale = (await (await fetch(`${server.url}/api/health`)).json()) as Health;
    assert.ok(['stale', 'indexing'].includes(stale.search_index.state), stale.search_index.state);
    assert.ok(stale.search_index.pending_pages >= 1);
    assert.ok(stale.search_index.stale_since !== null);
    let found: string[] = [];
    while (performance.now() - edited < 10_000 && found.length === 0) found = await search('Quasarlettuce');
    assert.deepEqual(found, [`/guide/${name(7)}/`], 'found within 10 s');
    await server.state.searchIndexIdle();
    assert.equal(((await (await fetch(`${server.url}/api/health`)).json()) as Health).search_index.state, 'current');
  });
});
