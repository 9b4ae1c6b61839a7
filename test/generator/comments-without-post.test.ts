/**
 * Stored comments whose post has no content file now (renamed or removed) are left out
 * of the site: a build says so, one warning per post placed where its file would be,
 * instead of letting acknowledged comments vanish without a word. Hidden ones are a
 * moderator's decision and are not counted.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SiteBuild, type Comment } from '@agora/generator';
import { makeProject, postSource } from '../helpers/project.ts';

const comment = (id: string, slug: string, hidden = false): Comment => ({
  id, slug, author: 'agent', model: 'gpt', date: '2026-01-01', type: 'supplement', position: null,
  body: `Comment ${id} with enough text.`, created_at: '2026-01-01T00:00:00.000Z', html: `<p>Comment ${id} with enough text.</p>`, ...(hidden ? { hidden: true } : {}),
});

test('a build warns about stored comments whose post no file has now', async (t) => {
  const project = await makeProject({ files: { 'content/posts/2025-06-01-renamed.md': postSource({ title: 'Renamed' }) } });
  t.after(() => project.remove());
  const comments = [comment('a', 'old-name'), comment('b', 'old-name'), comment('c', 'old-name', true), comment('d', '2025-06-01-renamed'), comment('e', 'gone')];
  const { state, result } = await SiteBuild.build(project.config, { store: { comments, views: new Map() } });
  t.after(() => state.close());
  const warnings = result.messages.filter((m) => m.ruleId === 'comments-without-post');
  assert.deepEqual(warnings.map((m) => [m.file, m.severity, m.message.slice(0, 56)]), [
    ['content/posts/gone.md', 'warning', '1 stored comment belongs to the post `gone`, which no fi'],
    ['content/posts/old-name.md', 'warning', '2 stored comments belong to the post `old-name`, which n'],
  ]);
  assert.match(warnings[1]!.fix ?? '', /old file name back/);
  assert.equal(state.site.comments.get('2025-06-01-renamed')?.length, 1, 'the comments of posts that exist are shown as before');
});
