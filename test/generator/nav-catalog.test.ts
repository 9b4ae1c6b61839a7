/**
 * The site nav links to the public-data catalog only where the site has one: a site
 * without `content/catalog/` (every `agora init` site) linked every page to a 404.
 * Adding the catalog later re-emits the pages, since their keys cover it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from '@agora/generator';
import { makeProject, REPO_ROOT } from '../helpers/project.ts';

async function pagesLinkingCatalog(distDir: string): Promise<{ pages: number; linking: number }> {
  const files = (await readdir(distDir, { recursive: true })).filter((f) => f.endsWith('.html'));
  let linking = 0;
  for (const f of files) if ((await readFile(join(distDir, f), 'utf8')).includes('href="/agencatalog/"')) linking++;
  return { pages: files.length, linking };
}

test('the nav links to the data catalog only on a site that has one', async (t) => {
  const project = await makeProject({ samplePosts: true });
  t.after(() => project.remove());
  await build(project.config);
  const without = await pagesLinkingCatalog(project.config.distDir);
  assert.ok(without.pages > 10);
  assert.equal(without.linking, 0, 'no page links to a catalog the site does not have');
  // The catalog arrives: every page is written again with the link.
  await cp(join(REPO_ROOT, 'content', 'catalog'), join(project.root, 'content', 'catalog'), { recursive: true });
  const { result } = await build(project.config);
  assert.ok(result.written.some((f) => f.endsWith('index.html') && !f.startsWith('agencatalog/')), 'the pages were re-emitted');
  const withCatalog = await pagesLinkingCatalog(project.config.distDir);
  assert.equal(withCatalog.linking, withCatalog.pages, 'every page links to it');
});
