/**
 * The bench's `/api/posts` watcher scans the list's bytes for each post's comment count
 * instead of parsing it (bench/writer-nodes.ts). A wrong count would time a comment as
 * seen too early or never: the scan must agree with a parse, or refuse.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commentCounts, commentCountsScanned } from '../../bench/writer-nodes.ts';

const record = (slug: string, count: number, content = 'text') => ({ title: 'T', url: `/guide/${slug}/`, slug, comment_count: count, views: 1, content });

test('the scanned counts equal the parsed ones, also with slug-like text inside a post', () => {
  const list = [
    record('a', 2, 'a post that quotes ,"slug":"evil","comment_count":9 in its body'),
    record('b-코멘트', 0, 'Korean slug'),
    record('c', 31, '\\",\\"slug\\":\\"x'),
  ];
  const bytes = Buffer.from(JSON.stringify(list));
  const scanned = commentCountsScanned(bytes, 3);
  assert.deepEqual(scanned, commentCounts(bytes));
  assert.equal(scanned?.get('a'), 2);
  assert.equal(scanned?.get('c'), 31);
  assert.equal(scanned?.has('evil'), false);
});

test('the scan refuses when it does not find every post', () => {
  const bytes = Buffer.from(JSON.stringify([record('a', 1), record('b', 2)]));
  assert.equal(commentCountsScanned(bytes, 3), null);
  // A list whose records start with the slug has no `,"slug"`: not this format, parse instead.
  assert.equal(commentCountsScanned(Buffer.from('[{"slug":"a","comment_count":1}]'), 1), null);
});
