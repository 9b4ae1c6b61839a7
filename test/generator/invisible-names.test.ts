/**
 * Names that show nothing (issue 20, item 6): an `author` or `model` made only of Hangul
 * fillers, the braille blank, combining marks or other invisible characters, alone or
 * with whitespace, is refused naming the field; Korean names are kept.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CommentRuleError, findInvisibleOnlyName, parseCommentDocument, validateCommentFields } from '@agora/generator';

const TODAY = '2025-11-20';
const doc = (front: string) => `---\n${front}\ntype: supplement\n---\nA body that is long enough.\n`;

function refusal(run: () => unknown): CommentRuleError {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof CommentRuleError, `expected CommentRuleError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected a refusal');
}

/** Names, as YAML double-quoted scalars (escapes), that show nothing. */
const BLANK_NAMES: [string, string, RegExp][] = [
  ['Hangul filler U+3164', '"\\u3164"', /Hangul filler U\+3164/],
  ['Hangul choseong filler U+115F', '"\\u115F"', /Hangul filler U\+115F/],
  ['Hangul jungseong filler U+1160', '"\\u1160"', /Hangul filler U\+1160/],
  ['halfwidth Hangul filler U+FFA0', '"\\uFFA0"', /Hangul filler U\+FFA0/],
  ['braille blank U+2800', '"\\u2800"', /braille blank U\+2800/],
  ['a lone combining mark', '"\\u0301"', /lone combining mark U\+0301/],
  ['a combining grapheme joiner (default-ignorable mark)', '"\\u034F"', /U\+034F/],
  ['fillers and blanks with whitespace', '" \\u3164 \\u2800\\u3000\\uFFA0 "', /Hangul filler U\+3164/],
  ['a filler carrying a combining mark', '"\\u3164\\u0301\\u0308"', /Hangul filler U\+3164/],
  ['a raw (unescaped) Hangul filler', '"\u3164\u3164"', /Hangul filler U\+3164/],
];

test('parseCommentDocument', async (t) => {
  for (const [name, value, message] of BLANK_NAMES) {
    for (const key of ['author', 'model'] as const) {
      await t.test(`should refuse ${key} made only of ${name}, naming ${key}`, () => {
        const front = key === 'author' ? `author: ${value}\nmodel: m` : `author: a\nmodel: ${value}`;
        const error = refusal(() => parseCommentDocument(doc(front), TODAY));
        assert.equal(error.field, key);
        assert.equal(error.rule, 'name-invisible');
        assert.match(error.message, new RegExp(`^front_matter/${key} must show a visible character, not only `));
        assert.match(error.message, message);
      });
    }
  }

  await t.test('should keep Korean and other real names', () => {
    for (const name of ['김철수', '에이전트-1', '클로드 (Claude)', 'José', 'a\u0301', 'ᄀ\u1160', '❤️ bot', 'ㅋㅋ']) {
      const parsed = parseCommentDocument(doc(`author: "${name}"\nmodel: "모델 ${name}"`), TODAY);
      assert.equal(parsed.author, name);
      assert.equal(parsed.model, `모델 ${name}`);
    }
  });

  await t.test('should still refuse an empty name and zero-width characters by their own rules', () => {
    assert.equal(refusal(() => parseCommentDocument(doc('author: "  \\u3000 "\nmodel: m'), TODAY)).rule, 'name-empty');
    assert.equal(refusal(() => parseCommentDocument(doc('author: "\\u200B"\nmodel: m'), TODAY)).rule, 'text-unsafe');
  });
});

test('validateCommentFields', async (t) => {
  await t.test('should refuse a filler-only name in an imported record', () => {
    const error = refusal(() => validateCommentFields({ author: 'a', model: '\u2800', type: 'supplement', body: 'A body long enough.' }, TODAY));
    assert.equal(error.field, 'model');
    assert.match(error.message, /braille blank U\+2800/);
  });
});

test('findInvisibleOnlyName', async (t) => {
  await t.test('should point at the first non-space character of a blank name', () => {
    assert.deepEqual(findInvisibleOnlyName(' \u3164'), { codePoint: 'U+3164', kind: 'Hangul filler', index: 1 });
  });
  await t.test('should leave names with a visible character and empty names alone', () => {
    assert.equal(findInvisibleOnlyName('김\u3164'), null);
    assert.equal(findInvisibleOnlyName(''), null);
    assert.equal(findInvisibleOnlyName('   '), null);
  });
});

test('bodies that show nothing', async (t) => {
  const body = (text: string) => `---\nauthor: a\nmodel: m\ntype: supplement\n---\n${text}\n`;
  const blank: [string, string, RegExp][] = [
    ['Hangul fillers', '\u3164'.repeat(10), /Hangul filler U\+3164/],
    ['braille blanks', '\u2800'.repeat(10), /braille blank U\+2800/],
    ['soft hyphens', '\u00ad'.repeat(10), /U\+00AD/],
    ['lone combining marks', '\u0301'.repeat(10), /lone combining mark U\+0301/],
    ['fillers over lines', `${'\u3164'.repeat(5)}\n\n${'\u3164'.repeat(5)}`, /Hangul filler/],
  ];
  for (const [name, text, message] of blank) {
    await t.test(`should refuse a body of ${name}, naming body`, () => {
      const error = refusal(() => parseCommentDocument(body(text), TODAY));
      assert.deepEqual([error.rule, error.field], ['body-invisible', 'body']);
      assert.match(error.message, /^body must show a visible character, not only /);
      assert.match(error.message, message);
    });
  }
  await t.test('should keep a Korean body and one with a filler among text', () => {
    assert.equal(parseCommentDocument(body('한국어 댓글입니다. 좋은 글이네요.'), TODAY).body, '한국어 댓글입니다. 좋은 글이네요.');
    assert.equal(parseCommentDocument(body(`ㅋㅋ\u3164좋은 글 감사합니다`), TODAY).body, `ㅋㅋ\u3164좋은 글 감사합니다`);
  });
});
