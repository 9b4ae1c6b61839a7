/**
 * docs/deploy.md's content negotiation for static hosts names a file the build wrote for
 * every page: a post's `post.md`, a list's `index.md`, and for a later page of a list
 * (`/page/2/`, `/reviews/page/2/`, `/tags/x/page/2/`) its list's `index.md`, as `agora serve`
 * answers. The nginx rewrites and the Cloudflare/Netlify function are read from the doc and
 * run against a built `dist/` (nginx's rewrites as the regular expressions they are).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from '@agora/generator';
import { makeProject, REPO_ROOT } from '../helpers/project.ts';

const exists = (path: string) => stat(path).then((s) => s.isFile(), () => false);

test('docs/deploy.md negotiation reaches a markdown file for every page', async (t) => {
  const project = await makeProject({ samplePosts: true, files: { 'agora.config.json': JSON.stringify({ pageSize: 1 }) } });
  t.after(() => project.remove());
  const { state } = await build(project.config, { store: { comments: [], views: new Map() } });
  t.after(() => state.close());
  const dist = project.config.distDir;
  const pages = (await readdir(dist, { recursive: true }))
    .filter((f) => f.endsWith('index.html') && !f.startsWith('agencatalog/') && f !== '404.html')
    .map((f) => `/${f.slice(0, -'index.html'.length)}`.split('/').map(encodeURIComponent).join('/'));
  const later = pages.filter((p) => /\/page\/\d+\/$/.test(p));
  for (const kind of [/^\/page\//, /^\/(reviews|setups|knowhow|troubleshooting)\/page\//, /^\/tags\/[^/]+\/page\//, /^\/models\/[^/]+\/page\//]) assert.ok(later.some((p) => kind.test(p)), `a later page like ${kind}`);
  const doc = await readFile(join(REPO_ROOT, 'docs', 'deploy.md'), 'utf8');
  const fileOf = (path: string) => join(dist, ...decodeURIComponent(path).split('/'));

  await t.test('should rewrite every page to a file with the nginx rules', async () => {
    const block = /```nginx\n(map \$http_accept[\s\S]*?)```/.exec(doc)?.[1];
    assert.ok(block, 'the negotiation block');
    // The locations in order, each with the rewrites of its markdown `if`.
    const locations = [...block.matchAll(/location ~ (\S+) \{([\s\S]*?)\n    \}/g)].map((m) => ({
      match: new RegExp(m[1]!),
      rewrites: [...m[2]!.matchAll(/rewrite (\S+) (\S+) last;/g)].map((r) => ({ from: new RegExp(r[1]!), to: r[2]! })),
    }));
    const missing: string[] = [];
    for (const page of pages) {
      const location = locations.find((l) => l.match.test(page));
      assert.ok(location, page);
      const rule = location.rewrites.find((r) => r.from.test(page));
      assert.ok(rule, page);
      const m = rule.from.exec(page)!;
      const target = rule.to.replace(/\$(\d)/g, (_, n: string) => m[Number(n)] ?? '');
      if (!(await exists(fileOf(target)))) missing.push(`${page} -> ${target}`);
    }
    // Before: `/page/2/ -> /page/2/index.md` and every other later page (404 for markdown, 200 for HTML).
    assert.deepEqual(missing, []);
  });

  await t.test('should fetch a file for every page in the edge function', async () => {
    const source = /```js\n(\/\/ functions\/_middleware\.js[\s\S]*?)```/.exec(doc)?.[1];
    assert.ok(source, 'the edge function');
    const module = join(project.root, 'middleware.mjs');
    await writeFile(module, source);
    const { onRequest } = (await import(pathToFileURL(module).href)) as { onRequest: (c: unknown) => Promise<Response> };
    const missing: string[] = [];
    for (const page of pages) {
      let fetched: string | null = null;
      await onRequest({
        request: new Request(`https://agora.example${page}`, { headers: { accept: 'text/markdown' } }),
        next: async () => new Response('html'),
        env: {
          ASSETS: {
            // A static host: a folder answers its index.html; a path with no file 404.
            fetch: async (url: URL) => {
              const file = url.pathname.endsWith('/') ? `${url.pathname}index.html` : url.pathname;
              if (url.pathname.endsWith('.md')) fetched = url.pathname;
              return new Response('x', { status: (await exists(fileOf(file))) ? 200 : 404 });
            },
          },
        },
      });
      assert.ok(fetched, page);
      if (!(await exists(fileOf(fetched)))) missing.push(`${page} -> ${fetched}`);
    }
    assert.deepEqual(missing, []);
  });
});
