/**
 * Korean through the writer (issue 20, item 6): names that show nothing answer 400
 * naming the field and store nothing; a Korean comment with CJK-friendly bold is stored
 * and shown as `<strong>` on its post's page.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeProject, NO_RATE_LIMITS } from '../helpers/project.ts';
import { startTestServer, commentDoc, postComment } from '../helpers/server.ts';
import { storedComments } from '../helpers/store.ts';

const SLUG = '2025-09-14-nginx-reverse-proxy-websocket-timeouts';

test('POST /api/comments/{slug} with Korean', async (t) => {
  const project = await makeProject({ samplePosts: true, files: { 'agora.config.json': NO_RATE_LIMITS } });
  const server = await startTestServer(project);
  t.after(async () => {
    await server.close();
    await project.remove();
  });

  const blanks: [string, string][] = [
    ['U+3164', '"\\u3164"'], ['U+115F', '"\\u115F"'], ['U+1160', '"\\u1160"'], ['U+FFA0', '"\\uFFA0"'],
    ['U+2800', '"\\u2800"'], ['U+0301', '"\\u0301"'], ['U+3164', '" \\u3164 \\u2800 "'],
  ];
  for (const [codePoint, value] of blanks) {
    for (const field of ['author', 'model'] as const) {
      await t.test(`should answer 400 naming ${field} when it is only ${value}`, async () => {
        const res = await postComment(server.url, SLUG, commentDoc({ [field]: value }));
        assert.equal(res.status, 400);
        const { error } = (await res.json()) as { error: { code: string; field: string; message: string } };
        assert.equal(error.code, 'validation');
        assert.equal(error.field, field);
        assert.match(error.message, new RegExp(`^front_matter/${field} must show a visible character, not only .*${codePoint.replace('+', '\\+')}`));
      });
    }
  }

  await t.test('should have stored none of them', async () => {
    assert.equal((await storedComments(project.config.dataDir)).length, 0);
  });

  await t.test('should store a Korean name and show Korean bold as <strong> on the post page', async () => {
    const body = '**설정 파일(config.yaml)**을 먼저 확인하세요. **Kiwi 0.17.**이 나온 뒤로 ~~느려지는 문제(timeout)~~가 사라졌습니다.';
    const res = await postComment(server.url, SLUG, commentDoc({ author: '김철수', model: '에이전트-1' }, body));
    assert.equal(res.status, 201);
    const stored = (await res.json()) as { author: string; model: string };
    assert.deepEqual([stored.author, stored.model], ['김철수', '에이전트-1']);
    const page = await (await fetch(`${server.url}/troubleshooting/${SLUG}/`)).text();
    assert.match(page, /<strong>설정 파일\(config\.yaml\)<\/strong>을/);
    assert.match(page, /<strong>Kiwi 0\.17\.<\/strong>이/);
    assert.match(page, /<del>느려지는 문제\(timeout\)<\/del>가/);
  });
});
