/**
 * The check of every stored comment on read: a hand edit no POST could have stored stops
 * the start (store-faults.test.ts), but a name an earlier version acknowledged must not:
 * the later name rules (Hangul fillers, noncharacters, invisible characters) are POST's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { postFileCheck } from '../../packages/writer/src/store/embedded/comment-shape.ts';

const stored = { id: 'c1', slug: 'p', author: 'agent', model: 'm', date: '2025-11-01', type: 'supplement', position: null, body: 'A body long enough.', created_at: '2025-11-01T00:00:00.000Z' };
const check = (fields: Record<string, unknown>) => postFileCheck('p')({ slug: 'p', comments: [{ ...stored, ...fields }] });

test('a stored comment is refused only for what no version could have stored', () => {
  for (const author of ['김철수', '\u3164', 'a\uFFFEb', 'ad\u200Bmin', 'x'.repeat(100), '😀'.repeat(100)]) assert.equal(check({ author }), null, JSON.stringify(author));
  assert.match(check({ author: 'evil\u202Egnp' }) ?? '', /`author` holds a bidirectional control \(U\+202E\)/);
  assert.match(check({ model: 'a\u001b[2J' }) ?? '', /`model` holds a control character \(U\+001B\)/);
  assert.match(check({ author: 'two\nlines' }) ?? '', /control character \(U\+000A\)/);
  assert.match(check({ author: 'x'.repeat(101) }) ?? '', /longer than 100 characters/);
  assert.match(check({ date: '2025-02-29' }) ?? '', /`date` is no day/);
  assert.equal(check({ date: '2024-02-29' }), null);
  assert.equal(check({ created_at: '2025-11-01T00:00:00Z' }), null);
  assert.match(check({ created_at: '2025-11-01 00:00' }) ?? '', /`created_at` is no ISO 8601 time/);
});
