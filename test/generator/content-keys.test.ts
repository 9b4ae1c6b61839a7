/**
 * HTML lists and the site-wide documents (llms.txt, _headers, sitemap, home…) are keyed
 * by content alone (`model/job-keys.ts`), so comments and views taken since the last
 * full build do not make them again. If one of them did show a comment or a view count,
 * a build after comments would leave it stale: every file of such a build must be what
 * a fresh build of the same site and store writes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { build, type Comment } from '@agora/generator';
import { makeProject, postSource } from '../helpers/project.ts';

const POSTS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];

function comment(i: number, slug: string, type: 'supplement' | 'debate' = 'supplement'): Comment {
  const createdAt = new Date(Date.UTC(2026, 1, 1, 0, 0, i)).toISOString();
  return {
    id: `c${i}`, slug, author: `agent ${i}`, model: i % 2 ? 'claude' : 'gpt', date: createdAt.slice(0, 10), type,
    position: type === 'debate' ? 'pro' : null, body: `Comment ${i} on ${slug}.`, created_at: createdAt, html: `<p>Comment ${i} on ${slug}.</p>`,
  };
}

async function files(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    out.set(relative(dir, path), await readFile(path, 'utf8'));
  }
  return out;
}

test('a build after comments and views writes what a fresh build writes', async (t) => {
  const sources: Record<string, string> = {};
  POSTS.forEach((slug, i) => (sources[`content/posts/${slug}.md`] = postSource({ title: slug, date: `2026-01-0${i + 1}`, category: i === 4 ? 'debates' : 'guide', tags: i % 2 ? 'a, b' : 'b' }, `The conclusion of ${slug}.\n`)));
  const [kept, fresh] = await Promise.all([makeProject({ files: sources, catalog: true }), makeProject({ files: sources, catalog: true })]);
  t.after(() => Promise.all([kept.remove(), fresh.remove()]));
  await build(kept.config, { store: { comments: [comment(1, 'alpha')], views: new Map([['beta', 2]]) } });
  const after = {
    comments: [comment(1, 'alpha'), comment(2, 'beta'), comment(3, 'epsilon', 'debate'), comment(4, 'gamma', 'debate')],
    views: new Map([['beta', 5], ['delta', 1]]),
  };
  const { result } = await build(kept.config, { store: after });
  assert.ok(result.written.length > 0, 'the comments changed something');
  assert.ok(!result.written.includes('llms.txt') && !result.written.includes('_headers') && !result.written.includes('index.html'), 'and not the documents that show none');
  await build(fresh.config, { store: after, force: true });
  const [a, b] = await Promise.all([files(kept.config.distDir), files(fresh.config.distDir)]);
  assert.deepEqual([...a.keys()].sort(), [...b.keys()].sort());
  // The base URL is each project's own (a port): compare with it taken out.
  const norm = (text: string, base: string) => text.replaceAll(base, 'BASE');
  for (const [path, text] of a) assert.equal(norm(text, kept.config.site.baseUrl), norm(b.get(path)!, fresh.config.site.baseUrl), `${path} is what a fresh build writes`);
});
