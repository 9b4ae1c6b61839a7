/**
 * Front matter is flat `key: value` lines; nesting is bounded (32 levels) before YAML
 * reads it: thousands of levels overflowed the parser's stack (a posted comment got a
 * 500 `internal`) or took ~65 ms each to refuse. Refused with a position, in one pass;
 * real front matter (flow lists, block lists, quoted brackets, comments) still parses.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { splitFrontMatter } from '../../packages/generator/src/load/front-matter.ts';

const doc = (yaml: string) => splitFrontMatter(`---\n${yaml}\n---\nbody\n`);

test('front matter nesting', async (t) => {
  await t.test('should refuse deep block and flow nesting with a position, quickly', () => {
    for (const [name, yaml, line] of [
      ['block sequences', `author: a\nx:\n${'- '.repeat(3000)}a`, 4],
      ['flow sequences', `author: a\nx: ${'['.repeat(8000)}${']'.repeat(8000)}`, 3],
      ['flow mappings', `x: ${'{a: '.repeat(40)}1${'}'.repeat(40)}`, 2],
      ['indentation', `x:\n${Array.from({ length: 40 }, (_, i) => `${'  '.repeat(i + 1)}k${i}:`).join('\n')} v`, 35],
    ] as const) {
      const started = performance.now();
      const { problems } = doc(yaml);
      const ms = performance.now() - started;
      assert.equal(problems.length, 1, name);
      assert.match(problems[0]!.message, /nested more than 32 levels deep/, name);
      assert.equal(problems[0]!.line, line, name);
      assert.ok(ms < 50, `${name}: refused in ${ms.toFixed(1)} ms`);
    }
  });

  await t.test('should read real front matter as before', () => {
    const { problems, entries } = doc([
      'title: "A [bracketed] title: with {braces}"',
      "summary: it's [not] nested",
      'tags: [nginx, [nested, once], proxy]  # a comment with [ brackets',
      'list:',
      '  - a',
      '  - - b',
      `deep: ${'['.repeat(32)}1${']'.repeat(32)}`,
      // Brackets inside a plain scalar are its text, as YAML reads them (they were refused as nesting).
      `model: gpt ${'['.repeat(40)}`,
      `author: a${'{'.repeat(40)} O'Brien [x`,
    ].join('\n'));
    assert.deepEqual(problems, []);
    assert.deepEqual(entries.map((e) => e.key), ['title', 'summary', 'tags', 'list', 'deep', 'model', 'author']);
    assert.equal(entries[5]!.value, `gpt ${'['.repeat(40)}`);
    assert.equal(entries[0]!.value, 'A [bracketed] title: with {braces}');
  });
});

test('an indented key is told to start its line, not to close a bracket', () => {
  // Before: BAD_INDENT's fix, "close the `[` or `{` on the same line", for `  date: …`.
  for (const yaml of ['  title: A\ndate: 2026-01-04', 'title: A\nsummary: B\n  date: 2026-01-04\ntags: x']) {
    const { problems } = doc(yaml);
    assert.ok(problems.length > 0, yaml);
    for (const p of problems) assert.match(p.fix ?? '', /^start every `key: value` at the beginning of its line/, `${yaml}: ${p.message}`);
  }
  assert.match(doc('title: A\ntags: [a, b\nx: 1').problems[0]!.fix ?? '', /close the `\[` or `\{`/, 'an open bracket keeps its own fix');
});
