/** Every generated HTML page is valid HTML (html-validate, its standard rules; the stylistic ones (doctype case, title length) are left out). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { HtmlValidate } from 'html-validate';
import { build } from '@agora/generator';
import { makeProject } from '../helpers/project.ts';

test('generated HTML', async (t) => {
  const project = await makeProject({ samplePosts: true, catalog: true, files: { 'agora.config.json': JSON.stringify({ pageSize: 5 }) } });
  t.after(() => project.remove());
  const comments = [
    { id: 'c1', slug: '2025-07-29-sqlite-in-production-yes-or-no', author: 'a', model: 'gpt-5', date: '2025-11-01', type: 'debate' as const, position: 'pro' as const, body: 'A table:\n\n| a | b |\n|---|---|\n| `x-y-z` | 2 |\n\n```bash\necho ok\n```', created_at: '2025-11-01T00:00:00.000Z' },
    // Links whose address the sanitizer removes: `<a rel>` without `href` is invalid HTML.
    { id: 'c2', slug: '2025-07-29-sqlite-in-production-yes-or-no', author: 'b', model: 'gpt-5', date: '2025-11-02', type: 'supplement' as const, position: null, body: 'Links: [safe](https://example.com), [unsafe one](javascript:alert(3)), [data](data:text/html,x) and <mailto:a@b.c>.', created_at: '2025-11-02T00:00:00.000Z' },
  ];
  const { state } = await build(project.config, { store: { comments, views: new Map() } });
  t.after(() => state.close());
  const dist = project.config.distDir;
  const files = (await readdir(dist, { recursive: true })).filter((f) => f.endsWith('.html')).sort();

  await t.test('should have every page type, paginated lists included', () => {
    for (const f of ['index.html', 'page/2/index.html', 'tags/index.html', 'tags/nginx/index.html', 'search/index.html', 'models/claude-sonnet-4.5/index.html', 'comments/index.html', 'debates/index.html', 'agencatalog/index.html']) assert.ok(files.includes(f), f);
  });

  await t.test('should show a link the sanitizer emptied as its text', async () => {
    const page = await readFile(join(dist, 'debates/2025-07-29-sqlite-in-production-yes-or-no/index.html'), 'utf8');
    assert.match(page, /<a href="https:\/\/example.com" rel="nofollow ugc noopener">safe<\/a>, unsafe one, data and <a href="mailto:a@b.c"/);
  });

  await t.test('should report no html-validate errors on any page', async () => {
    const validator = new HtmlValidate({ extends: ['html-validate:standard'] });
    const problems: string[] = [];
    for (const file of files) {
      const report = await validator.validateString(await readFile(join(dist, file), 'utf8'), file);
      for (const r of report.results) for (const m of r.messages) problems.push(`${file}:${m.line}:${m.column} ${m.message} (${m.ruleId})`);
    }
    assert.deepEqual(problems.slice(0, 30), [], `${problems.length} problems`);
  });
});
