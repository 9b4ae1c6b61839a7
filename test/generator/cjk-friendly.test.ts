/**
 * CJK-friendly emphasis and strikethrough (issue 20, item 6): Korean bold that
 * CommonMark leaves as literal asterisks renders as `<strong>` in posts and comments,
 * and everything without CJK text renders byte for byte as it did without the
 * extensions: every post of the generated bench corpus (AGORA_CJK_POSTS, default 400),
 * every post of content/posts, the corpus's comment bodies, and every example of the
 * CommonMark 0.31.2 spec (its emphasis section is the hard part) that has no CJK text.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eastAsianWidthType } from 'get-east-asian-width';
import { splitFrontMatter } from '../../packages/generator/src/index.ts';
import { createPostProcessor, mayUseGfm, renderMarkdown } from '../../packages/generator/src/render/markdown.ts';
import { createCommentProcessor, renderCommentMarkdown } from '../../packages/generator/src/render/comment-markdown.ts';
import { COMMENT_RENDERER_VERSION } from '../../packages/generator/src/render/comment-rendering.ts';
import { RENDERER_VERSION } from '../../packages/generator/src/render/version.ts';
import { generateCorpus } from '../../bench/corpus.ts';
import { commentsFor } from '../../bench/comment-corpus.ts';

const REPO = join(import.meta.dirname, '..', '..');
const CORPUS_POSTS = Number(process.env.AGORA_CJK_POSTS ?? 400);

/**
 * Whether text holds a character the CJK-friendly rules look at: Hangul, a wide,
 * fullwidth or halfwidth character (Han, kana, CJK punctuation; emoji counted too, to
 * err on the side of leaving a body out), or a variation selector. Text without any
 * renders exactly as plain CommonMark by the specification of the extension.
 */
function hasCjk(text: string): boolean {
  for (const char of text) {
    const cp = char.codePointAt(0) ?? 0;
    if (cp < 0x1100) continue;
    if (/\p{Script=Hangul}/u.test(char) || (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef)) return true;
    const width = eastAsianWidthType(cp);
    if (width === 'wide' || width === 'fullwidth' || width === 'halfwidth') return true;
  }
  return false;
}

const plainPost = { gfm: createPostProcessor({ gfm: true, cjkFriendly: false }), plain: createPostProcessor({ gfm: false, cjkFriendly: false }) };
const plainComment = createCommentProcessor({ cjkFriendly: false });

/** The post renderer as it would be without the CJK-friendly extensions. */
function renderWithoutCjk(markdown: string): string {
  return String((mayUseGfm(markdown) ? plainPost.gfm : plainPost.plain).processSync(markdown).value);
}

/** Names of the bodies without CJK text whose post HTML differs from the renderer without the extensions. */
function differingPosts(items: readonly [string, string][]): { compared: number; differing: string[] } {
  const differing: string[] = [];
  let compared = 0;
  for (const [name, markdown] of items) {
    if (hasCjk(markdown)) continue;
    compared++;
    if (renderMarkdown(markdown).html !== renderWithoutCjk(markdown)) differing.push(name);
  }
  return { compared, differing };
}

function differingComments(items: readonly [string, string][]): { compared: number; differing: string[] } {
  const differing: string[] = [];
  let compared = 0;
  for (const [name, markdown] of items) {
    if (hasCjk(markdown)) continue;
    compared++;
    if (renderCommentMarkdown(markdown) !== String(plainComment.processSync(markdown).value)) differing.push(name);
  }
  return { compared, differing };
}

async function bodies(root: string): Promise<[string, string][]> {
  const dir = join(root, 'content', 'posts');
  const files = (await readdir(dir)).filter((f) => f.endsWith('.md')).sort();
  return Promise.all(files.map(async (f): Promise<[string, string]> => [f, splitFrontMatter(await readFile(join(dir, f), 'utf8')).body]));
}

interface SpecExample {
  markdown: string;
  section: string;
  number: number;
}
const spec = (createRequire(import.meta.url)('commonmark-spec') as { tests: SpecExample[] }).tests;
const specItems = spec.map((e): [string, string] => [`example ${e.number} (${e.section})`, e.markdown.replace(/→/g, '\t')]);

test('renderMarkdown', async (t) => {
  await t.test('should render Korean bold that closes after punctuation as <strong>', () => {
    const html = renderMarkdown('결론부터.\n\n**설정 파일(config.yaml)**을 먼저 고친다. **Kiwi 0.17.**이 나왔다.\n').html;
    assert.match(html, /<strong>설정 파일\(config\.yaml\)<\/strong>을/);
    assert.match(html, /<strong>Kiwi 0\.17\.<\/strong>이/);
    assert.doesNotMatch(html, /\*\*/);
    // The same text without the extension keeps the asterisks: the fix is the extension.
    assert.match(renderWithoutCjk('**설정 파일(config.yaml)**을'), /\*\*설정 파일/);
  });

  await t.test('should render Korean emphasis and strikethrough in a post with GFM parts', () => {
    const md = '결론.\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\n*강조(a)*를 쓰고 ~~설정 파일(config.yaml)~~을 지운다. ~one~ stays.\n';
    assert.ok(mayUseGfm(md));
    const html = renderMarkdown(md).html;
    assert.match(html, /<em>강조\(a\)<\/em>를/);
    assert.match(html, /<del>설정 파일\(config\.yaml\)<\/del>을/);
    assert.match(html, /~one~ stays/, 'a single tilde is still no strikethrough');
  });

  await t.test('should keep the style notes (the extension touches only inline parsing)', () => {
    const notes = renderMarkdown('## 제목\n\n**설정(a)**을\n\n```\nx\n```\n').notes.map((n) => n.ruleId);
    assert.deepEqual(notes, ['conclusion-first', 'code-lang']);
  });

  await t.test(`should render every post of the bench corpus without CJK text byte for byte as before (${CORPUS_POSTS} posts)`, { skip: CORPUS_POSTS === 0 }, async () => {
    const base = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
    const dir = await mkdtemp(join(base, 'agora-cjk-'));
    try {
      const corpus = await generateCorpus(dir, CORPUS_POSTS, { legacyComments: false });
      const items = await bodies(dir);
      assert.equal(items.length, CORPUS_POSTS);
      const { compared, differing } = differingPosts(items);
      assert.deepEqual(differing, []);
      // The corpus is English: all of it is compared, so the check is not vacuous.
      assert.equal(compared, CORPUS_POSTS);
      // Comment bodies drawn for the same posts, through the comment renderer.
      const comments = [...commentsFor(corpus.posts, 300)].map((c, i): [string, string] => [`comment ${i}`, c.body]);
      const result = differingComments(comments);
      assert.deepEqual(result.differing, []);
      assert.equal(result.compared, comments.length);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  await t.test('should render every post of content/posts without CJK text as before', async () => {
    const items = await bodies(REPO);
    const { compared, differing } = differingPosts(items);
    assert.deepEqual(differing, []);
    assert.ok(compared > 0 && compared < items.length, 'content/posts has Korean posts, left out here, and English ones, compared');
  });

  await t.test('should render every CommonMark 0.31.2 example without CJK text as before, as a post and as a comment', () => {
    const posts = differingPosts(specItems);
    assert.deepEqual(posts.differing, []);
    const comments = differingComments(specItems);
    assert.deepEqual(comments.differing, []);
    const emphasis = specItems.filter(([name]) => name.includes('(Emphasis and strong emphasis)'));
    assert.ok(emphasis.length > 100, 'the emphasis section is among them');
    assert.equal(posts.compared, specItems.length - specItems.filter(([, md]) => hasCjk(md)).length);
  });

  await t.test('should be a comparison that can fail', () => {
    // The CJK examples do differ between the two renderers, so the comparison sees the extension.
    const items: [string, string][] = [['korean', '**설정 파일(config.yaml)**을']];
    assert.deepEqual(differingPosts(items).compared, 0, 'a body with CJK text is left out');
    assert.notEqual(renderMarkdown(items[0]![1]).html, renderWithoutCjk(items[0]![1]));
  });

  await t.test('should carry a new renderer version, so cached renderings of the old rules are dropped', () => {
    assert.match(RENDERER_VERSION, /^post-([4-9]|\d{2,})$/, 'post-4 or later');
  });
});

test('renderCommentMarkdown', async (t) => {
  await t.test('should render Korean bold and strikethrough in a comment', () => {
    const html = renderCommentMarkdown('**설정 파일(config.yaml)**을 바꾸면 **Kiwi 0.17.**이 ~~느려진다(정말)~~는 문제가 사라진다.');
    assert.match(html, /<strong>설정 파일\(config\.yaml\)<\/strong>을/);
    assert.match(html, /<strong>Kiwi 0\.17\.<\/strong>이/);
    assert.match(html, /<del>느려진다\(정말\)<\/del>는/);
  });

  await t.test('should still sanitize (the extension adds no node types)', () => {
    const html = renderCommentMarkdown('**굵게(a)**는 [링크](javascript:alert(1)) <script>x</script>');
    assert.match(html, /<strong>굵게\(a\)<\/strong>는/);
    assert.doesNotMatch(html, /javascript:|<script/);
  });

  await t.test('should carry a new renderer version', () => {
    assert.equal(COMMENT_RENDERER_VERSION, 'comment-5', 'comment-3 came with these rules; comment-4 shows a link the sanitizer emptied as its text; comment-5 shifts headings three levels down and keeps task-list checkboxes');
  });
});
