/**
 * The Pagefind index: streamed while a build emits every page, read from `dist/` when
 * the build kept pages as they were; both give the same index.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { build } from '@agora/generator';
import { writeSearchIndex } from '../../packages/generator/src/emit/search-index.ts';
import { makeProject, postSource } from '../helpers/project.ts';

/**
 * What an index holds: its page fragments (Pagefind names each by its content's hash)
 * and its page count. The word index files are left out: they number pages in the
 * order they were added, which differs between emitting and walking `dist/`.
 */
async function indexContents(distDir: string): Promise<{ fragments: string[]; pages: number }> {
  const fragments = (await readdir(join(distDir, 'pagefind', 'fragment'))).sort();
  const entry = JSON.parse(await readFile(join(distDir, 'pagefind', 'pagefind-entry.json'), 'utf8')) as { languages: Record<string, { page_count: number }> };
  return { fragments, pages: Object.values(entry.languages).reduce((n, l) => n + l.page_count, 0) };
}

/** The text of every page Pagefind indexed (its fragments are gzipped JSON). */
async function indexedText(distDir: string): Promise<string> {
  const dir = join(distDir, 'pagefind', 'fragment');
  const names = await readdir(dir);
  return (await Promise.all(names.map(async (n) => gunzipSync(await readFile(join(dir, n))).toString('utf8')))).join('\n');
}

test('search index', async (t) => {
  const project = await makeProject({ samplePosts: true, searchIndex: true, files: { 'content/posts/2025-06-01-lantern-fish.md': postSource({ title: 'Lantern fish' }, 'Bioluminescent zanderwort appears here.\n') } });
  t.after(() => project.remove());
  const { distDir } = project.config;

  await t.test('should stream every page to Pagefind in a cold build and write the same index as reading dist/', async () => {
    const { result } = await build(project.config);
    assert.equal(result.search?.source, 'streamed');
    const pages = (await readdir(distDir, { recursive: true })).filter((p) => p === 'index.html' || p.endsWith('/index.html'));
    assert.equal(result.search?.pages, pages.length);
    const streamed = await indexContents(distDir);
    assert.equal(streamed.pages, streamed.fragments.length);
    assert.ok(streamed.pages >= 10, 'every post indexed');
    assert.match(await indexedText(distDir), /zanderwort/);
    const read = await writeSearchIndex(distDir);
    assert.equal(read.source, 'dist');
    assert.equal(read.pages, pages.length);
    assert.deepEqual(await indexContents(distDir), streamed);
  });

  await t.test('should read dist/ when a build keeps pages, and index the edited page', async () => {
    await project.write('content/posts/2025-06-01-lantern-fish.md', postSource({ title: 'Lantern fish' }, 'Bioluminescent quillowisp appears here.\n'));
    const { result } = await build(project.config);
    assert.equal(result.search?.source, 'dist');
    const text = await indexedText(distDir);
    assert.match(text, /quillowisp/);
    assert.doesNotMatch(text, /zanderwort/);
  });

  await t.test('should not touch the index when no page changed', async () => {
    const before = (await stat(join(distDir, 'pagefind', 'pagefind-entry.json'))).mtimeMs;
    const { result } = await build(project.config);
    assert.equal(result.search, undefined);
    assert.equal((await stat(join(distDir, 'pagefind', 'pagefind-entry.json'))).mtimeMs, before);
  });
});
