import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fromFileName, toFileName, toUrlSegment } from '@agora/generator';
import { resolvePostSlug } from '../../packages/writer/src/post-slug.ts';

const posts = new Set(['2025-12-13-x%y', '2025-12-13-x%25y', '.dot', '2025-10-02-한국어', 'a/b']);
const hasPost = (slug: string) => posts.has(slug);

test('fromFileName reverses toFileName and refuses names toFileName never makes', () => {
  for (const slug of [...posts, '..', 'back\\slash', 'tab\there']) assert.equal(fromFileName(toFileName(slug)), slug);
  for (const stray of ['50%', 'a%41', '%2e', 'x%C3%A9']) assert.equal(fromFileName(stray), null, stray);
});

test('a path segment, as Express decodes it, names the post whose URL it is', () => {
  for (const slug of posts) {
    const decoded = decodeURIComponent(toUrlSegment(slug));
    assert.equal(resolvePostSlug(hasPost, decoded, 'path'), slug, decoded);
  }
  // Encoded once by a client that did not know the file-name form: the slug itself.
  assert.equal(resolvePostSlug(hasPost, '.dot', 'path'), '.dot');
  assert.equal(resolvePostSlug(hasPost, 'missing', 'path'), undefined);
});

test('an MCP argument names a post raw or percent-encoded as in its URL', () => {
  for (const slug of posts) {
    assert.equal(resolvePostSlug(hasPost, slug, 'argument'), slug, `raw ${slug}`);
    assert.equal(resolvePostSlug(hasPost, toUrlSegment(slug), 'argument'), slug, `as in the URL: ${toUrlSegment(slug)}`);
  }
  assert.equal(resolvePostSlug(hasPost, '%E0%A4%A', 'argument'), undefined);
});
