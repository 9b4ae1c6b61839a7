/**
 * A post's comments kept as bytes (`render/kept-list-bytes.ts`): a comment appended to
 * the kept list is the only one encoded, so a rebuild costs the new comment and not the
 * post's whole list (issue 19: the heavy comments already on a post made every
 * ordinary comment on it slower); any other list is encoded whole, and the bytes
 * always equal a fresh encoding.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Comment } from '@agora/generator';
import { KeptListBytes } from '../../packages/generator/src/render/kept-list-bytes.ts';

const comment = (slug: string, i: number): Comment => ({
  id: `${slug}-${i}`, slug, author: 'a', model: 'm', date: '2026-01-01', type: 'supplement', position: null,
  body: `Comment ${i} — ünïcode ✓.`, created_at: `2026-01-01T00:00:${String(i % 60).padStart(2, '0')}.000Z`,
});

function counting() {
  const encoded: string[] = [];
  const encode = (c: Comment) => {
    encoded.push(c.id);
    return JSON.stringify({ id: c.id, body: c.body });
  };
  return { encoded, encode };
}
const fresh = (list: readonly Comment[]) => `[${list.map((c) => JSON.stringify({ id: c.id, body: c.body })).join(',')}]`;
const text = (chunks: readonly Uint8Array[]) => `[${Buffer.concat(chunks).toString()}]`;

test('an appended comment is the only one encoded; the bytes equal a fresh encoding', () => {
  const { encoded, encode } = counting();
  const kept = new KeptListBytes(encode, ',', 1_000_000);
  const all = Array.from({ length: 200 }, (_, i) => comment('p', i));
  assert.equal(text(kept.chunks('p', all.slice(0, 100))), fresh(all.slice(0, 100)));
  assert.equal(encoded.length, 100);
  // One comment at a time, past the point where chunks are joined (64).
  for (let n = 101; n <= 200; n++) {
    encoded.length = 0;
    assert.equal(text(kept.chunks('p', all.slice(0, n))), fresh(all.slice(0, n)));
    assert.deepEqual(encoded, [`p-${n - 1}`], `only comment ${n - 1} encoded`);
  }
  // The same list again: nothing encoded.
  encoded.length = 0;
  const same = all.slice(0, 200);
  kept.chunks('p', same);
  kept.chunks('p', same);
  assert.equal(encoded.length, 0);
});

test('a list that is not an append (a hidden or edited comment) is encoded whole', () => {
  const { encoded, encode } = counting();
  const kept = new KeptListBytes(encode, ',', 1_000_000);
  const all = Array.from({ length: 5 }, (_, i) => comment('p', i));
  kept.chunks('p', all);
  encoded.length = 0;
  const hidden = [all[0]!, all[2]!, all[3]!, all[4]!];
  assert.equal(text(kept.chunks('p', hidden)), fresh(hidden));
  assert.equal(encoded.length, 4);
  // An edit replaces the comment object: the list is encoded again, with the new text.
  const edited = [...hidden.slice(0, 3), { ...all[4]!, body: 'Edited.' }];
  assert.equal(text(kept.chunks('p', edited)), fresh(edited));
  assert.equal(kept.chunks('p', []).length, 0, 'an empty list has no bytes');
});

test('chunks handed out earlier stay as they were after later appends', () => {
  const kept = new KeptListBytes(counting().encode, ',', 1_000_000);
  const all = Array.from({ length: 80 }, (_, i) => comment('p', i));
  const early = kept.chunks('p', all.slice(0, 3));
  const before = text(early);
  for (let n = 4; n <= 80; n++) kept.chunks('p', all.slice(0, n));
  assert.equal(text(early), before);
});

test('kept lists are bounded in bytes: the least recently asked for go first', () => {
  const { encoded, encode } = counting();
  const lists = Object.fromEntries(['alpha', 'beta', 'gamma'].map((s) => [s, Array.from({ length: 3 }, (_, i) => comment(s, i))]));
  const one = Buffer.concat(new KeptListBytes(encode, ',', 1e9).chunks('alpha', lists.alpha!)).length;
  const kept = new KeptListBytes(encode, ',', one * 2 + 10);
  kept.chunks('alpha', lists.alpha!);
  kept.chunks('beta', lists.beta!);
  encoded.length = 0;
  kept.chunks('alpha', lists.alpha!);
  kept.chunks('beta', lists.beta!);
  assert.equal(encoded.length, 0, 'both kept');
  kept.chunks('gamma', lists.gamma!);
  assert.ok(kept.bytes <= one * 2 + 10, `${kept.bytes} bytes kept`);
  encoded.length = 0;
  kept.chunks('beta', lists.beta!);
  assert.equal(encoded.length, 0, 'beta kept');
  assert.equal(text(kept.chunks('alpha', lists.alpha!)), fresh(lists.alpha!));
  assert.equal(encoded.length, 3, 'alpha was let go and encoded again');
});
