/**
 * Issue 19: a 2xx is a promise. A comment is judged once, before the answer, by counts
 * of its text (never by the clock after answering); once answered 2xx it is shown until
 * a moderator says otherwise: after a restart, after a renderer-version change, with
 * offline edits published. One client's heavy comments never delay another's. The
 * writer listens before its start-up build. A real server on loopback, the real store.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { pino } from 'pino';
import { COMMENT_RENDERER_VERSION, commentHtmlKey, type Comment } from '@agora/generator';
import { startServer, type RunningServer } from '@agora/writer';
import { makeProject, NO_RATE_LIMITS, REPO_ROOT, type TestProject } from '../helpers/project.ts';
import { commentDoc, postComment } from '../helpers/server.ts';
import { storedComments } from '../helpers/store.ts';
import { WORST_CASES } from '../../bench/comment-limits.ts';

const SLUG = '2025-08-19-should-agents-write-tests-first';
const OTHER = '2025-09-14-nginx-reverse-proxy-websocket-timeouts';

interface LogLine {
  msg: string;
  comments_rendered?: number;
  [key: string]: unknown;
}

/** Start the writer with its log captured. */
async function start(project: TestProject, logs: LogLine[] = [], onListening?: (url: string) => void): Promise<RunningServer> {
  return startServer({
    config: project.config,
    env: { AGORA_VIEWS_FLUSH_MS: '100', AGORA_AGGREGATE_DELAY_MS: '100' },
    logger: pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line) as LogLine) }),
    handleSignals: false,
    ...(onListening ? { onListening } : {}),
  });
}

const mirror = async (base: string, slug: string) => (await (await fetch(`${base}/api/comments/${slug}`)).json()) as Comment[];
const pageOf = async (base: string, slug: string) => {
  const post = (await (await fetch(`${base}/api/post/${slug}`)).json()) as { url: string };
  return (await fetch(`${base}${post.url}`)).text();
};

/** Rewrite every stored comment file of the embedded store. */
async function editStore(project: TestProject, edit: (c: Comment) => Comment): Promise<void> {
  const dir = join(project.config.dataDir, 'comments');
  for (const name of await readdir(dir)) {
    if (!name.endsWith('.json')) continue;
    const file = JSON.parse(await readFile(join(dir, name), 'utf8')) as { slug: string; comments: Comment[] };
    await writeFile(join(dir, name), JSON.stringify({ ...file, comments: file.comments.map(edit) }));
  }
}

test('a 2xx is a promise', async (t) => {
  const project = await makeProject({ samplePosts: true, files: { 'agora.config.json': NO_RATE_LIMITS } });
  t.after(() => project.remove());
  let server = await start(project);
  t.after(() => server.close());
  const answered: { id: string; slug: string }[] = [];

  await t.test('should refuse the issue\'s heavy bodies up front with 400 naming the limit, the value and the maximum, and store nothing', async () => {
    const cases: [string, string, number, number][] = [
      ['a\n=\n'.repeat(3000), 'maxHeadings', 3000, 100],
      ['- a\n'.repeat(3500), 'maxListItems', 3500, 200],
      ['[a](b) '.repeat(600), 'maxBrackets', 600, 500],
      ['a\n'.repeat(450), 'maxBlockLines', 450, 400],
      // The sweep's table: 370 rows of 20 columns rendered in 0.85 s (within every other limit).
      [`|${'h|'.repeat(20)}\n|${'-|'.repeat(20)}\n` + `|${'a|'.repeat(20)}\n`.repeat(370), 'maxTableCells', 21 * 372, 2000],
      // A sweep's body: 8,100 `<?` (each scans the rest of the body for `?>`) rendered in 1.8 s after a 201.
      [`x ${'<?'.repeat(8100)}`, 'maxMarkupOpeners', 8100, 100],
      // A sweep's body: 499 `[`, 15,000 tabs, 499 `]` (each `]` copies and normalizes the text back to its `[`) rendered in 0.7 s after a 201.
      [`${'['.repeat(499)}${'\t'.repeat(15_000)}${']'.repeat(499)}`, 'maxLabelChars', 499 * 60_000 + 499 * 498, 1_000_000],
    ];
    const openapi = (await (await fetch(`${server.url}/openapi.json`)).json()) as { paths: Record<string, { post: { responses: Record<string, { content: Record<string, { examples: Record<string, { value: { error: unknown } }> }> }> } }> };
    const documented = openapi.paths['/api/comments/{slug}']!.post.responses['400']!.content['application/json']!.examples['too_complex']!.value.error;
    for (const [body, limit, value, max] of cases) {
      const res = await postComment(server.url, OTHER, commentDoc({}, body));
      assert.equal(res.status, 400, limit);
      const { error } = (await res.json()) as { error: { code: string; field: string; limit: string; value: number; max: number; message: string } };
      // The document's example is the writer's own answer to 3,000 headings.
      if (limit === 'maxHeadings') assert.deepEqual(error, documented);
      assert.deepEqual({ code: error.code, field: error.field, limit: error.limit, value: error.value, max: error.max }, { code: 'comment_too_complex', field: 'body', limit, value, max });
      assert.match(error.message, new RegExp(`^body has ${value} .*; at most ${max}: `));
    }
    assert.equal((await storedComments(project.config.dataDir)).length, 0);
  });

  await t.test('should answer 201 for the heaviest bodies the limits accept, each stored with its HTML', async () => {
    for (const [name, body] of Object.entries(WORST_CASES)) {
      const res = await postComment(server.url, SLUG, commentDoc({ author: `heavy-${name.replace(/\W+/g, '-')}` }, body));
      assert.equal(res.status, 201, `${name}: ${await res.clone().text()}`);
      const record = (await res.json()) as Comment;
      assert.equal(record.html, undefined, 'the HTML is stored, not part of the public record');
      answered.push({ id: record.id, slug: SLUG });
    }
    const ordinary = await postComment(server.url, OTHER, commentDoc({ author: 'ordinary' }, 'An ordinary comment, quickly shown.'));
    assert.equal(ordinary.status, 201);
    answered.push({ id: ((await ordinary.json()) as Comment).id, slug: OTHER });
    const stored = await storedComments(project.config.dataDir);
    assert.equal(stored.length, answered.length);
    for (const c of stored) assert.equal(c.html_key, commentHtmlKey(c.body), `${c.id} carries HTML of its body`);
  });

  const assertAllShown = async (why: string) => {
    for (const slug of [SLUG, OTHER]) {
      const ids = (await mirror(server.url, slug)).map((c) => c.id);
      for (const a of answered.filter((x) => x.slug === slug)) assert.ok(ids.includes(a.id), `${why}: ${a.id} in /api/comments/${slug}`);
    }
    const page = await pageOf(server.url, SLUG);
    for (const a of answered.filter((x) => x.slug === SLUG)) assert.ok(page.includes(`id="comment-${a.id}"`) || page.includes(a.id), `${why}: ${a.id} on the page`);
    assert.ok((await storedComments(project.config.dataDir)).every((c) => !c.hidden), `${why}: nothing hidden`);
    const health = (await (await fetch(`${server.url}/api/health`)).json()) as { status: string };
    assert.equal(health.status, 'ok', why);
  };

  await t.test('should show every answered comment, and still after a restart that renders none of them again', async () => {
    await assertAllShown('before the restart');
    await server.close();
    const logs: LogLine[] = [];
    server = await start(project, logs);
    await assertAllShown('after the restart');
    const built = logs.find((l) => l.msg === 'site built');
    assert.equal(built?.comments_rendered, 0, 'no stored comment rendered again at start');
  });

  await t.test('should keep showing every comment after a renderer-version change, then re-render them in the background', async () => {
    await server.close();
    // As if stored by an older renderer: other HTML under another version.
    await editStore(project, (c) => ({ ...c, html: `<p>OLD-RENDERER ${c.id}</p>`, html_key: c.html_key!.replace(COMMENT_RENDERER_VERSION, 'comment-0') }));
    const logs: LogLine[] = [];
    server = await start(project, logs);
    await assertAllShown('after the renderer-version change');
    assert.equal(logs.find((l) => l.msg === 'site built')?.comments_rendered, 0, 'the old HTML is shown at once, not rendered first');
    // What is stored is what the page shows: the old renderer's HTML until the new one's is stored.
    assert.match(await pageOf(server.url, SLUG), /OLD-RENDERER/);
    await server.renderingsSettled();
    const stored = await storedComments(project.config.dataDir);
    for (const c of stored) assert.equal(c.html_key, commentHtmlKey(c.body), `${c.id} re-rendered by the current renderer`);
    assert.doesNotMatch(await pageOf(server.url, SLUG), /OLD-RENDERER/);
    await assertAllShown('after the background re-render');
  });

  await t.test('should re-render a comment hidden through a renderer-version change once a moderator unhides it', async () => {
    await server.close();
    const target = answered.find((a) => a.slug === SLUG)!;
    await editStore(project, (c) => ({ ...c, ...(c.id === target.id ? { hidden: true } : {}), html: `<p>OLD-RENDERER ${c.id}</p>`, html_key: c.html_key!.replace(COMMENT_RENDERER_VERSION, 'comment-0') }));
    const body = (await storedComments(project.config.dataDir)).find((c) => c.id === target.id)!.body;
    server = await start(project);
    await server.renderingsSettled();
    assert.doesNotMatch(await pageOf(server.url, SLUG), /OLD-RENDERER/, 'the shown comments are re-rendered');
    await promisify(execFile)(process.execPath, [join(REPO_ROOT, 'bin', 'agora'), '--root', project.root, 'comments', 'unhide', target.id]);
    const deadline = Date.now() + 10_000;
    while (!(await mirror(server.url, SLUG)).some((c) => c.id === target.id) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    while ((await storedComments(project.config.dataDir)).find((c) => c.id === target.id)?.html_key !== commentHtmlKey(body) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    await server.renderingsSettled();
    // Before: shown with the old renderer's HTML until the next restart.
    assert.equal((await storedComments(project.config.dataDir)).find((c) => c.id === target.id)?.html_key, commentHtmlKey(body), 'its new rendering is stored');
    while ((await pageOf(server.url, SLUG)).includes('OLD-RENDERER') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.doesNotMatch(await pageOf(server.url, SLUG), /OLD-RENDERER/, 'and shown');
    await assertAllShown('after the unhide');
  });

  await t.test('should publish a comment edited in data/ while the writer was stopped', async () => {
    await server.close();
    const target = answered.find((a) => a.slug === OTHER)!;
    await editStore(project, (c) => (c.id === target.id ? { ...c, body: 'Edited offline by the operator.' } : c));
    const logs: LogLine[] = [];
    server = await start(project, logs);
    const shown = (await mirror(server.url, OTHER)).find((c) => c.id === target.id);
    assert.equal(shown?.body, 'Edited offline by the operator.');
    assert.match(await pageOf(server.url, OTHER), /Edited offline by the operator\./);
    assert.equal(logs.find((l) => l.msg === 'site built')?.comments_rendered, 1, 'only the edited comment is rendered');
    await server.renderingsSettled();
    const stored = (await storedComments(project.config.dataDir)).find((c) => c.id === target.id);
    assert.equal(stored?.html_key, commentHtmlKey('Edited offline by the operator.'), 'its new rendering is stored');
  });

  await t.test('should keep the old HTML where the new renderer shows nothing, and show an offline edit that renders to nothing as escaped text', async () => {
    await server.close();
    const [upgraded, edited, overLimits] = answered.filter((a) => a.slug === SLUG).slice(0, 3);
    // Stored by an older renderer, and over today's work limits (edited in the store, or older than a limit).
    const heavy = '# h\n'.repeat(300);
    const image = '![architecture diagram of the replica setup](https://example.com/a.png)';
    const oldHtml = '<p><img src="https://example.com/a.png" alt="architecture diagram of the replica setup"></p>';
    await editStore(project, (c) => {
      // As if stored by an older renderer that showed images: the current one drops them.
      if (c.id === upgraded!.id) return { ...c, body: image, html: oldHtml, html_key: commentHtmlKey(image).replace(COMMENT_RENDERER_VERSION, 'comment-0') };
      if (c.id === edited!.id) return { ...c, body: '<div>raw only</div>' };
      if (c.id === overLimits!.id) return { ...c, body: heavy, html: '<p>OLD-KEPT-OVER-LIMITS</p>', html_key: commentHtmlKey(heavy).replace(COMMENT_RENDERER_VERSION, 'comment-0') };
      return c;
    });
    server = await start(project);
    await server.renderingsSettled();
    const page = await pageOf(server.url, SLUG);
    assert.ok(page.includes('alt="architecture diagram of the replica setup"'), 'the old rendering is still shown');
    const stored = (await storedComments(project.config.dataDir)).find((c) => c.id === upgraded!.id);
    assert.equal(stored?.html, oldHtml, 'and still stored');
    // Before: the background re-render rendered it whole (3,000 headings in the sweep's case) and stored that.
    assert.equal((await storedComments(project.config.dataDir)).find((c) => c.id === overLimits!.id)?.html, '<p>OLD-KEPT-OVER-LIMITS</p>', 'a body over the work limits keeps its old HTML');
    assert.ok(page.includes('OLD-KEPT-OVER-LIMITS'));
    const card = page.slice(page.indexOf(`id="comment-${edited!.id}"`), page.indexOf(`id="comment-${edited!.id}"`) + 600);
    assert.match(card, /class="comment-plain">&lt;div&gt;raw only&lt;\/div&gt;/, 'the edited body as escaped text, not an empty card');
    const health = (await (await fetch(`${server.url}/api/health`)).json()) as { comments_as_text?: { id: string }[] };
    assert.ok(JSON.stringify(health).includes(edited!.id), `health names it: ${JSON.stringify(health)}`);
    await assertAllShown('after both');
  });

  await t.test('should listen before the start-up build: health says starting, the existing pages are served, a comment waits and gets 201', async () => {
    await server.close();
    const early: Promise<{ health: string; page: number; comment: number }>[] = [];
    server = await start(project, [], (url) => {
      early.push((async () => {
        const [health, page, comment] = await Promise.all([
          fetch(`${url}/api/health`).then(async (r) => ((await r.json()) as { status: string }).status),
          fetch(`${url}/`).then((r) => r.status),
          postComment(url, OTHER, commentDoc({ author: 'during-start' }, 'Sent while the writer was starting.')).then((r) => r.status),
        ]);
        return { health, page, comment };
      })());
    });
    const seen = await early[0]!;
    assert.deepEqual(seen, { health: 'starting', page: 200, comment: 201 });
    assert.ok((await mirror(server.url, OTHER)).some((c) => c.author === 'during-start'));
  });
});

test('one client never slows another, under CPU load', async (t) => {
  // Every client is told apart by X-Forwarded-For (trust proxy), as behind a load balancer.
  const config = { ...(JSON.parse(NO_RATE_LIMITS) as { limits: Record<string, unknown> }) };
  config.limits.trustProxy = true;
  const project = await makeProject({ samplePosts: true, files: { 'agora.config.json': JSON.stringify(config) } });
  const server = await start(project);
  // Two busy loops: the machine's cores are taken by someone else.
  const burners: ChildProcess[] = [0, 1].map(() => spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
  t.after(async () => {
    for (const b of burners) b.kill('SIGKILL');
    await server.close();
    await project.remove();
  });
  const heaviest = Object.values(WORST_CASES);
  const finished: { who: string; at: number; status: number }[] = [];
  const send = async (who: string, slug: string, body: string) => {
    const res = await postComment(server.url, slug, commentDoc({ author: who }, body), { 'X-Forwarded-For': who === 'heavy' ? '203.0.113.1' : `198.51.100.${10 + Number(who.slice('other-'.length))}` });
    finished.push({ who, at: performance.now(), status: res.status });
    await res.arrayBuffer();
  };
  const started = performance.now();
  // One client sends ten of the heaviest accepted comments at once (its whole per-minute budget by default)...
  const heavy = Array.from({ length: 10 }, (_, i) => send('heavy', SLUG, heaviest[i % heaviest.length]!));
  await new Promise((r) => setTimeout(r, 20));
  // ...and four other clients send one ordinary comment each.
  const others = [1, 2, 3, 4].map((i) => send(`other-${i}`, OTHER, `An ordinary comment from client ${i}.`));
  await Promise.all([...heavy, ...others]);

  await t.test('should answer every comment 201 (stored and on its page)', () => {
    assert.deepEqual(finished.map((f) => f.status), finished.map(() => 201));
  });

  await t.test('should answer the other clients while the heavy client is still in its queue', () => {
    const heavyDone = finished.filter((f) => f.who === 'heavy').map((f) => f.at).sort((a, b) => a - b);
    const slowestOther = Math.max(...finished.filter((f) => f.who !== 'heavy').map((f) => f.at));
    const ms = (at: number) => Math.round(at - started);
    t.diagnostic(`others answered by ${ms(slowestOther)} ms; the heavy client's answers at ${heavyDone.map(ms).join(', ')} ms`);
    // Fair turns: each other client waits for the renders already running, not for the
    // heavy client's ten. In first-come order they would come after most of them.
    assert.ok(slowestOther < heavyDone[4]!, `others done at ${ms(slowestOther)} ms, before the heavy client's fifth answer (${ms(heavyDone[4]!)} ms)`);
  });
});
