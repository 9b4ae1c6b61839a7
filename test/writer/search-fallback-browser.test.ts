/**
 * The search page where no Pagefind index is published (`searchIndex: false`): it asks
 * the writer's `GET /api/search`, whose snippets are plain text. Found by an acceptance
 * run: the page parsed them as HTML, so a snippet holding `Vec<String>` showed
 * "Return Vec" and lost the rest of its words.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NEEDS_CHROMIUM, serveInBrowser } from '../helpers/browser.ts';
import { postSource } from '../helpers/project.ts';

const files = {
  'content/posts/2025-06-01-rust-vec.md': postSource({ title: 'Rust collections', date: '2025-06-01' }, 'Return `Vec<String>` from functions that build strings; a < b holds for sorted keys.\n'),
};

test('search page on the writer\'s /api/search, in a real browser', { skip: NEEDS_CHROMIUM }, async (t) => {
  const { server, browser } = await serveInBrowser(t, { files, searchIndex: false });
  const page = await browser.newPage();
  await page.goto(`${server.url}/search/?q=functions`);
  await page.waitForFunction(() => !/^(Searching…)?$/.test(document.querySelector('[data-search-status]')?.textContent ?? ''), null, { timeout: 10_000 });
  assert.equal(await page.locator('[data-search-status]').textContent(), '1 result for “functions”');
  const snippet = (await page.locator('.search-results p').allTextContents()).join(' ');
  const answer = (await (await fetch(`${server.url}/api/search?q=functions`)).json()) as { results: { snippet: string }[] };
  // The page shows the writer's snippet as the text it is, every word of it.
  assert.equal(snippet, answer.results[0]?.snippet);
  assert.match(snippet, /from functions that build strings; a < b holds/);
  await page.close();

  // Found in an acceptance run: every search first asked for /search-shards.json and
  // /pagefind/pagefind.js, two 404s and two console errors, before the writer answered.
  await t.test('should ask the writer at once, with no request for an index the build did not write', async () => {
    const tab = await browser.newPage();
    const problems: string[] = [];
    tab.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
    tab.on('response', (r) => r.status() >= 400 && problems.push(`${r.status()}: ${new URL(r.url()).pathname}`));
    tab.on('requestfailed', (r) => problems.push(`failed: ${r.url()}`));
    await tab.goto(`${server.url}/search/?q=functions`);
    await tab.waitForFunction(() => /result/.test(document.querySelector('[data-search-status]')?.textContent ?? ''), null, { timeout: 10_000 });
    await tab.fill('#search-q', 'strings');
    await tab.press('#search-q', 'Enter');
    await tab.waitForFunction(() => /“strings”/.test(document.querySelector('[data-search-status]')?.textContent ?? ''), null, { timeout: 10_000 });
    assert.equal(await tab.locator('[data-search-status]').textContent(), '1 result for “strings”');
    assert.deepEqual(problems, []);
    await tab.close();
  });
});
