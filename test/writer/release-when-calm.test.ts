/**
 * A writer at rest after a burst of comments holds what one just started holds: once
 * comments have been calm for `AGORA_RELEASE_AFTER_MS` (or the writer has, since its
 * start), the build state lets go of the posts' body renderings, their comments' text
 * and the kept lists (`Publisher`, `SiteBuild.shrink`); while comments keep coming it
 * keeps them; and a comment after the spell is published with every earlier one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { NO_RATE_LIMITS } from '../helpers/project.ts';
import { commentDoc, postComment, serveProject } from '../helpers/server.ts';

// Long enough that a slow machine's comment (stored, rebuilt, answered) never spans it:
// comments come RELEASE_MS / 6 apart, and one POST on a loaded CI machine can take a second.
const RELEASE_MS = 3000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('the writer lets go of kept comment data once comments are calm, and publishes the next comment whole', async (t) => {
  const { project, server } = await serveProject(t, { samplePosts: true, files: { 'agora.config.json': NO_RATE_LIMITS } }, { AGORA_RELEASE_AFTER_MS: String(RELEASE_MS), AGORA_COMMENT_TEXT_POSTS: '500' });
  const slugs = (await readdir(join(project.root, 'content', 'posts'))).map((f) => f.replace(/\.md$/, '')).slice(0, 3);
  const post = async (slug: string, n: number) => {
    const res = await postComment(server.url, slug, commentDoc({ author: `agent-${n}` }, `Comment number ${n} with enough characters to pass.`));
    assert.equal(res.status, 201, await res.text());
  };

  /** Wait until the writer has let go of its renderings (or the spell plus 5 s passed). */
  const released = async () => {
    const deadline = Date.now() + RELEASE_MS + 5000;
    while (server.state.held.renderings > 0 && Date.now() < deadline) await sleep(50);
    return server.state.held;
  };

  let n = 0;
  await t.test('should let go of what the start-up build kept, once calm', async () => {
    // A new site: the start-up build rendered every post, and kept them.
    assert.ok(server.build.rendered >= slugs.length, `${server.build.rendered} rendered at the start`);
    assert.equal((await released()).renderings, 0);
  });

  await t.test('should keep them while comments keep coming', async () => {
    for (const slug of slugs) await post(slug, n++);
    assert.equal(server.state.held.renderings, slugs.length, 'each rebuilt post page brought its rendering back');
    // Spread over more than the spell, never a spell apart.
    let fewest = Infinity;
    const until = Date.now() + RELEASE_MS * 2.5;
    while (Date.now() < until) {
      await post(slugs[n % slugs.length]!, n++);
      await sleep(RELEASE_MS / 6);
      fewest = Math.min(fewest, server.state.held.renderings);
    }
    assert.equal(fewest, slugs.length, 'nothing let go while comments came');
    const held = server.state.held;
    assert.equal(held.textPosts, slugs.length);
    assert.ok(held.keptListBytes > 0);
  });

  await t.test('should let go of them after a calm spell', async () => {
    const held = await released();
    assert.deepEqual({ renderings: held.renderings, textPosts: held.textPosts, keptListBytes: held.keptListBytes }, { renderings: 0, textPosts: 0, keptListBytes: 0 });
  });

  await t.test('should publish the next comment with every earlier one', async () => {
    await post(slugs[0]!, n++);
    const page = await (await fetch(`${server.url}/api/comments/${slugs[0]}`)).json() as { author: string }[];
    const expected = Array.from({ length: n }, (_, i) => i).filter((i) => i % slugs.length === 0 || i === n - 1).map((i) => `agent-${i}`);
    assert.deepEqual(page.map((c) => c.author), [...new Set(expected)]);
    const html = await (await fetch(`${server.url}${(await (await fetch(`${server.url}/api/post/${slugs[0]}`)).json() as { url: string }).url.replace(/^https?:\/\/[^/]+/, '')}`)).text();
    for (const author of new Set(expected)) assert.ok(html.includes(author), `${author} on the page`);
  });
});
