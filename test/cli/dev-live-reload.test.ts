/**
 * Live reload in `agora dev` (issue 21, item 2), in Chromium under the site's CSP: an
 * open page shows an edit by itself; a post that fails validation shows its positioned
 * message in the page (file:line:column, rule, fix) until it is fixed; nothing of it is
 * in `dist/`. `bin/agora dev` runs as a child process, as an author runs it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { once } from 'node:events';
import { NEEDS_CHROMIUM, launchBrowser } from '../helpers/browser.ts';
import { makeProject, postSource, REPO_ROOT } from '../helpers/project.ts';

declare global {
  interface Window {
    agoraCspViolation: (violation: string) => void;
  }
}

const FILE = 'content/posts/2025-05-01-live.md';

test('agora dev: live reload', { skip: NEEDS_CHROMIUM }, async (t) => {
  const project = await makeProject({ files: { [FILE]: postSource({ title: 'Live before' }), 'content/posts/2025-05-02-other.md': postSource({ title: 'Other', date: '2025-05-02' }) } });
  const child = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'agora'), 'dev', '-H', '127.0.0.1', '-p', '0'], {
    cwd: project.root,
    env: { ...process.env, AGORA_SEARCH_INDEX: '0', LOG_LEVEL: 'silent', AGORA_BASE_URL: 'https://agora.example' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const browser = await launchBrowser();
  t.after(async () => {
    await browser.close();
    child.kill('SIGTERM');
    if (child.exitCode === null) await once(child, 'exit');
    await project.remove();
  });
  const deadline = Date.now() + 60_000;
  while (!/Agora is serving (\S+)/.test(stdout) && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 50));
  const url = /Agora is serving (\S+)/.exec(stdout)?.[1];
  assert.ok(url, `dev started (stderr: ${stderr})`);

  const page = await browser.newPage();
  // Collected here, across every reload of the page (a reload started a fresh list, and
  // reading it from the page raced the reloads).
  const cspViolations: string[] = [];
  // View counts the pages sent: none in `agora dev` (every reload counted one before).
  const viewPuts: string[] = [];
  page.on('request', (request) => void (request.method() === 'PUT' && viewPuts.push(request.url())));
  await page.exposeBinding('agoraCspViolation', (_source, violation: string) => void cspViolations.push(violation));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => window.agoraCspViolation(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const pageUrl = `${url}/guide/2025-05-01-live/`;

  await t.test('should add the live-reload script to served pages only, never to dist/', async () => {
    const res = await page.goto(pageUrl);
    assert.match(res?.headers()['content-security-policy'] ?? '', /script-src 'self'/);
    assert.equal(await page.locator('script[src="/__agora/live-reload.js"]').count(), 1);
    const built = await readFile(join(project.config.distDir, 'guide/2025-05-01-live/index.html'), 'utf8');
    assert.doesNotMatch(built, /__agora/);
    assert.match(built, /<script src="\/assets\/views\.js"/, 'dist/ keeps the view counter');
    assert.equal(await page.locator('script[src="/assets/views.js"]').count(), 0, 'agora dev leaves it out');
    await page.waitForFunction(() => document.documentElement.dataset.agoraDev === 'listening');
  });

  await t.test('should show an edit without a manual reload', async () => {
    await writeFile(join(project.root, FILE), postSource({ title: 'Live after' }));
    await page.waitForFunction(() => document.querySelector('h1')?.textContent?.includes('Live after'), undefined, { timeout: 15_000 });
  });

  await t.test('should show a positioned message in the page until the post is fixed', async () => {
    await writeFile(join(project.root, FILE), postSource({ title: 'Live after', date: '2025-02-30' }));
    const box = page.locator('#agora-dev-error');
    await box.waitFor({ timeout: 15_000 });
    const text = await box.textContent();
    assert.match(text ?? '', /content\/posts\/2025-05-01-live\.md:3:1 error Unexpected date `2025-02-30`.*\(front-matter-date\)/);
    assert.match(text ?? '', /fix: /);
    // Still there on a page opened (or reloaded) while the post is broken.
    await page.reload();
    await box.waitFor({ timeout: 15_000 });
    await writeFile(join(project.root, FILE), postSource({ title: 'Live fixed' }));
    await page.waitForFunction(() => document.querySelector('h1')?.textContent?.includes('Live fixed') && !document.getElementById('agora-dev-error'), undefined, { timeout: 15_000 });
  });

  await t.test('should show a deleted post as a 404 page that comes back with the post', async () => {
    const source = await readFile(join(project.root, FILE), 'utf8');
    await rm(join(project.root, FILE));
    await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Not found', undefined, { timeout: 15_000 });
    assert.equal((await page.request.get(pageUrl, { headers: { accept: 'text/html' } })).status(), 404);
    assert.equal(await page.locator('meta[name="viewport"]').count(), 1);
    assert.equal(await page.locator('link[rel="icon"]').count(), 1, 'no /favicon.ico 404 beside it');
    await writeFile(join(project.root, FILE), source);
    await page.waitForFunction(() => document.querySelector('h1')?.textContent?.includes('Live fixed'), undefined, { timeout: 15_000 });
  });

  await t.test('should reload more open pages than the browser keeps connections to one host (six), all through one stream', async () => {
    // A stream per page held one of Chromium's six HTTP/1.1 connections each: six pages open, none reloaded.
    const context = await browser.newContext();
    t.after(() => context.close());
    const pages = await Promise.all(Array.from({ length: 8 }, () => context.newPage()));
    for (const p of pages) {
      await p.goto(pageUrl);
      await p.waitForFunction(() => document.documentElement.dataset.agoraDev === 'listening', undefined, { timeout: 15_000 });
    }
    await writeFile(join(project.root, FILE), postSource({ title: 'Eight tabs' }));
    for (const p of pages) await p.waitForFunction(() => document.querySelector('h1')?.textContent?.includes('Eight tabs'), undefined, { timeout: 15_000 });
  });

  await t.test('should reload the open page when a comment rewrites it, as after an edit', async () => {
    const res = await fetch(`${url}/api/comments/2025-05-01-live`, { method: 'POST', headers: { 'Content-Type': 'text/plain', 'X-API-Key': 'agora-public-comment-key' }, body: '---\nauthor: live-commenter\nmodel: m\ntype: supplement\n---\nA comment while the page is open.\n' });
    assert.equal(res.status, 201);
    await page.waitForFunction(() => document.body.textContent?.includes('live-commenter'), undefined, { timeout: 15_000 });
  });

  await t.test('should run under the CSP without a violation', async () => {
    assert.deepEqual(cspViolations, []);
    assert.deepEqual(viewPuts, [], 'no reload counted a view');
  });
});

test('agora serve: no live reload', async (t) => {
  await t.test('should not serve the script', async () => {
    const { startTestServer } = await import('../helpers/server.ts');
    const project = await makeProject({ files: { [FILE]: postSource() } });
    const server = await startTestServer(project);
    t.after(async () => {
      await server.close();
      await project.remove();
    });
    assert.equal((await fetch(`${server.url}/__agora/live-reload.js`)).status, 404);
    const html = await (await fetch(`${server.url}/guide/2025-05-01-live/`, { headers: { accept: 'text/html' } })).text();
    assert.doesNotMatch(html, /__agora/);
  });
});

test('agora dev: a file copied beside a post (an image saved, replaced or removed) reloads the post\'s open page', async (t) => {
  // The copy in dist/ changed, but only .html paths reloaded a page: the page kept
  // showing the old image (or a removed one) until a manual reload.
  const { LiveReload } = await import('@agora/generator');
  const { createServer } = await import('node:http');
  const live = new LiveReload('/nonexistent-dist');
  const server = createServer((req, res) => live.handler(req, res, () => res.writeHead(404).end()));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const controller = new AbortController();
  t.after(() => {
    controller.abort();
    live.close();
    server.close();
  });
  const res = await fetch(`http://127.0.0.1:${(server.address() as { port: number }).port}/__agora/events`, { signal: controller.signal });
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  const reloadEvent = async () => {
    for (;;) {
      const m = /event: reload\ndata: (.*)\n\n/.exec(text);
      if (m) {
        text = text.slice(m.index + m[0].length);
        return JSON.parse(m[1]!) as { pages: string[] };
      }
      const { value, done } = await reader.read();
      if (done) throw new Error(`no reload event in ${text}`);
      text += value;
    }
  };
  live.built(['guide/2025-05-01-x/diagram.png', 'guide/2025-05-01-x/img/talk.pdf', 'knowhow/2025-05-02-y/a.webp', 'assets/favicon.png', 'tags/a/index.html']);
  assert.deepEqual((await reloadEvent()).pages.sort(), ['guide/2025-05-01-x/index.html', 'knowhow/2025-05-02-y/index.html', 'tags/a/index.html']);
});
