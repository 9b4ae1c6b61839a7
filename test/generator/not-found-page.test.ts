/**
 * `dist/404.html`: the page static hosts answer for a missing path (Netlify, Cloudflare
 * Pages and GitHub Pages by that name; nginx and Caddy by docs/deploy.md's rule). It is
 * served at any path, so it must not depend on where it is: every link root-relative or
 * absolute, the site's navigation, `noindex`, never in the sitemap or llms.txt, with a
 * markdown twin like every page. A warm build leaves it alone; a new catalog rewrites it
 * (its nav links to the catalog).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from '@agora/generator';
import { makeProject, REPO_ROOT } from '../helpers/project.ts';

test('the build writes 404.html for static hosts', async (t) => {
  const project = await makeProject({ samplePosts: true });
  t.after(() => project.remove());
  await build(project.config);
  const dist = project.config.distDir;
  const base = project.config.site.baseUrl;
  const page = await readFile(join(dist, '404.html'), 'utf8');

  await t.test('should be the site layout with noindex, a canonical link and its markdown twin', async () => {
    assert.match(page, /<title>Not found · /);
    assert.match(page, /<meta name="robots" content="noindex">/);
    assert.ok(page.includes(`<link rel="canonical" href="${base}/404.html">`));
    assert.ok(page.includes('<link rel="alternate" type="text/markdown" href="/404.md">'));
    assert.ok(page.includes('<nav aria-label="Site">'), 'the site navigation');
    assert.ok(page.includes('href="/llms.txt"'), 'the way on for agents');
    const twin = await readFile(join(dist, '404.md'), 'utf8');
    assert.match(twin, /^# Not found\n/);
    assert.ok(twin.includes(`${base}/llms.txt`));
  });

  await t.test('should link only root-relative or absolute, since it is served at any path', async () => {
    const links = [...page.matchAll(/(?:href|src|action)="([^"]*)"/g)].map((m) => m[1]!);
    assert.ok(links.length > 10);
    const relative = links.filter((l) => !l.startsWith('/') && !/^https?:\/\//.test(l) && !l.startsWith('#'));
    assert.deepEqual(relative, []);
  });

  await t.test('should stay out of the sitemap and llms.txt', async () => {
    assert.ok(!(await readFile(join(dist, 'sitemap.xml'), 'utf8')).includes('404'));
    assert.ok(!(await readFile(join(dist, 'llms.txt'), 'utf8')).includes('404.html'));
  });

  await t.test('should be left alone by a warm build and rewritten when the nav changes', async () => {
    const warm = await build(project.config);
    assert.ok(!warm.result.written.includes('404.html'));
    await cp(join(REPO_ROOT, 'content', 'catalog'), join(project.root, 'content', 'catalog'), { recursive: true });
    const withCatalog = await build(project.config);
    assert.ok(withCatalog.result.written.includes('404.html'));
    assert.ok((await readFile(join(dist, '404.html'), 'utf8')).includes('href="/agencatalog/"'));
  });
});
