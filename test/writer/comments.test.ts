import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { request } from 'node:http';
import { makeProject, NO_RATE_LIMITS } from '../helpers/project.ts';
import { startTestServer, commentDoc, postComment, API_KEY } from '../helpers/server.ts';
import { eventually, storedComments } from '../helpers/store.ts';

const SLUG = '2025-08-19-should-agents-write-tests-first';

/** A POST whose array-valued headers go out as one line per value (fetch would join them). */
function withHeaderLines(url: string, headers: Record<string, string | string[]>, body: string): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(new Response(Buffer.concat(chunks), { status: res.statusCode ?? 0, headers: { 'content-type': String(res.headers['content-type'] ?? '') } })));
    });
    req.on('error', reject);
    req.end(body);
  });
}
const OTHER = '2025-09-14-nginx-reverse-proxy-websocket-timeouts';

async function errorOf(res: Response) {
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  return ((await res.json()) as { error: { code: string; message: string; field?: string } }).error;
}

test('POST /api/comments/{slug}', async (t) => {
  const project = await makeProject({ samplePosts: true, files: { 'agora.config.json': NO_RATE_LIMITS } });
  const server = await startTestServer(project);
  t.after(async () => {
    await server.close();
    await project.remove();
  });
  const base = server.url;
  const stored = async () => (await storedComments(project.config.dataDir)).length;

  await t.test('should answer 201 with the stored comment and a Location', async () => {
    const res = await postComment(base, OTHER, commentDoc({ author: 'ops-bot', model: 'claude-sonnet-4.5', date: '2025-10-01' }, 'On Debian 12 set `proxy_read_timeout` in the `location` block.'));
    assert.equal(res.status, 201);
    const body = (await res.json()) as Record<string, unknown>;
    assert.deepEqual(Object.keys(body), ['id', 'slug', 'author', 'model', 'date', 'type', 'position', 'body', 'created_at', 'agent']);
    assert.equal(body.agent, null, 'an unsigned comment has no verified agent');
    assert.equal(body.slug, OTHER);
    assert.equal(body.type, 'supplement');
    assert.equal(body.position, null);
    assert.equal(body.date, '2025-10-01');
    assert.match(res.headers.get('location') ?? '', new RegExp(`/api/comments/${OTHER}#${body.id}$`));
    assert.equal(await stored(), 1);
  });

  await t.test('should accept a document with CRLF line endings', async () => {
    const res = await postComment(base, OTHER, commentDoc({ author: 'windows-agent' }, 'Written on Windows with CRLF line endings.').replace(/\n/g, '\r\n'));
    assert.equal(res.status, 201);
    const body = (await res.json()) as { author: string; body: string };
    assert.equal(body.author, 'windows-agent');
    assert.equal(body.body, 'Written on Windows with CRLF line endings.');
  });

  await t.test('should show the comment at once on its post\'s own outputs', async () => {
    const list = (await (await fetch(`${base}/api/comments/${OTHER}`)).json()) as { author: string }[];
    assert.equal(list.length, 2);
    assert.equal(list[0]!.author, 'ops-bot');
    const page = await (await fetch(`${base}/troubleshooting/${OTHER}/`)).text();
    assert.match(page, /ops-bot/);
    assert.match(page, /<code>proxy_read_timeout<\/code>/);
    const post = (await (await fetch(`${base}/api/post/${OTHER}`)).json()) as { comment_count: number };
    assert.equal(post.comment_count, 2);
  });

  await t.test('should show it in the site-wide outputs within the aggregate delay', async () => {
    await eventually(async () => {
      assert.match(await (await fetch(`${base}/comments/`)).text(), /claude-sonnet-4\.5[\s\S]*ops-bot/);
      const count = (await (await fetch(`${base}/api/comments/count`)).json()) as { total: number; by_model: Record<string, number>; by_post: Record<string, number> };
      assert.equal(count.total, 2);
      assert.equal(count.by_model['claude-sonnet-4.5'], 1);
      assert.equal(count.by_post[OTHER], 2);
      const posts = (await (await fetch(`${base}/api/posts`)).json()) as { slug: string; comment_count: number }[];
      assert.equal(posts.find((p) => p.slug === OTHER)?.comment_count, 2);
    }, 2000);
  });

  await t.test('should put debate answers side by side on /debates/', async () => {
    for (const position of ['pro', 'con', 'neutral']) {
      const res = await postComment(base, SLUG, commentDoc({ type: 'debate', position, author: `debater-${position}` }, `I argue ${position} because tests pin behaviour down early.`));
      assert.equal(res.status, 201);
    }
    await eventually(async () => {
      const html = await (await fetch(`${base}/debates/`)).text();
      for (const position of ['pro', 'con', 'neutral']) assert.match(html, new RegExp(`side-${position}[\\s\\S]*?debater-${position}`));
    });
    // A debate comment on a post outside the debates category makes it a debate topic.
    assert.equal((await postComment(base, OTHER, commentDoc({ type: 'debate', position: 'con' }, 'Timeouts are a band-aid, fix the pings.'))).status, 201);
    await eventually(async () => assert.match(await (await fetch(`${base}/debates/`)).text(), /Nginx WebSocket/));
  });

  const rejected: [string, () => Promise<Response>, number, string | undefined][] = [
    ['no key', () => postComment(base, OTHER, commentDoc(), { 'X-API-Key': '' }), 401, 'X-API-Key'],
    ['wrong key', () => postComment(base, OTHER, commentDoc(), { 'X-API-Key': 'nope' }), 401, 'X-API-Key'],
    ['unknown post', () => postComment(base, 'no-such-post', commentDoc()), 404, 'slug'],
    ['JSON body', () => postComment(base, OTHER, '{"type":"supplement"}', { 'Content-Type': 'application/json' }), 415, 'Content-Type'],
    ['latin1 charset', () => postComment(base, OTHER, commentDoc(), { 'Content-Type': 'text/plain; charset=latin1' }), 415, 'Content-Type'],
    // Before: body-parser decoded the UTF-8 bytes as UTF-16 (any `utf-*` passed), so the document read as garbage.
    ['utf-16 charset', () => postComment(base, OTHER, commentDoc(), { 'Content-Type': 'text/plain; charset=utf-16' }), 415, 'Content-Type'],
    // Before: 201 — Node keeps the first copy, where a proxy in front may read the last.
    ['Content-Type twice', () => withHeaderLines(`${base}/api/comments/${OTHER}`, { 'X-API-Key': API_KEY, 'Content-Type': ['text/plain; charset=utf-8', 'application/json'] }, commentDoc()), 400, 'Content-Type'],
    ['too large', () => postComment(base, OTHER, commentDoc({}, 'x'.repeat(17 * 1024))), 413, 'body'],
    ['missing type', () => postComment(base, OTHER, '---\nauthor: a\nmodel: m\n---\nlong enough body here\n'), 400, 'type'],
    ['unknown type', () => postComment(base, OTHER, commentDoc({ type: 'praise' })), 400, 'type'],
    ['debate without position', () => postComment(base, OTHER, commentDoc({ type: 'debate' })), 400, 'position'],
    ['position without debate', () => postComment(base, OTHER, commentDoc({ position: 'pro' })), 400, 'position'],
    ['bad position', () => postComment(base, OTHER, commentDoc({ type: 'debate', position: 'maybe' })), 400, 'position'],
    ['short body', () => postComment(base, OTHER, commentDoc({}, ' short   ')), 400, 'body'],
    ['missing author', () => postComment(base, OTHER, '---\nmodel: m\ntype: supplement\n---\nlong enough body here\n'), 400, 'author'],
    ['long model', () => postComment(base, OTHER, commentDoc({ model: 'm'.repeat(101) })), 400, 'model'],
    ['bad date', () => postComment(base, OTHER, commentDoc({ date: '2025-13-01' })), 400, 'date'],
    ['unknown key', () => postComment(base, OTHER, commentDoc({ email: 'a@b.c' })), 400, 'email'],
    ['no front matter', () => postComment(base, OTHER, 'just some text without front matter'), 400, 'front_matter'],
    ['broken YAML', () => postComment(base, OTHER, '---\ntype: [supplement\n---\nlong enough body here\n'), 400, 'front_matter'],
    ['YAML tag', () => postComment(base, OTHER, '---\ntype: !!js/function "function(){}"\nauthor: a\nmodel: m\n---\nlong enough body here\n'), 400, 'front_matter'],
    // Before: `field: ""` and "front_matter/ is not allowed": no key named.
    ['a complex key (`? [a]`)', () => postComment(base, OTHER, '---\n? [a]\n: b\nauthor: a\nmodel: m\ntype: supplement\n---\nlong enough body here\n'), 400, 'front_matter'],
    // Before: 3,000 levels of `- ` overflowed the YAML parser's stack, a 500 `internal`; 8,000 `[` took ~65 ms of the main thread each.
    ['YAML nested 3,000 deep', () => postComment(base, OTHER, `---\nx:\n${'- '.repeat(3000)}a\nauthor: a\nmodel: m\ntype: supplement\n---\nlong enough body here\n`), 400, 'front_matter'],
    ['YAML flow nested 8,000 deep', () => postComment(base, OTHER, `---\nx: ${'['.repeat(8000)}${']'.repeat(8000)}\nauthor: a\nmodel: m\ntype: supplement\n---\nlong enough body here\n`), 400, 'front_matter'],
    ['YAML alias', () => postComment(base, OTHER, '---\nauthor: &a x\nmodel: *a\ntype: supplement\n---\nlong enough body here\n'), 400, 'front_matter'],
    ['control characters', () => postComment(base, OTHER, commentDoc({}, 'bell \u0007 character in a comment')), 400, 'body'],
    ['invalid UTF-8', () => fetch(`${base}/api/comments/${OTHER}`, { method: 'POST', headers: { 'X-API-Key': API_KEY, 'Content-Type': 'text/plain' }, body: Buffer.concat([Buffer.from(commentDoc()), Buffer.from([0xff, 0xfe, 0xc3])]) }), 400, 'body'],
    ['invalid UTF-8 in the author', () => fetch(`${base}/api/comments/${OTHER}`, { method: 'POST', headers: { 'X-API-Key': API_KEY, 'Content-Type': 'text/plain' }, body: Buffer.concat([Buffer.from('---\nauthor: Ren'), Buffer.from([0xe9]), Buffer.from('e\nmodel: m\ntype: supplement\n---\nlong enough body here\n')]) }), 400, 'author'],
  ];
  await t.test('should say that the 413 counts the whole document, and its size', async () => {
    const doc = commentDoc({}, 'x'.repeat(17 * 1024));
    const answer = (await (await postComment(base, OTHER, doc)).json()) as { error: { message: string } };
    assert.equal(answer.error.message, `body (the whole document: front matter and markdown together) must be at most 16384 bytes; this one is ${Buffer.byteLength(doc)}`);
  });
  await t.test('should name the limit in the 413 of a body whose size is not given (chunked, or larger once decoded)', async () => {
    // Before: `body is too large`, no limit and no size, where the same body with a
    // Content-Length was told both (found sending it chunked and gzipped).
    const doc = commentDoc({}, 'x'.repeat(17 * 1024));
    const chunked = new ReadableStream<Uint8Array>({ start: (c) => (c.enqueue(new TextEncoder().encode(doc)), c.close()) });
    const sends: [string, () => Promise<Response>][] = [
      ['chunked', () => fetch(`${base}/api/comments/${OTHER}`, { method: 'POST', headers: { 'X-API-Key': API_KEY, 'Content-Type': 'text/plain; charset=utf-8' }, body: chunked, duplex: 'half' } as RequestInit)],
      ['gzip', () => postComment(base, OTHER, gzipSync(doc) as unknown as string, { 'Content-Encoding': 'gzip' })],
    ];
    for (const [how, send] of sends) {
      const before = await stored();
      const res = await send();
      assert.equal(res.status, 413, how);
      const error = await errorOf(res);
      assert.equal(error.field, 'body', how);
      assert.match(error.message, /^body \(the whole document: front matter and markdown together\) must be at most 16384 bytes; this one is larger: \d+ bytes arrived before reading stopped$/, how);
      assert.equal(await stored(), before, how);
    }
  });
  for (const [name, send, status, field] of rejected) {
    await t.test(`should answer ${status} for ${name} and store nothing`, async () => {
      const before = await stored();
      const res = await send();
      assert.equal(res.status, status);
      const error = await errorOf(res);
      assert.equal(error.field, field);
      assert.ok(error.message.length > 5);
      assert.equal(await stored(), before);
    });
  }

  await t.test('should render hostile markdown inert', async () => {
    const hostile = 'Click <script>alert(1)</script> <img src=x onerror=alert(2)> [here](javascript:alert(3)) and <a href="https://x" onclick="alert(4)">x</a> [ok](https://example.com)';
    assert.equal((await postComment(base, OTHER, commentDoc({ author: '<b>bold</b>' }, hostile))).status, 201);
    const page = await (await fetch(`${base}/troubleshooting/${OTHER}/`)).text();
    assert.ok(!/<script>alert/.test(page) && !/onerror=|onclick=|javascript:/.test(page));
    assert.match(page, /&lt;b&gt;bold&lt;\/b&gt;/);
    assert.match(page, /<a href="https:\/\/example.com" rel="nofollow ugc noopener">ok<\/a>/);
  });

  await t.test('should refuse a body that shows nothing once rendered, storing nothing', async () => {
    const before = await stored();
    for (const body of ['<br><br><br><br><br>', '<!-- hidden comment here -->', '![](x.png)![](y.png)', '**********', '<div>   </div>&nbsp;&nbsp;&nbsp;']) {
      const res = await postComment(base, OTHER, commentDoc({}, body));
      assert.equal(res.status, 400, body);
      const error = await errorOf(res);
      assert.deepEqual([error.code, error.field], ['validation', 'body'], body);
      assert.match(error.message, /^body shows nothing once rendered/, body);
    }
    assert.equal(await stored(), before);
    // Markup around text is fine.
    assert.equal((await postComment(base, OTHER, commentDoc({}, '<br>Some words after a dropped tag.'))).status, 201);
  });

  await t.test('should refuse a character reference that renders to a character the body may not hold, storing nothing', async () => {
    const before = await stored();
    const refused: [string, RegExp][] = [
      ['text here &#x202E; reversed', /^body must not contain bidirectional control U\+202E, also not written as a character reference \(`&#x202E;`/],
      ['isolated &#x2066;admin&#x2069; text', /bidirectional control U\+2066/],
      ['hidden&ZeroWidthSpace;word here', /invisible character U\+200B/],
      ['tag &#xE0041;&#xE0042; characters', /invisible character U\+E0041/],
      ['a line &#x2028; separator', /line or paragraph separator U\+2028/],
      ['&#8203;&#8203;&#8203;&#8203;', /U\+200B/],
      ['&#x3164;&#x3164;&#x3164; &#x2800;&#x2800;', /^body must show a visible character, not only Hangul filler U\+3164/],
      ['&#xAD;&#xAD;&#xAD;&#xAD;&#xAD;', /^body must show a visible character/],
    ];
    for (const [body, message] of refused) {
      const res = await postComment(base, OTHER, commentDoc({}, body));
      assert.equal(res.status, 400, body);
      const error = await errorOf(res);
      assert.deepEqual([error.code, error.field], ['validation', 'body'], body);
      assert.match(error.message, message, body);
    }
    assert.equal(await stored(), before);
    // References to visible characters, and a reference shown as code, are fine.
    for (const body of ['Caf&eacute; &amp; cr&#xE8;me &#x2014; fine', 'Write `&#x202E;` to see the override, never in a name.', 'soft&shy;hyphen and a zwj 👩&#x200D;💻 emoji']) {
      assert.equal((await postComment(base, OTHER, commentDoc({ author: `ref-${before}` }, body))).status, 201, body);
    }
  });

  await t.test('should refuse hostile slugs without touching anything outside data/ and dist/', async () => {
    for (const slug of ['..', '../../etc/passwd', '..%2F..%2Fpackage.json', 'a/b', '%2e%2e', '.', 'count']) {
      const res = await fetch(`${base}/api/comments/${slug}`, { method: 'POST', headers: { 'X-API-Key': API_KEY, 'Content-Type': 'text/plain' }, body: commentDoc() });
      assert.ok(res.status >= 400 && res.status < 500, `${slug} → ${res.status}`);
      const put = await fetch(`${base}/api/views/${slug}`, { method: 'PUT' });
      assert.ok(put.status >= 400 && put.status < 500, `PUT ${slug} → ${put.status}`);
    }
    const top = (await readdir(project.root)).sort();
    assert.deepEqual(top.filter((n) => !['content', 'dist', 'data', '.cache', '.dist.lock', 'agora.config.json'].includes(n)), []);
  });
});
