/**
 * The parse cache (`.cache/parsed.json`): a warm build takes each post's parse from it,
 * with the same posts and messages as parsing; an edit, a moved file, a changed rule
 * (code fingerprint) or a damaged cache file parses again.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build, ContentError } from '@agora/generator';
import { makeProject, postSource } from '../helpers/project.ts';
import { ParseCache } from '../../packages/generator/src/parse-cache.ts';
import { parsePost } from '../../packages/generator/src/validate/post.ts';
import { readContent } from '../../packages/generator/src/content.ts';

const WARNED = postSource({ title: 'Warned post' }, '# A second h1 is a style warning\n\nBody text.\n');

test('a cached parse equals parsing, for every sample post', async (t) => {
  const project = await makeProject({ samplePosts: true });
  t.after(() => project.remove());
  const fresh = await readContent(project.config);
  const cache = await ParseCache.open(project.config.cacheDir);
  await readContent(project.config, { cache });
  await cache.save();
  const reopened = await ParseCache.open(project.config.cacheDir);
  let parses = 0;
  const cached = await readContent(project.config, { cache: reopened });
  for (const [path, { source, result }] of fresh.parsed) {
    const again = reopened.get(source, (s) => (parses++, parsePost(s)));
    assert.deepEqual(again, result, path);
    assert.deepEqual(cached.parsed.get(path)?.result, result, path);
  }
  assert.equal(parses, 0, 'every post came from the cache');
  assert.ok(fresh.parsed.size >= 14);
});

test('warm builds read the cache and still see edits, moves and errors', async (t) => {
  const project = await makeProject({ files: { 'content/posts/warned.md': WARNED, 'content/posts/plain.md': postSource({ title: 'Plain post' }) } });
  t.after(() => project.remove());
  const cold = await build(project.config);
  const cacheFile = join(project.config.cacheDir, 'parsed.json');
  const stored = JSON.parse(await readFile(cacheFile, 'utf8')) as { entries: Record<string, unknown> };
  assert.equal(Object.keys(stored.entries).length, 2);

  await t.test('should report the same warnings from the cache', async () => {
    const warm = await build(project.config);
    assert.ok(cold.result.messages.length > 0, 'the fixture has a style warning');
    assert.deepEqual(warm.result.messages, cold.result.messages);
    assert.equal(warm.result.written.length, 0);
  });

  await t.test('should parse an edited post again', async () => {
    await project.write('content/posts/plain.md', postSource({ title: 'Plain post, edited' }));
    await build(project.config);
    const record = JSON.parse(await readFile(join(project.config.distDir, 'api', 'post', 'plain'), 'utf8')) as { title: string };
    assert.equal(record.title, 'Plain post, edited');
  });

  await t.test('should parse a moved file again (the slug comes from its name)', async () => {
    await rename(join(project.root, 'content/posts/plain.md'), join(project.root, 'content/posts/moved.md'));
    const { result } = await build(project.config);
    assert.ok(result.written.some((p) => p.startsWith('api/post/moved')), result.written.join(', '));
  });

  await t.test('should report an error every time, not only when first parsed', async () => {
    await project.write('content/posts/broken.md', '---\ntitle: Broken\n---\nNo date.\n');
    for (let i = 0; i < 2; i++) {
      await assert.rejects(build(project.config), (error: unknown) => error instanceof ContentError && error.messages.some((m) => m.file.endsWith('broken.md') && m.severity === 'error'));
    }
    await project.write('content/posts/broken.md', postSource({ title: 'Fixed' }));
    await build(project.config);
  });

  await t.test('should ignore a cache of other code, or one that is not JSON', async () => {
    const file = JSON.parse(await readFile(cacheFile, 'utf8')) as { fingerprint: string; entries: Record<string, { post: { title: string } | null }> };
    for (const entry of Object.values(file.entries)) if (entry.post) entry.post.title = 'From a stale cache';
    await writeFile(cacheFile, JSON.stringify({ ...file, fingerprint: 'other-code' }));
    const { state } = await build(project.config);
    assert.ok(state.site.posts.every((p) => p.title !== 'From a stale cache'));
    await writeFile(cacheFile, '{ not json');
    const again = await build(project.config);
    assert.equal(again.state.site.posts.length, 3);
    JSON.parse(await readFile(cacheFile, 'utf8'));
  });
});
