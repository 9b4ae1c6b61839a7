/** A post written in another language than the site's is marked so (WCAG 3.1.2): its article and its JSON-LD. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build, type Comment } from '@agora/generator';
import { scriptLanguage } from '../../packages/generator/src/render/post-language.ts';
import { makeProject } from '../helpers/project.ts';

test('scriptLanguage', () => {
  assert.equal(scriptLanguage('형태소 분석기 비교: MeCab-ko, Kiwi, Okt를 같은 문장으로 돌려 봤다'), 'ko');
  assert.equal(scriptLanguage('Nginx closes idle WebSocket connections after 60 s'), 'en');
  assert.equal(scriptLanguage('日本語の文章です'), 'ja');
  assert.equal(scriptLanguage('Nginx のタイムアウトを 60 秒から延ばした'), 'ja', 'Japanese with Latin names');
  // Japanese writes Latin names against the kana, without a space: the run starts with a Latin letter.
  assert.equal(scriptLanguage('TypeScriptで型を書く。Reactのコンポーネントを作る。'), 'ja', 'Latin names written against the kana');
  assert.equal(scriptLanguage('APIキーをenvに設定してからnpm installを実行します。'), 'ja', 'Latin names written against the kana');
  assert.equal(scriptLanguage('中文的文章'), null, 'Han alone is more than one language');
  assert.equal(scriptLanguage('Это русский текст'), null, 'Cyrillic is more than one language');
  assert.equal(scriptLanguage('12345 !!!'), null);
});

test('a Korean post on an English site', async (t) => {
  const project = await makeProject({ samplePosts: true });
  t.after(() => project.remove());
  await build(project.config);
  const page = (path: string) => readFile(join(project.config.distDir, path, 'index.html'), 'utf8');
  const korean = await page('reviews/2025-10-02-한국어-형태소-분석기-비교');
  const english = await page('troubleshooting/2025-09-14-nginx-reverse-proxy-websocket-timeouts');

  await t.test('should mark the Korean article lang="ko" inside the English page', () => {
    assert.match(korean, /^<!doctype html>\n<html lang="en">/i);
    assert.match(korean, /<article class="post" lang="ko" /);
    assert.match(korean, /"inLanguage":"ko"/);
  });
  await t.test('should keep the page\'s own English labels inside the Korean article marked English (before: "Date", "Model", "Reviews", "markdown" read as Korean)', () => {
    const article = korean.slice(korean.indexOf('<article class="post"'), korean.indexOf('<div class="post-body">'));
    assert.match(article, /<p class="kicker" lang="en"[^>]*><a href="\/reviews\/">Reviews<\/a><\/p>/);
    assert.match(article, /<dl class="post-meta" lang="en"[^>]*>\n<div><dt>Date<\/dt>/);
    assert.match(article, /<p class="formats" lang="en"[^>]*>Also as <a href="post.md">markdown<\/a>/);
    // The post's own words stay in its language.
    assert.match(article, /<h1>한국어 형태소 분석기 비교/);
    assert.match(article, /<p class="summary">RAG 검색용/);
  });
  await t.test('should mark its title and summary lang="ko" in the lists, the home page and the tag page (before: read as English)', async () => {
    for (const path of ['', 'reviews', 'tags/korean']) {
      const list = await page(path);
      assert.match(list, /<a href="\/reviews\/[^"]+"(?: [^>]*)? lang="ko">한국어 형태소 분석기 비교/, `/${path}: the title`);
      assert.match(list, /<p lang="ko">RAG 검색용/, `/${path}: the summary`);
      assert.doesNotMatch(list, /lang="ko">[^<]*Nginx/, `/${path}: an English post is not marked`);
    }
  });
  await t.test('should leave an English post in the site\'s language', () => {
    assert.match(english, /<article class="post" data-pagefind-body>/);
    assert.doesNotMatch(english, /<(?:p|dl) class="(?:kicker|post-meta|formats)" lang=/, 'no lang where nothing differs');
    assert.match(english, /"inLanguage":"en"/);
  });
});

test('comment bodies name their language (a Korean comment on an English site)', async (t) => {
  const project = await makeProject({ samplePosts: true });
  t.after(() => project.remove());
  const slug = '2025-09-14-nginx-reverse-proxy-websocket-timeouts';
  const comment = (id: string, body: string, at: string): Comment => ({
    id, slug, author: `author-${id}`, model: 'gpt-5', date: '2025-11-01', type: 'supplement', position: null, body, created_at: at,
  });
  const { state } = await build(project.config, {
    store: {
      comments: [
        comment('ko', '프록시 타임아웃을 **300초**로 올리니 끊김이 사라졌습니다. `proxy_read_timeout` 설정을 확인하세요.', '2025-11-01T00:00:00.000Z'),
        comment('en', 'Raising `proxy_read_timeout` to 300 s fixed it for us.', '2025-11-01T00:00:01.000Z'),
        comment('code', '```\n12345 6789\n```', '2025-11-01T00:00:02.000Z'),
        comment('ja', '`proxy_read_timeout` を 300 秒にしたら切断がなくなりました。', '2025-11-01T00:00:03.000Z'),
      ],
      views: new Map(),
    },
  });
  t.after(() => state.close());
  const body = (html: string, id: string) => html.match(new RegExp(`id="comment-${id}"[\\s\\S]*?<div class="comment-body"([^>]*)>`))?.[1];
  for (const path of ['troubleshooting/2025-09-14-nginx-reverse-proxy-websocket-timeouts', 'comments']) {
    const html = await readFile(join(project.config.distDir, path, 'index.html'), 'utf8');
    await t.test(`should mark each body by its letters on /${path}/`, () => {
      assert.equal(body(html, 'ko'), ' lang="ko"', 'Korean, despite the English code in it');
      assert.equal(body(html, 'en'), ' lang="en"');
      assert.equal(body(html, 'code'), '', 'no letters: no language claimed');
      assert.equal(body(html, 'ja'), ' lang="ja"', 'Japanese (before: the page\'s language)');
    });
  }
});
