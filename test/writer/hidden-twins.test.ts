/** `HiddenTwins`: a hidden comment read again (a start that retries reads the whole store each time) is kept once. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Comment } from '@agora/generator';
import { HiddenTwins } from '../../packages/writer/src/comments/hidden-twins.ts';
import { senderKey } from '../../packages/writer/src/http/duplicate-guard.ts';

const hidden = (id: string, body: string): Comment => ({
  id, slug: 'post', author: 'a', model: 'm', date: '2025-11-01', type: 'supplement', position: null, body, created_at: '2025-11-01T00:00:00.000Z', hidden: true,
});

test('HiddenTwins', async (t) => {
  await t.test('should keep a comment added again once, and forget it when its post no longer holds it', () => {
    const twins = new HiddenTwins();
    const comment = hidden('c1', 'A hidden body.');
    for (let start = 0; start < 5; start++) twins.add(comment);
    twins.add(hidden('c2', 'Another hidden body.'));
    const keys = (twins as unknown as { keysBySlug: Map<string, string[]> }).keysBySlug.get('post');
    assert.equal(keys?.length, 2, 'one key per hidden comment, however often the store was read');
    assert.equal(twins.find('post', senderKey('a', null), 'A hidden body.'), 'c1');
    twins.replace('post', [hidden('c2', 'Another hidden body.')]);
    assert.equal(twins.find('post', senderKey('a', null), 'A hidden body.'), null);
    assert.equal(twins.find('post', senderKey('a', null), 'Another hidden body.'), 'c2');
  });
});
