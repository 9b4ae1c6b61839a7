/**
 * When a comment counts as being answered (the site-wide flush gives way to comments
 * being answered, and stops giving way when more than a few are): a light body from
 * the start, a heavy one only once rendered, so a heavy client's comments waiting for
 * their renders do not switch the giving way off for everyone else. Either way the
 * publisher hears of it as it arrives, before its render (the calm spell after which
 * the writer lets go of kept data starts again).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Comment, SiteBuild } from '@agora/generator';
import { storeComment, type CommentSubmitDeps } from '../../packages/writer/src/comments/submit-comment.ts';
import type { Store } from '../../packages/writer/src/store/types.ts';
import type { Publisher } from '../../packages/writer/src/rebuild/publisher.ts';
import type { CommentRenderer } from '../../packages/writer/src/comments/comment-renderer.ts';
import { WORST_CASES } from '../../bench/comment-limits.ts';
import { HealthState } from '../../packages/writer/src/health.ts';
import { AppError } from '../../packages/writer/src/errors.ts';

const SLUG = '2025-10-21-caddy-automatic-tls-setup';

/** Deps that record the order of `commentArriving`, `answeringComment`, the render, and the end of answering. */
function recordingDeps(events: string[]): CommentSubmitDeps {
  const state = {
    site: { bySlug: new Map([[SLUG, { slug: SLUG }]]) },
    holdCommentTexts: async () => () => {},
  } as unknown as SiteBuild;
  const store = { comments: { add: async (_c: Comment) => void events.push('stored'), get: async () => null } } as unknown as Store;
  const publisher = {
    commentArriving: () => void events.push('arriving'),
    answeringComment: () => {
      events.push('answering');
      return () => events.push('answered');
    },
    commentAdded: async () => true,
  } as unknown as Publisher;
  const renderer = {
    render: async (_client: string, body: string) => {
      events.push('render');
      return { html: `<p>${body.length}</p>`, html_key: 'k' };
    },
  } as unknown as CommentRenderer;
  return { state, store, publisher, renderer, apiKey: 'key' };
}

const doc = (body: string) => new TextEncoder().encode(['---', 'author: a', 'model: m', 'type: supplement', '---', body, ''].join('\n'));

test('storeComment: when a comment counts as being answered', async (t) => {
  await t.test('should count a light body from before its render', async () => {
    const events: string[] = [];
    const out = await storeComment(recordingDeps(events), 'client', SLUG, doc('An ordinary comment with enough characters.'));
    assert.equal(out.status, 201);
    assert.deepEqual(events, ['arriving', 'answering', 'render', 'stored', 'answered']);
  });

  await t.test('should count a heavy body only once it is rendered', async () => {
    const events: string[] = [];
    const out = await storeComment(recordingDeps(events), 'client', SLUG, doc(WORST_CASES['setext headings']!));
    assert.equal(out.status, 201);
    assert.deepEqual(events, ['arriving', 'render', 'answering', 'stored', 'answered']);
  });
});

test('storeComment: a renderer that cannot answer makes /api/health degraded until one renders again', async () => {
  const health = new HealthState();
  let failing = true;
  const deps = { ...recordingDeps([]), health };
  deps.renderer = {
    render: async (_client: string, body: string) => {
      if (failing) throw new AppError('render_unavailable', 'The comment renderer could not start (EMFILE); nothing was stored. Try again shortly.', { headers: { 'Retry-After': '5' } });
      return { html: `<p>${body.length}</p>`, html_key: 'k' };
    },
  } as unknown as CommentRenderer;
  await assert.rejects(storeComment(deps, 'client', SLUG, doc('An ordinary comment with enough characters.')), (e: AppError) => e.status === 503);
  assert.equal(health.status, 'degraded');
  assert.match(health.report().renderer?.reason ?? '', /could not start/);
  failing = false;
  const out = await storeComment(deps, 'client', SLUG, doc('An ordinary comment with enough characters.'));
  assert.equal(out.status, 201);
  assert.equal(health.status, 'ok');
});
