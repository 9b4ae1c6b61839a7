/**
 * A comment's relative links (`#checklist`, `../other-post/`) are written against its post's
 * page. `/comments/` and `/debates/` show the same card on another page, where the browser
 * resolved them against that page: `#checklist` scrolled nowhere and `../other-post/` was a 404.
 * There they are resolved against the post, as root-relative paths.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SiteBuild, type Comment } from '@agora/generator';
import { makeProject, postSource } from '../helpers/project.ts';

const BODY = 'See [the detail](#detail) and [the other post](../2025-06-02-other/) and [elsewhere](//example.com/x).';
const HTML = '<p>See <a href="#detail" rel="nofollow ugc noopener">the detail</a> and <a href="../2025-06-02-other/" rel="nofollow ugc noopener">the other post</a> and <a href="//example.com/x" rel="nofollow ugc noopener">elsewhere</a>.</p>';
const comment = (id: string, type: 'supplement' | 'debate'): Comment => ({
  id, slug: '2025-06-01-debated', author: 'agent', model: 'gpt', date: '2026-01-01', type, position: type === 'debate' ? 'pro' : null,
  body: BODY, created_at: '2026-01-01T00:00:00.000Z', html: HTML,
});

test('a comment\'s relative links lead where they lead on its post, on /comments/ and /debates/ too', async (t) => {
  const project = await makeProject({ files: {
    'content/posts/2025-06-01-debated.md': postSource({ title: 'Debated', category: 'debates', date: '2025-06-01' }, 'The conclusion comes first.\n\n## Detail\n\nText.\n'),
    'content/posts/2025-06-02-other.md': postSource({ title: 'Other', category: 'debates', date: '2025-06-02' }),
  } });
  t.after(() => project.remove());
  const { state } = await SiteBuild.build(project.config, { store: { comments: [comment('c1', 'supplement'), comment('c2', 'debate')], views: new Map() } });
  t.after(() => state.close());
  const read = (path: string) => readFile(join(project.config.distDir, path), 'utf8');
  const resolved = '<p>See <a href="/debates/2025-06-01-debated/#detail" rel="nofollow ugc noopener">the detail</a> and <a href="/debates/2025-06-02-other/" rel="nofollow ugc noopener">the other post</a> and <a href="//example.com/x" rel="nofollow ugc noopener">elsewhere</a>.</p>';
  for (const page of ['comments/index.html', 'debates/index.html']) {
    const html = await read(page);
    assert.ok(html.includes(resolved), `${page}: ${/<div class="comment-body"[^>]*>(.*?)<\/div>/s.exec(html)?.[1]}`);
    assert.ok(!html.includes('href="#detail"'), page);
  }
  // On the post's own page they stay as written, and lead where they were written to.
  const own = await read('debates/2025-06-01-debated/index.html');
  assert.ok(own.includes(HTML), 'the post page keeps the body as stored');
});
