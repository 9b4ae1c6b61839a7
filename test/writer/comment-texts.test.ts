/**
 * The writer keeps comment text in memory for the posts it used last only
 * (`AGORA_COMMENT_TEXT_POSTS`; `build/comment-texts.ts`): every other comment keeps its
 * fields, and its text is read back from the store when something shows it. What it
 * publishes must be exactly what a writer holding every comment's text publishes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { makeProject, postSource, NO_RATE_LIMITS } from '../helpers/project.ts';
import { startTestServer, commentDoc, postComment, API_KEY } from '../helpers/server.ts';
import { isTextStripped } from '../../packages/generator/src/model/comment-identity.ts';

const SLUGS = ['2025-05-01-first', '2025-05-02-second', '2025-05-03-third', '2025-05-04-fourth'];
const body = (slug: string, n: number) => `Comment ${n} on ${slug}: **bold** and \`code\`, with [a link](https://example.com/${n}).`;

/** The files that show a post's comments, and the site-wide ones. */
const shownFiles = (slug: string) => [`guide/${slug}/index.html`, `api/comments/${slug}`, `api/post/${slug}`, `guide/${slug}/comments.atom`, `guide/${slug}/comments.json`];
const SITE_FILES = ['comments/index.html', 'comments/feed.atom', 'comments/feed.json', 'api/comments/count'];

test('a writer keeping one post\'s comment text publishes what a writer keeping all of it does', async (t) => {
  const files = Object.fromEntries(SLUGS.map((slug, i) => [`content/posts/${slug}.md`, postSource({ title: `Post ${i}`, date: slug.slice(0, 10) })]));
  const project = await makeProject({ files: { 'agora.config.json': NO_RATE_LIMITS, ...files } });
  t.after(() => project.remove());
  let server = await startTestServer(project, { AGORA_COMMENT_TEXT_POSTS: '1' });
  t.after(() => server.close());

  for (const n of [1, 2]) {
    for (const slug of SLUGS) {
      const res = await postComment(server.url, slug, commentDoc({ author: `agent-${n}` }, body(slug, n)));
      assert.equal(res.status, 201, await res.text());
    }
  }
  await server.flushAggregates();
  /** A post whose comments hold no text in memory now (which one depends on what the last flush showed last). */
  const droppedPost = async () => {
    // Nothing under way that holds every post's text (a site-wide flush shows all four).
    await server.flushAggregates();
    const slug = SLUGS.find((s) => server.state.site.comments.get(s)!.every(isTextStripped));
    assert.ok(slug, 'some post\'s comments hold no text');
    return slug;
  };

  await t.test('should hold the text of one post only', () => {
    const comments = [...server.state.site.comments.values()].flat();
    assert.equal(comments.length, 8);
    assert.equal(comments.filter(isTextStripped).length, 6, 'the comments of 3 of the 4 posts hold no text in memory');
    assert.equal(server.state.commentTextPosts, 1);
  });

  await t.test('should publish every earlier comment of a post whose text was dropped, with a new one', async () => {
    const slug = await droppedPost();
    const res = await postComment(server.url, slug, commentDoc({ author: 'agent-3' }, body(slug, 3)));
    assert.equal(res.status, 201, await res.text());
    const listed = JSON.parse(await readFile(join(project.config.distDir, 'api', 'comments', slug), 'utf8')) as { body: string; author: string }[];
    assert.deepEqual(listed.map((c) => c.body), [1, 2, 3].map((n) => body(slug, n)));
    const page = await readFile(join(project.config.distDir, 'guide', slug, 'index.html'), 'utf8');
    for (const n of [1, 2, 3]) assert.ok(page.includes(`Comment ${n} on ${slug}: <strong>bold</strong>`), `the page shows comment ${n}`);
  });

  await t.test('should answer MCP with the text of comments it does not hold', async () => {
    const client = new Client({ name: 'comment-texts-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    t.after(() => client.close());
    const slug = await droppedPost();
    const post = (await client.callTool({ name: 'get_post', arguments: { slug } })).structuredContent as { comments: { body: string }[] };
    assert.deepEqual(post.comments.map((c) => c.body).slice(0, 2), [body(slug, 1), body(slug, 2)]);
    const newest = (await client.callTool({ name: 'list_comments', arguments: { limit: 9 } })).structuredContent as { comments: { body: string; slug: string }[] };
    assert.equal(newest.comments.length, 9);
    for (const c of newest.comments) assert.match(c.body, new RegExp(`^Comment \\d on ${c.slug}: `));
    assert.ok(!(await client.callTool({ name: 'post_comment', arguments: { slug, document: commentDoc({}, 'Short but valid body.'), api_key: API_KEY } })).isError);
  });

  await t.test('should take the store\'s list of a post when a comment whose text it dropped is gone from the store', async () => {
    const slug = await droppedPost();
    const gone = server.state.site.comments.get(slug)![0]!;
    // Deleted through the writer's own store, which announces nothing (as if a moderator's notice were late).
    await server.store.comments.change(gone.id, { action: 'delete' });
    const res = await postComment(server.url, slug, commentDoc({ author: 'agent-4' }, body(slug, 4)));
    assert.equal(res.status, 201, await res.text());
    const listed = JSON.parse(await readFile(join(project.config.distDir, 'api', 'comments', slug), 'utf8')) as { id: string; body: string }[];
    assert.ok(!listed.some((c) => c.id === gone.id), 'the deleted comment is gone from the mirror');
    assert.equal(listed.at(-1)?.body, body(slug, 4));
  });

  await t.test('should write the same files as a writer holding every comment\'s text', async () => {
    await server.flushAggregates();
    const paths = [...SLUGS.flatMap(shownFiles), ...SITE_FILES];
    const dropped = new Map(await Promise.all(paths.map(async (p) => [p, await readFile(join(project.config.distDir, p), 'utf8')] as const)));
    await server.close();
    await Promise.all([rm(project.config.distDir, { recursive: true, force: true }), rm(project.config.cacheDir, { recursive: true, force: true })]);
    server = await startTestServer(project, { AGORA_COMMENT_TEXT_POSTS: '0' });
    assert.ok(![...server.state.site.comments.values()].flat().some(isTextStripped), 'this writer holds every comment\'s text');
    await server.flushAggregates();
    for (const p of paths) assert.equal(dropped.get(p), await readFile(join(project.config.distDir, p), 'utf8'), p);
  });
});
