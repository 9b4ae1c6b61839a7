/**
 * What a reader sees, in Debian's chromium: an axe-core audit of every page type in
 * light and dark at 1280 and 390 px (one browser for the whole sweep), and the static
 * search box finding the Korean sample post through Pagefind under the site's CSP.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import type { Browser } from 'playwright-core';
import { makeProject } from '../helpers/project.ts';
import { startTestServer, commentDoc, postComment } from '../helpers/server.ts';
import { NEEDS_CHROMIUM, launchBrowser } from '../helpers/browser.ts';
import { COMMENT_RULES } from '@agora/generator';

const axeSource = (createRequire(import.meta.url)('axe-core') as { source: string }).source;
const KOREAN = '2025-10-02-한국어-형태소-분석기-비교';
const DEBATE = '2025-07-29-sqlite-in-production-yes-or-no';
const NGINX = '2025-09-14-nginx-reverse-proxy-websocket-timeouts';

interface Violation { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }

test('reader pages in a real browser', { skip: NEEDS_CHROMIUM }, async (t) => {
  // A small page size, so the sample site has paginated lists to audit.
  const project = await makeProject({ samplePosts: true, catalog: true, port: 0, searchIndex: true, files: { 'agora.config.json': JSON.stringify({ pageSize: 5 }) } });
  const server = await startTestServer(project);
  let browser: Browser | undefined;
  t.after(async () => {
    await browser?.close();
    await server.close();
    await project.remove();
  });
  for (const [fields, body] of [
    [{ type: 'debate', position: 'pro', author: 'pro-agent' }, 'SQLite with WAL and one writer handles this load; `litestream` covers backups.'],
    [{ type: 'debate', position: 'con', author: 'con-agent' }, 'Several app servers need a network database; SQLite on NFS is a trap.'],
    [{ type: 'supplement', author: 'helper' }, 'Set `PRAGMA busy_timeout = 5000;` so writers wait instead of failing.'],
  ] as const) assert.equal((await postComment(server.url, DEBATE, commentDoc(fields, body))).status, 201);
  // Valid, and as wide as one client can make it: a 100-character name and model, a long word, link text and inline code.
  // Also a heading and a task list (the outline and the checkboxes' names are audited below).
  const wide = `# Plan\n\nA ${'w'.repeat(300)} word, [${'l'.repeat(200)}](https://example.com/${'p'.repeat(100)}) and \`/etc/${'c'.repeat(150)}/override.conf\`.\n\n## Steps\n\n- [ ] open\n- [x] done\n`;
  assert.equal((await postComment(server.url, NGINX, commentDoc({ author: 'a'.repeat(100), model: 'm'.repeat(100) }, wide))).status, 201);
  // As deep as the limits let one nest (maxDepth 16): lists and quotes indented 40 and 19 px a level made a 690 px page at 320 px.
  const levels = COMMENT_RULES.maxDepth;
  const deep = `Nested lists:\n\n${Array.from({ length: levels }, (_, i) => `${' '.repeat(11 * i)}123456789. level ${i + 1}`).join('\n')}\n\nNested quotes:\n\n${'> '.repeat(levels)}innermost words\n`;
  assert.equal((await postComment(server.url, NGINX, commentDoc({ author: 'deep' }, deep))).status, 201);
  assert.equal((await postComment(server.url, DEBATE, commentDoc({ type: 'debate', position: 'con', author: 'deep' }, deep))).status, 201);
  // A letter carrying 4,800 combining marks (valid: they follow a visible letter) stacks them far above its line.
  const ZALGO = '2025-05-06-writing-llms-txt-for-your-site';
  assert.equal((await postComment(server.url, ZALGO, commentDoc({ author: 'stacker' }, `Stacked marks: Z${'\u0301\u0300\u0302\u0303\u0304\u0305\u0306\u0307\u0308\u0309\u030A\u030B\u030C\u030D\u030E\u030F'.repeat(300)} end`))).status, 201);
  await server.flushAggregates();
  browser = await launchBrowser();
  const korean = server.state.site.bySlug.get(KOREAN)!;
  const detail = new URL(server.state.site.catalog!.services[0]!.detail_url).pathname;

  await t.test('should find the Korean post for a Korean query with the static index', async () => {
    const page = await browser!.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    for (const q of ['형태소', '분석기 비교']) {
      await page.goto(`${server.url}/search/?q=${encodeURIComponent(q)}`);
      await page.waitForFunction(() => !/^(Searching…)?$/.test(document.querySelector('[data-search-status]')?.textContent ?? ''), null, { timeout: 10_000 });
      const links = await page.locator('.search-results a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
      assert.ok(links.some((href) => href !== null && decodeURIComponent(href).includes(KOREAN)), `"${q}" should find ${KOREAN}, found ${JSON.stringify(links)}; status: ${await page.locator('[data-search-status]').textContent()}; console: ${errors.join(' | ')}`);
    }
    await page.close();
  });

  await t.test('should find nothing for words in no post, and still find real words (the static index)', async () => {
    const page = await browser!.newPage();
    const search = async (q: string) => {
      await page.goto(`${server.url}/search/?q=${encodeURIComponent(q)}`);
      await page.waitForFunction(() => !/^(Searching…)?$/.test(document.querySelector('[data-search-status]')?.textContent ?? ''), null, { timeout: 10_000 });
      return { status: await page.locator('[data-search-status]').textContent(), links: await page.locator('.search-results a').count() };
    };
    // Pagefind falls back to the longest known prefix of an unknown word ("x" for "xylophone").
    for (const q of ['xylophone', 'qwertyuiopasdf', 'zzqxnotaword']) assert.deepEqual(await search(q), { status: `0 results for “${q}”`, links: 0 }, q);
    for (const q of ['nginx', 'websocket']) assert.ok((await search(q)).links > 0, q);
    // The metadata list (Date, Model, Author, Views) is not indexed: "views" once found every post by its "Views –".
    const views = await search('views');
    assert.ok(views.links < server.state.site.posts.length, `"views" found ${views.links} of ${server.state.site.posts.length} posts`);
    const excerpts = await page.locator('.search-results p').allTextContents();
    assert.ok(!excerpts.some((e) => /Views\s*–|Author\s*(AI agent|human)/.test(e)), excerpts.join(' | '));
    await page.close();
  });

  await t.test('should report no axe violations on any page type, light and dark, 1280 and 390 px wide', async () => {
    const paths = ['/', '/page/2/', '/reviews/', '/guide/', korean.url, server.state.site.bySlug.get(NGINX)!.url, `/debates/${DEBATE}/`, '/tags/', '/tags/nginx/', '/comments/', '/debates/', '/agencatalog/', detail, '/search/?q=nginx'];
    const found: string[] = [];
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const width of [1280, 390]) {
        const context = await browser!.newContext({ colorScheme, viewport: { width, height: 900 } });
        const page = await context.newPage();
        for (const path of paths) {
          const res = await page.goto(server.url + path);
          assert.equal(res?.status(), 200, path);
          if (path.startsWith('/search/')) await page.waitForFunction(() => !/^(Searching…)?$/.test(document.querySelector('[data-search-status]')?.textContent ?? ''));
          // Through the DevTools protocol, so the page's CSP (no inline script) stays on.
          await page.evaluate(axeSource);
          const violations = await page.evaluate(() => (window as unknown as { axe: { run(ctx: Document, o: object): Promise<{ violations: Violation[] }> } }).axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations));
          for (const v of violations) found.push(`${colorScheme} ${width}px ${path}: ${v.id} (${v.impact}) ${v.help} at ${v.nodes.slice(0, 3).map((n) => JSON.stringify(n.target)).join(', ')}`);
        }
        await context.close();
      }
    }
    assert.deepEqual(found, []);
  });

  await t.test('should fit every page in a 360 px phone screen, a comment made as wide as one can be included', async () => {
    const context = await browser!.newContext({ viewport: { width: 360, height: 800 } });
    const page = await context.newPage();
    const post = (slug: string) => server.state.site.bySlug.get(slug)!.url;
    const wider: string[] = [];
    for (const path of ['/', post(NGINX), post('2025-04-11-systemd-unit-hardening-checklist'), post('2025-05-20-docker-buildkit-cache-github-actions'), '/comments/', `/debates/${DEBATE}/`, '/agencatalog/', detail]) {
      assert.equal((await page.goto(server.url + path))?.status(), 200, path);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      if (width > 360) wider.push(`${path}: ${width} px`);
    }
    assert.deepEqual(wider, []);
    await context.close();
  });

  await t.test('should reflow at 320 px (WCAG 1.4.10) without a horizontal scroll, /debates/ with its sides included', async () => {
    // The debate sides were a grid of columns at least 18rem wide: 288 px in a 278 px column at 320 px.
    const context = await browser!.newContext({ viewport: { width: 320, height: 800 } });
    const page = await context.newPage();
    const wider: string[] = [];
    for (const path of ['/', '/debates/', `/debates/${DEBATE}/`, '/comments/', '/tags/', '/search/', server.state.site.bySlug.get(NGINX)!.url]) {
      assert.equal((await page.goto(server.url + path))?.status(), 200, path);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      if (width > 320) wider.push(`${path}: ${width} px`);
    }
    assert.deepEqual(wider, []);
    await context.close();
  });

  await t.test('should keep what a comment paints inside its card', async () => {
    const page = await browser!.newPage({ viewport: { width: 800, height: 900 } });
    await page.goto(server.url + server.state.site.bySlug.get(ZALGO)!.url);
    const card = page.locator('#comments .comment').first();
    await card.scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollBy(0, -300));
    const box = (await card.boundingBox())!;
    // The 300 px above the card look the same with the card hidden (CSSOM, allowed by the CSP): it paints nothing there.
    const clip = { x: 0, y: box.y - 300, width: 800, height: 299 };
    const shown = await page.screenshot({ clip });
    await card.evaluate((c) => { (c as HTMLElement).style.visibility = 'hidden'; });
    assert.ok(shown.equals(await page.screenshot({ clip })), 'the comment painted over the page above its card');
    await page.close();
  });

  await t.test('should link pages of a paginated list with rel=prev/next and a visible navigation', async () => {
    const page = await browser!.newPage();
    await page.goto(`${server.url}/page/2/`);
    assert.equal(await page.locator('link[rel=prev]').getAttribute('href'), '/');
    assert.equal(await page.locator('link[rel=next]').getAttribute('href'), '/page/3/');
    assert.equal(await page.locator('.pagination [aria-current=page]').textContent(), '2');
    assert.equal(await page.locator('.post-list > li').count(), 5);
    await page.close();
  });
});
