/**
 * `agora dev` started on content with errors says them (file:line:column, rule, fix),
 * keeps waiting, and starts as soon as an edit fixes them. It exited with code 1, so an
 * author had to run it again after every fix.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { freePort } from '../helpers/http.ts';
import { makeProject, postSource, type TestProject } from '../helpers/project.ts';
import { startDev } from '../helpers/dev-process.ts';
import { build } from '@agora/generator';
import { request } from 'node:http';

/** The first event of `/__agora/events`: its name and data. */
async function firstEvent(url: string): Promise<{ event: string; data: string }> {
  const controller = new AbortController();
  const res = await fetch(`${url}/__agora/events`, { signal: controller.signal });
  const reader = res.body!.getReader();
  let text = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
    const m = /event: (\S+)\ndata: (.*)\n\n/.exec(text);
    if (m) {
      controller.abort();
      return { event: m[1]!, data: m[2]! };
    }
  }
  throw new Error(`no event in ${text}`);
}

/** `agora dev` on a free port of `project`, once it says it waits for a fix; stopped (and the project removed) after the test. */
async function devWaitingForFix(t: TestContext, project: TestProject): Promise<{ dev: ReturnType<typeof startDev>; url: string }> {
  const port = await freePort();
  const dev = startDev(project, {}, port);
  t.after(async () => {
    await dev.stop();
    await project.remove();
  });
  await dev.until('the error and the wait', () => /Waiting for a fix/.test(dev.stderr()));
  return { dev, url: `http://127.0.0.1:${port}` };
}

test('agora dev: content with errors at the start waits for the fix, then starts', { timeout: 120_000 }, async (t) => {
  const FILE = 'content/posts/2025-05-01-broken.md';
  const project = await makeProject({ files: { [FILE]: postSource({ date: 'yesterday' }), 'content/posts/2025-05-02-fine.md': postSource({ title: 'Fine', date: '2025-05-02' }) } });
  const dev = startDev(project);
  t.after(async () => {
    await dev.stop();
    await project.remove();
  });
  await dev.until('the error and the wait', () => /Waiting for a fix/.test(dev.stderr()));
  assert.match(dev.stderr(), /content\/posts\/2025-05-01-broken\.md:3:1 error Unexpected date `yesterday`.*\(front-matter-date\)\n {2}fix: /);
  assert.equal(dev.child.exitCode, null, 'still running');
  // At once: an edit made while dev starts watching is not missed.
  await writeFile(join(project.root, FILE), postSource({ date: '2025-05-01' }));
  const url = await dev.url();
  assert.match(dev.stdout(), /\(site: 2 posts/);
  assert.equal(((await (await fetch(`${url}/api/health`)).json()) as { status: string }).status, 'ok');
});

test('agora dev: while the content has errors, its port shows them in the browser; the fix brings the site', { timeout: 120_000 }, async (t) => {
  const FILE = 'content/posts/2025-05-01-broken.md';
  const project = await makeProject({ files: { [FILE]: postSource({ date: 'yesterday' }) } });
  const { dev, url } = await devWaitingForFix(t, project);
  assert.match(dev.stderr(), new RegExp(`${url.replace(/[.]/g, '\\.')} shows them meanwhile`));
  // Not "connection refused": a page that loads the live-reload script, which shows the messages.
  const page = await fetch(`${url}/`, { headers: { accept: 'text/html' } });
  assert.equal(page.status, 404);
  const standIn = await page.text();
  assert.match(standIn, /<script src="\/__agora\/live-reload\.js"/);
  assert.match(standIn, /data-agora-stand-in>The site could not be built/, 'says why there is no page, not "no page here yet"');
  // No build has written dist/ yet: the stand-in still gets the site's stylesheet and icon (both 404 before).
  for (const [asset, type] of [['/assets/site.css', /^text\/css/], ['/assets/icon.svg', /^image\/svg\+xml/]] as const) {
    const res = await fetch(`${url}${asset}`);
    assert.equal(res.status, 200, asset);
    assert.match(res.headers.get('content-type') ?? '', type);
  }
  const broken = await firstEvent(url);
  assert.equal(broken.event, 'error-report');
  assert.match(broken.data, /2025-05-01-broken\.md:3:1 error Unexpected date `yesterday`/);
  await writeFile(join(project.root, FILE), postSource({ date: '2025-05-01' }));
  assert.equal(await dev.url(), url);
  assert.equal((await fetch(`${url}/`, { headers: { accept: 'text/html' } })).status, 200);
  // A page still open connects again and is told the site is fine: it reloads.
  assert.equal((await firstEvent(url)).event, 'ok');
});

/** A GET with the path sent as written (fetch would resolve `..` first). */
function rawGet(url: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/`, { path }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject).end();
  });
}

test('agora dev: while the content has errors, the last site is served whole (stylesheet, scripts, mirrors), not its pages alone', { timeout: 120_000 }, async (t) => {
  const FILE = 'content/posts/2025-05-01-post.md';
  const project = await makeProject({ files: { [FILE]: postSource({ date: '2025-05-01' }), 'secret.txt': 'not for the web' } });
  await build(project.config);
  await writeFile(join(project.root, FILE), postSource({ date: 'yesterday' }));
  const { url } = await devWaitingForFix(t, project);
  const page = await fetch(`${url}/`, { headers: { accept: 'text/html' } });
  assert.equal(page.status, 200);
  const html = await page.text();
  assert.match(html, /<script src="\/__agora\/live-reload\.js"/);
  const stylesheet = /<link rel="stylesheet" href="([^"]+)"/.exec(html)?.[1];
  assert.ok(stylesheet, 'the page links its stylesheet');
  const css = await fetch(`${url}${stylesheet}`);
  assert.equal(css.status, 200);
  assert.match(css.headers.get('content-type') ?? '', /^text\/css/);
  assert.ok((await css.text()).length > 100);
  const posts = await fetch(`${url}/api/posts`);
  assert.equal(posts.status, 200);
  assert.match(posts.headers.get('content-type') ?? '', /^application\/json/);
  assert.equal(((await posts.json()) as unknown[]).length, 1);
  const llms = await fetch(`${url}/llms.txt`);
  assert.equal(llms.status, 200);
  assert.match(llms.headers.get('content-type') ?? '', /^text\/plain/);
  assert.equal((await fetch(`${url}/assets/no-such-file.css`)).status, 404);
  // Nothing outside dist/: the project's own files are not served.
  assert.equal(await rawGet(url, '/../secret.txt'), 404);
  assert.equal(await rawGet(url, '/%2e%2e/secret.txt'), 404);
  assert.equal(await rawGet(url, '/..%2fsecret.txt'), 404);
});

test('agora dev: an edit saved as it says it serves (before its watcher is ready) is built', { timeout: 120_000 }, async (t) => {
  // The watcher started after "Agora is serving": a save in between was never seen, and
  // the site kept the old text, saying nothing, until the next edit.
  const file = 'content/posts/2025-05-01-early.md';
  const project = await makeProject({ files: { [file]: postSource({ title: 'Early' }) } });
  const dev = startDev(project);
  t.after(async () => {
    await dev.stop();
    await project.remove();
  });
  const url = await dev.url();
  await writeFile(join(project.root, file), postSource({ title: 'Early, edited at once' }));
  const deadline = Date.now() + 15_000;
  let record = '';
  while (Date.now() < deadline && !/edited at once/.test(record)) {
    await new Promise((r) => setTimeout(r, 100));
    record = await (await fetch(`${url}/api/post/2025-05-01-early`)).text();
  }
  assert.match(record, /Early, edited at once/, `the edit was built (stdout: ${dev.stdout()}; stderr: ${dev.stderr()})`);
});
