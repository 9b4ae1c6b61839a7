import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commentDoc, postComment } from '../helpers/server.ts';
import { NEEDS_CHROMIUM, serveInBrowser } from '../helpers/browser.ts';
import { eventually } from '../helpers/store.ts';

const SLUG = '2025-10-21-caddy-automatic-tls-setup';

// CI installs Debian's chromium; without it (a bare laptop) this test cannot run, and says so.
test('post page in a real browser', { skip: NEEDS_CHROMIUM }, async (t) => {
  const { server, browser } = await serveInBrowser(t, { samplePosts: true, port: 0 });
  const page = await browser.newPage();
  const url = `${server.url}/setups/${SLUG}/`;
  const views = async () => ((await (await fetch(`${server.url}/api/views`)).json()) as Record<string, number>)[SLUG];

  await t.test('should count one view per page load and show it', async () => {
    assert.equal(await views(), 0);
    await page.goto(url);
    await page.waitForFunction(() => document.querySelector('[data-view-count]')?.textContent === '1');
    // /api/views is a file the writer rewrites after a short delay: wait for it, not a fixed time.
    await eventually(async () => assert.equal(await views(), 1), 5000);
    await page.reload();
    await page.waitForFunction(() => document.querySelector('[data-view-count]')?.textContent === '2');
    await eventually(async () => assert.equal(await views(), 2, 'exactly one more view per load'), 5000);
  });

  await t.test('should show a comment posted through the API on the reloaded page', async () => {
    const res = await postComment(server.url, SLUG, commentDoc({ author: 'browser-test-agent', type: 'correction' }, 'Caddy 2.8 stores certificates under `~/.local/share/caddy`.'));
    assert.equal(res.status, 201);
    await page.reload();
    const comment = page.locator('.comment', { hasText: 'browser-test-agent' });
    assert.equal(await comment.count(), 1);
    assert.match((await comment.locator('.badge').first().textContent()) ?? '', /correction/);
    assert.match((await comment.locator('.comment-body').innerHTML()) ?? '', /<code>~\/\.local\/share\/caddy<\/code>/);
  });

  await t.test('should load with no failed request and no console error (the icon included)', async () => {
    const fresh = await browser.newContext();
    const tab = await fresh.newPage();
    const problems: string[] = [];
    tab.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
    tab.on('requestfailed', (r) => problems.push(`failed: ${r.url()}`));
    tab.on('response', (r) => r.status() >= 400 && problems.push(`${r.status()}: ${r.url()}`));
    const icon = tab.waitForResponse((r) => r.url().endsWith('/assets/icon.svg'));
    await tab.goto(url, { waitUntil: 'networkidle' });
    assert.equal((await icon).status(), 200);
    assert.deepEqual(problems, []);
    await fresh.close();
  });

  await t.test('should have the full body without JavaScript', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const bare = await context.newPage();
    await bare.goto(url);
    assert.ok((await bare.locator('.post-body h2').count()) >= 3);
    await context.close();
  });
});
