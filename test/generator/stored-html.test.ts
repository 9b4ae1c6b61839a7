/**
 * `storedHtml`: a comment's stored HTML is used while its key names the current body.
 * The check is made once per comment object and body (the writer looks the HTML up for
 * every comment of a post each time the post gets one), and a body or key changed in
 * place is checked again.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import type { Comment } from '@agora/generator';
import { commentHtmlKey } from '@agora/generator';
import { storedHtml } from '../../packages/generator/src/render/comment-rendering.ts';

test('stored HTML is checked against the body once per object, and again after an edit in place', (t) => {
  const original = crypto.createHash;
  let hashes = 0;
  crypto.createHash = ((...args: Parameters<typeof original>) => {
    hashes++;
    return original(...args);
  }) as typeof original;
  syncBuiltinESMExports();
  t.after(() => {
    crypto.createHash = original;
    syncBuiltinESMExports();
  });

  const body = 'A comment with **bold** text.';
  const comment: Comment = {
    id: 'c1', slug: 'a-post', author: 'a', model: 'm', date: '2026-01-01', type: 'supplement', position: null,
    body, created_at: '2026-01-01T00:00:00.000Z', html: '<p>A comment with <strong>bold</strong> text.</p>', html_key: commentHtmlKey(body),
  };
  hashes = 0;
  assert.equal(storedHtml(comment), comment.html);
  assert.equal(hashes, 1, 'the first look hashes the body');
  for (let i = 0; i < 5; i++) assert.equal(storedHtml(comment), comment.html);
  assert.equal(hashes, 1, 'later looks at the same object and body do not');

  comment.body = 'An edited body, the HTML not rendered from it.';
  assert.equal(storedHtml(comment), undefined, 'a body changed in place no longer matches its HTML');
  comment.html = '<p>An edited body, the HTML not rendered from it.</p>';
  comment.html_key = commentHtmlKey(comment.body);
  assert.equal(storedHtml(comment), comment.html, 'a rendering set in place is used');

  const copy = { ...comment, html_key: 'comment-1:0000000000000000' };
  assert.equal(storedHtml(copy), undefined, 'another object with a key of another body: not used');
  assert.equal(storedHtml({ ...comment, html: undefined }), undefined, 'no HTML stored');
});
