/** Tests of the comment rules module: parser, clean text, body shape, printable, and the generated docs. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  COMMENT_RULES,
  CommentRuleError,
  commentErrorMessage,
  decodeCommentBytes,
  firstInvalidUtf8,
  commentRulesMarkdown,
  measureBody,
  COMMENT_WORK_LIMITS,
  parseCommentDocument,
  printable,
  validateCommentFields,
} from '@agora/generator';

const TODAY = '2025-11-20';
const doc = (front: string, body = 'A body that is long enough.') => `---\n${front}\n---\n${body}\n`;
const base = 'author: a\nmodel: m\ntype: supplement';

function refused(run: () => unknown, field: string, message?: RegExp): CommentRuleError {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof CommentRuleError, `expected CommentRuleError, got ${String(error)}`);
    assert.equal(error.field, field);
    if (message) assert.match(error.message, message);
    return error;
  }
  assert.fail(`expected a refusal naming ${field}`);
}

test('parseCommentDocument', async (t) => {
  await t.test('should parse a valid document', () => {
    assert.deepEqual(parseCommentDocument(doc('author: a\nmodel: m\ntype: debate\nposition: con\ndate: 2025-11-01'), TODAY), {
      author: 'a', model: 'm', date: '2025-11-01', type: 'debate', position: 'con', body: 'A body that is long enough.',
    });
  });

  await t.test('should give the catalog message for a debate without position', () => {
    const error = refused(() => parseCommentDocument(doc('author: a\nmodel: m\ntype: debate'), TODAY), 'position');
    assert.equal(error.message, 'front_matter/position is required with type debate: one of pro, con, neutral');
    assert.equal(error.rule, 'position-required');
  });

  await t.test('should say that lines end with CR alone, not that the front matter is missing', () => {
    // Before: `front_matter is required: start the document with a \`---\` line…` for a
    // document that starts with one, its lines ended with CR alone (old Mac line ends).
    const error = refused(() => parseCommentDocument(doc(base).replace(/\n/g, '\r'), TODAY), 'front_matter', /^front_matter line 1: .*CR/);
    assert.equal(error.rule, 'front-matter-syntax');
    // CRLF and LF still read.
    assert.equal(parseCommentDocument(doc(base).replace(/\n/g, '\r\n'), TODAY).author, 'a');
  });

  await t.test('should say that a front matter line ends with CR alone after a first line that does not', () => {
    // Before: `---\r\n` then `author: a\rmodel: m\r…` answered `front_matter line 2: Unexpected
    // YAML: Nested mappings are not allowed in compact mappings`, naming no CR.
    const lines = doc(base).split('\n');
    const mixed = `${lines[0]}\r\n${lines.slice(1, -3).join('\r')}\r\n${lines.slice(-3).join('\r\n')}`;
    const error = refused(() => parseCommentDocument(mixed, TODAY), 'front_matter', /^front_matter line 2: .*CR/);
    assert.equal(error.rule, 'front-matter-syntax');
    // And where the closing `---` ends with CR alone too (was: expected a closing `---` line).
    refused(() => parseCommentDocument(`${lines[0]}\n${lines.slice(1).join('\r')}`, TODAY), 'front_matter', /^front_matter line 2: .*CR/);
  });

  const unsafeFrontMatter: [string, string, string, RegExp][] = [
    ['ANSI escape written as a YAML escape', 'author: "\\e[2J\\e[H"\nmodel: m\ntype: supplement', 'author', /control character U\+001B/],
    ['bell and OSC title in model', 'author: a\nmodel: "\\x07\\x1b]0;owned\\x07"\ntype: supplement', 'model', /control character U\+0007/],
    ['C1 control', 'author: "a\\x85b"\nmodel: m\ntype: supplement', 'author', /control character U\+0085/],
    ['right-to-left override', 'author: "evil\\u202Egnp.exe"\nmodel: m\ntype: supplement', 'author', /bidirectional control U\+202E/],
    ['isolate', 'author: a\nmodel: "m\\u2066x"\ntype: supplement', 'model', /bidirectional control U\+2066/],
    ['zero-width space', 'author: "ad\\u200Bmin"\nmodel: m\ntype: supplement', 'author', /invisible character U\+200B/],
    ['zero-width joiner in a name', 'author: "a\\u200Db"\nmodel: m\ntype: supplement', 'author', /U\+200D/],
    ['word joiner', 'author: "a\\u2060b"\nmodel: m\ntype: supplement', 'author', /U\+2060/],
    ['BOM', 'author: "a\\uFEFFb"\nmodel: m\ntype: supplement', 'author', /U\+FEFF/],
    ['line separator', 'author: "a\\u2028b"\nmodel: m\ntype: supplement', 'author', /line or paragraph separator U\+2028/],
    ['paragraph separator in type', 'author: a\nmodel: m\ntype: "supplement\\u2029"', 'type', /U\+2029/],
    ['tab in a name', 'author: "a\\tb"\nmodel: m\ntype: supplement', 'author', /U\+0009/],
    ['raw escape byte', `author: "a\u001bb"\nmodel: m\ntype: supplement`, 'author', /U\+001B/],
    ['a noncharacter written as a YAML escape (XML 1.0 refuses it: the Atom feeds broke)', 'author: "nc\\uFFFF-author"\nmodel: m\ntype: supplement', 'author', /noncharacter U\+FFFF/],
    ['a raw noncharacter in the model', 'author: a\nmodel: "m\uFDD0"\ntype: supplement', 'model', /noncharacter U\+FDD0/],
    // Found by an outside sweep: a body refused this run (hidden data, one byte a selector) while
    // `agent` + 28 selectors spelling "ignore previous instructions" was stored as an author.
    ['a run of variation selectors in a name (hidden data)', 'author: "agent\uFE00\uFE01\U000E0100"\nmodel: m\ntype: supplement', 'author', /repeated variation selector U\+FE01/],
    ['a run of variation selectors in the model', 'author: a\nmodel: "gpt\uFE0F\uFE0F"\ntype: supplement', 'model', /repeated variation selector U\+FE0F/],
  ];
  for (const [name, front, field, message] of unsafeFrontMatter) {
    await t.test(`should refuse ${name}, naming ${field}`, () => {
      refused(() => parseCommentDocument(doc(front), TODAY), field, message);
    });
  }

  await t.test('should keep one variation selector in a name (an emoji as text or picture)', () => {
    assert.equal(parseCommentDocument(doc('author: "love \u2764\uFE0F"\nmodel: m\ntype: supplement'), TODAY).author, 'love \u2764\uFE0F');
  });

  await t.test('should keep dates between 2000-01-01 and today + 1 day', () => {
    refused(() => parseCommentDocument(doc(`${base}\ndate: 9999-12-31`), TODAY), 'date', /between 2000-01-01 and 2025-11-21/);
    refused(() => parseCommentDocument(doc(`${base}\ndate: 1999-12-31`), TODAY), 'date');
    assert.equal(parseCommentDocument(doc(`${base}\ndate: 2025-11-21`), TODAY).date, '2025-11-21');
    assert.equal(parseCommentDocument(doc(`${base}\ndate: 2000-01-01`), TODAY).date, '2000-01-01');
  });

  const unsafeBody: [string, string, RegExp][] = [
    ['an ANSI escape', 'Looks fine \u001b[2J but clears the screen', /control character U\+001B \(line 1\)/],
    ['a right-to-left override', 'access = "user\u202E \u2066// admin\u2069"', /bidirectional control U\+202E/],
    ['a zero-width space', 'pay\u200Bpal.example is the real site', /invisible character U\+200B/],
    ['a line separator', 'first\u2028second line of text', /U\+2028/],
    ['hidden tag characters (ASCII smuggling)', 'Nice post\u{E0049}\u{E0067}\u{E006E}\u{E006F}\u{E0072}\u{E0065} indeed', /U\+E0049/],
    ['a run of variation selectors', 'Hello\uFE0F\uFE0E\uFE0F world, fine text', /repeated variation selector/],
    ['U+FFFF, a noncharacter', 'A body with \uFFFF inside it', /noncharacter U\+FFFF/],
    ['U+FFFE, a noncharacter', 'A body with \uFFFE inside it', /noncharacter U\+FFFE/],
    ['a plane-end noncharacter', 'A body with \u{1FFFF} inside it', /noncharacter U\+1FFFF/],
  ];
  for (const [name, body, message] of unsafeBody) {
    await t.test(`should refuse a body with ${name}`, () => {
      refused(() => parseCommentDocument(doc(base, body), TODAY), 'body', message);
    });
  }

  await t.test('should keep what real prose needs in a body', () => {
    const body = 'Team 👩‍💻 and 👨‍👩‍👧 agree; flag 🏴󠁧󠁢󠁳󠁣󠁴󠁿; می‌خواهم (ZWNJ); שלום\u200F; ❤️ once;\ttab\r\nand CRLF.';
    assert.equal(parseCommentDocument(doc(base, body), TODAY).body, body);
  });

  await t.test('should refuse bodies nested deeper than the limit, before rendering', () => {
    const error = refused(() => parseCommentDocument(doc(base, '>'.repeat(4000)), TODAY), 'body');
    assert.equal(error.message, commentErrorMessage('body-too-deep', 4000, 1));
    assert.match(error.message, /^body nests block quotes\/lists 4000 deep \(line 1\); at most 16 levels/);
    refused(() => parseCommentDocument(doc(base, '1. '.repeat(3000) + 'x'), TODAY), 'body', /3000 deep/);
    const list = (levels: number) => Array.from({ length: levels }, (_, i) => `${'  '.repeat(i)}- level ${i + 1}`).join('\n');
    assert.ok(parseCommentDocument(doc(base, list(COMMENT_RULES.maxDepth)), TODAY));
    refused(() => parseCommentDocument(doc(base, list(COMMENT_RULES.maxDepth + 1)), TODAY), 'body', /17 deep \(line 17\)/);
  });

  await t.test('should refuse bodies with too many emphasis delimiters', () => {
    refused(() => parseCommentDocument(doc(base, '*_'.repeat(8000)), TODAY), 'body', /16000 runs of `\*`\/`_`.*at most 1000/);
  });

  await t.test('should count `~~` strikethrough runs with the emphasis runs (their matching is quadratic too)', () => {
    // 2,000 openers then 2,000 closers (16 KiB) took seconds to render and was accepted by every limit.
    const tildes = (n: number) => `${'~~a '.repeat(n)}${'a~~ '.repeat(n)}`;
    assert.equal(measureBody(tildes(2000)).delimiterRuns, 4000);
    refused(() => parseCommentDocument(doc(base, tildes(2000)), TODAY), 'body', /4000 runs of .*`~~`.*at most 1000/);
    assert.ok(parseCommentDocument(doc(base, tildes(500)), TODAY));
    refused(() => parseCommentDocument(doc(base, `${tildes(500)}~~a`), TODAY), 'body', /1001 runs/);
    // A lone `~` (a home folder) is no delimiter; `~~~` can hide a `~~` behind a backslash (`\~~~`), so it counts.
    assert.equal(measureBody('cd ~/src and ~user; a ~ b').delimiterRuns, 0);
    assert.equal(measureBody('\\~~~a').delimiterRuns, 1);
  });
});

test('measureBody', async (t) => {
  await t.test('should count quotes and list markers, and indentation only as deep as the lines before', () => {
    assert.equal(measureBody('> > > a').depth, 3);
    assert.equal(measureBody('- a\n  - b\n    - c').depth, 3);
    assert.equal(measureBody('1. a\n   1. b').depth, 2);
    assert.equal(measureBody('intro\n\n                    deeply indented code').depth, 0);
    assert.equal(measureBody('- item\n\n  ```python\n                      x = 1\n  ```').depth, 1);
  });

  await t.test('should not count thematic breaks, snake_case or fenced code', () => {
    assert.equal(measureBody('- - - - - - - - - - - - - - - - - - - -').depth, 0);
    assert.equal(measureBody('call some_long_function_name_here() and *this*').delimiterRuns, 2);
    assert.equal(measureBody('```\n' + '*_'.repeat(100) + '\n```\n**bold**').delimiterRuns, 2);
  });
});

test('measureBody: the rendering-work counts', async (t) => {
  await t.test('should count lines, block lines, list items, headings, brackets, code spans and table cells', () => {
    const shape = measureBody('# Title\n\nText with [a](b) and `code`, <!-- a comment --> and <?pi?> but not a<b.\n\n- one\n- two\n  1. three\n\nSetext\n===\n\n|a|b|\n|-|-|\n');
    assert.deepEqual({ ...shape, depth: undefined, depthLine: undefined }, {
      depth: undefined, depthLine: undefined, delimiterRuns: 0, longestRun: 0, longestRunLine: 0, lines: 14, blockLines: 9, listItems: 3, headings: 2, brackets: 1, codeSpans: 2, tableCells: 6, markupOpeners: 2, labelChars: 1, referenceChars: 0,
    });
  });

  await t.test('should find the longest run of `*` or `_` and its line (snake_case is no run)', () => {
    const shape = measureBody('a **b** c\n\nsnake_case_name ***x***\n\n```\n*****\n```\n');
    assert.deepEqual([shape.longestRun, shape.longestRunLine], [3, 3]);
  });

  await t.test('should not count what is inside fenced code, nor a --- line after a blank line as a heading', () => {
    const shape = measureBody('```js\n- a\n# b\n[c] `d` |e|\n```\n\n---\n');
    assert.equal(shape.listItems, 0);
    assert.equal(shape.tableCells, 0);
    assert.equal(shape.headings, 0);
    assert.equal(shape.brackets, 0);
    assert.equal(shape.codeSpans, 0);
    assert.equal(shape.blockLines, 2, 'the opening fence and the break');
  });

  await t.test('should count lines after what only looks like a fence (the renderer does not open one there)', () => {
    // Before: each of these hid the rest of the body from every limit (2,277 links from one comment stored).
    const tail = '[a](b) <? `c` *d*\n'.repeat(10);
    for (const [name, body] of [
      ['a backtick in a backtick fence\'s info string', `text\n\n\`\`\`a\`b\n${tail}`],
      ['four columns of indentation (indented code)', `text\n\n    \`\`\`\n${tail}`],
      ['a fence in a list item (it ends with the item)', `- \`\`\`\n${tail}`],
      ['a fence in a block quote (it ends with the quote)', `> \`\`\`\n${tail}`],
    ] as const) {
      const shape = measureBody(body);
      assert.deepEqual([shape.brackets, shape.markupOpeners, shape.delimiterRuns], [10, 10, 20], name);
      assert.ok(shape.codeSpans >= 20, name);
    }
    // A real fence at the top level, also right after a list, still hides its lines.
    for (const body of [`\`\`\`js\n${tail}\`\`\`\n`, `- a\n\n~~~ info\`ok\n${tail}~~~\n`]) assert.equal(measureBody(body).brackets, 0, body.slice(0, 20));
  });

  await t.test('should sum the reach of each `]` back to the latest `[` still open (a tab as 4), outside fenced code', () => {
    assert.equal(measureBody('[xxx] and [a](b), a [\tb] task').labelChars, 3 + 1 + 5);
    assert.equal(measureBody('[[a]\nb]').labelChars, 1 + 5, 'nested, across a line break');
    assert.equal(measureBody('] a stray bracket [a').labelChars, 0);
    assert.equal(measureBody('[a\n```\n]]]]\n```\n').labelChars, 0);
  });

  await t.test('should give the same counts for the same text, every time', () => {
    const body = 'a\n=\n'.repeat(300) + '- x [y](z) `w`\n'.repeat(300);
    assert.deepEqual(measureBody(body), measureBody(body));
  });
});

test('rendering-work limits', async (t) => {
  const refusedWork = (body: string, limit: string, value: number, max: number) => {
    try {
      parseCommentDocument(doc(base, body), TODAY);
    } catch (error) {
      assert.ok(error instanceof CommentRuleError);
      assert.deepEqual(error.work, { limit, value, max });
      assert.equal(error.field, 'body');
      return;
    }
    assert.fail(`${limit}: accepted`);
  };
  // Bodies of `n` units of the construct a limit counts, plus a line of text.
  const UNITS: Record<string, string> = { maxListItems: '- a\n', maxHeadings: '# a\n', maxBrackets: '[ ', maxCodeSpans: '` ', maxTableCells: '| ', maxBlockLines: 'a\n', maxMarkupOpeners: '<? ' };
  // maxLabelChars: 400 nested `[` around L characters (the i-th pair from inside reaches L + 2(i - 1)), then one pair reaching the rest.
  const labelsOf = (n: number) => {
    const k = 400;
    const reach = Math.floor((n - k * (k - 1)) / k) - 1;
    return `${'['.repeat(k)}${'x'.repeat(reach)}${']'.repeat(k)} [${'x'.repeat(n - k * reach - k * (k - 1))}] `;
  };
  // maxReferenceChars: b `[` in all, one of them a definition line of L - 1 characters, with b * L = n.
  const referencesOf = (n: number) => {
    const b = Array.from({ length: 450 }, (_, i) => i + 2).find((k) => n % k === 0 && n / k <= 15_000 && n / k >= 20)!;
    return `[a]: http://x/${'y'.repeat(n / b - 15)}\n\n${'[a] '.repeat(b - 1)}`;
  };
  const bodyOf = (limit: string, n: number) =>
    limit === 'maxLines'
      ? `start${'\n'.repeat(n)}end`
      : limit === 'maxLabelChars'
        ? `${labelsOf(n)}long enough body`
        : limit === 'maxReferenceChars'
          ? `${referencesOf(n)}long enough body`
          : `${UNITS[limit]!.repeat(n)}long enough body`;
  // What the limit counts in `bodyOf(limit, n)`: the text line is one more block line, n line breaks make n + 1 lines.
  const counted = (limit: string, n: number) => (limit === 'maxLines' || limit === 'maxBlockLines' ? n + 1 : n);
  await t.test('should accept the limits together up to 200 % and refuse 201 % (maxWork), naming each share', () => {
    // Links at their limit (100 %), code spans and emphasis runs at half theirs (50 % each), on one line.
    const atBudget = `${'[a](b) '.repeat(500)}${'`a` '.repeat(250)}${'*a* '.repeat(250)}`;
    assert.ok(parseCommentDocument(doc(base, atBudget), TODAY));
    try {
      parseCommentDocument(doc(base, `${atBudget}${'*a* '.repeat(5)}`), TODAY);
      assert.fail('accepted');
    } catch (error) {
      assert.ok(error instanceof CommentRuleError, String(error));
      assert.deepEqual(error.work, { limit: 'maxWork', value: 201, max: 200 });
      assert.match(error.message, /^body uses 201 % of the rendering-work limits together \(`\[` characters outside fenced code 100 %, runs of `\*`\/`_`\/`~~` 51 %, runs of backticks outside fenced code 50 %\); at most 200 %/);
    }
  });
  await t.test('should refuse a run of more than 32 `*` or `_` (7,000 `*`, a letter, 7,000 `*`: 6.7 s to render, then out of stack) naming maxRunLength', () => {
    refusedWork(`${'*'.repeat(7000)}a${'*'.repeat(7000)}`, 'maxRunLength', 7000, 32);
    refusedWork(`text\n\n${'_'.repeat(33)}a${'_'.repeat(33)} text`, 'maxRunLength', 33, 32);
    assert.match(refused(() => parseCommentDocument(doc(base, `ok\n\n${'*'.repeat(40)}x`), TODAY), 'body').message, /^body has a run of 40 `\*` or `_` \(line 3\), which may nest emphasis 20 levels deep; at most 32 in a run: /);
    assert.ok(parseCommentDocument(doc(base, `${'*'.repeat(32)}a${'*'.repeat(32)} and ***bold italic***`), TODAY));
    assert.ok(parseCommentDocument(doc(base, `A rule of 80 stars:\n\n${'*'.repeat(80)}\n\n${'_ '.repeat(40)}\n\nthen text`), TODAY), 'a thematic break is no run');
  });
  await t.test('should count every column of a table for each of its rows, also rows without `|` (999 columns over 397 such rows: 1.4 s) naming maxTableCells', () => {
    refusedWork(`${'a|'.repeat(999)}\n${'-|'.repeat(999)}\n${'x\n'.repeat(397)}`, 'maxTableCells', 999 + 999 + 397 * 999, 2000);
    assert.equal(measureBody('|a|b|c|\n|-|-|-|\nx\ny\n\nafter a blank line | no table').tableCells, 8 + 3 + 3 + 1);
    assert.equal(measureBody('a | b\n--|--\n|1|2|3|\n').tableCells, 1 + 1 + 4, 'a row with more cells counts its `|`');
  });
  await t.test('should refuse one long reference definition used 498 times (7 MB of HTML from 16 KiB) naming maxReferenceChars', () => {
    refusedWork(`[a]: http://x/${'y'.repeat(14_000)}\n\n${'[a] '.repeat(498)}`, 'maxReferenceChars', 499 * 14_015, 250_000);
    assert.equal(measureBody('[1]: http://a.example "A"\n[2]: http://b\n\nSee [1] and [2], [x](y).').referenceChars, 5 * 26, 'the longest definition times the brackets');
    assert.equal(measureBody('[a](http://x/' + 'y'.repeat(5000) + ') [b] [c]').referenceChars, 0, 'no definition');
  });
  await t.test('should refuse 499 `[`, 15,000 tabs and 499 `]` (0.7 s to render, within every other limit) naming maxLabelChars', () => {
    // An outside sweep's body: each `]` copies and normalizes the text back to its `[`.
    refusedWork(`${'['.repeat(499)}${'\t'.repeat(15_000)}${']'.repeat(499)}`, 'maxLabelChars', 499 * 60_000 + 499 * 498, 1_000_000);
  });
  for (const rule of COMMENT_WORK_LIMITS) {
    await t.test(`should accept ${rule.max} and refuse ${rule.max + 1} ${rule.what}`, () => {
      const n = (value: number) => (counted(rule.limit, 0) === 1 ? value - 1 : value);
      assert.equal(counted(rule.limit, n(rule.max)), rule.max);
      assert.ok(parseCommentDocument(doc(base, bodyOf(rule.limit, n(rule.max))), TODAY));
      refusedWork(bodyOf(rule.limit, n(rule.max + 1)), rule.limit, rule.max + 1, rule.max);
    });
  }
});

test('validateCommentFields', async (t) => {
  await t.test('should apply the document rules to a JSON record', () => {
    const ok = validateCommentFields({ author: 'a', model: 'm', type: 'debate', position: 'pro', body: '  A body long enough.  ' }, TODAY);
    assert.deepEqual(ok, { author: 'a', model: 'm', date: TODAY, type: 'debate', position: 'pro', body: 'A body long enough.' });
    refused(() => validateCommentFields({ author: '\u001b[31mred', model: 'm', type: 'supplement', body: 'A body long enough.' }, TODAY), 'author');
    refused(() => validateCommentFields({ author: 'a', model: 'm', type: 'debate', body: 'A body long enough.' }, TODAY), 'position', /^front_matter\/position is required with type debate/);
    refused(() => validateCommentFields({ author: 'a', model: 'm', type: 'supplement', body: 'bad \ud800 surrogate text' }, TODAY), 'body', /lone surrogate/);
  });
});

test('printable', async (t) => {
  await t.test('should escape ANSI and other terminal controls', () => {
    assert.equal(printable('\u001b[2J\u001b[Hhi'), '\\u001b[2J\\u001b[Hhi');
    assert.equal(printable('\u0007\u001b]0;owned\u0007'), '\\u0007\\u001b]0;owned\\u0007');
    assert.equal(printable('a\u202Eb\u200Bc\u2028\u{E0041}'), 'a\\u202eb\\u200bc\\u2028\\u{e0041}');
    assert.equal(printable('plain text, ünïcode ✓'), 'plain text, ünïcode ✓');
  });
});

test('commentRulesMarkdown', async (t) => {
  await t.test('should state every limit from COMMENT_RULES', () => {
    const text = commentRulesMarkdown().join('\n');
    for (const n of [COMMENT_RULES.maxBytes, COMMENT_RULES.minBodyChars, COMMENT_RULES.maxNameChars, COMMENT_RULES.maxDepth, COMMENT_RULES.maxDelimiterRuns]) {
      assert.ok(text.includes(String(n)), `missing ${n}`);
    }
    assert.ok(text.includes(COMMENT_RULES.minDate));
  });
});

test('invalid UTF-8 is refused naming the part and line that hold it', async (t) => {
  const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));
  await t.test('in a front-matter value: that key', () => {
    const error = refused(() => decodeCommentBytes(bytes('---\nauthor: a\nmodel: Ren', [0xe9], '\ntype: supplement\n---\nA body that is long enough.\n')), 'model', /front_matter\/model must be valid UTF-8 text: byte 0xE9 on line 3/);
    assert.ok(error);
  });
  await t.test('in the body, after the front matter closed', () => {
    refused(() => decodeCommentBytes(bytes(doc(base), 'second line ', [0xc3, 0x28])), 'body', /^body must be valid UTF-8 text: byte 0xC3 on line 7/);
  });
  await t.test('in front matter that is not a key line', () => {
    refused(() => decodeCommentBytes(bytes('---\n', [0xff], '\n---\nbody\n')), 'front_matter', /line 2/);
  });
  await t.test('the validator agrees with the Encoding Standard decoder', () => {
    const fatal = new TextDecoder('utf-8', { fatal: true });
    const samples: number[][] = [[0x41], [0xc2, 0xa9], [0xc0, 0xaf], [0xe0, 0x80, 0xaf], [0xe0, 0xa0, 0x80], [0xed, 0xa0, 0x80], [0xed, 0x9f, 0xbf], [0xf0, 0x8f, 0xbf, 0xbf], [0xf0, 0x90, 0x80, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xf4, 0x8f, 0xbf, 0xbf], [0xf5, 0x80, 0x80, 0x80], [0xe2, 0x82], [0x80], [0xff]];
    for (const sample of samples) {
      const input = Uint8Array.from([0x61, ...sample, 0x62]);
      let valid = true;
      try {
        fatal.decode(input);
      } catch {
        valid = false;
      }
      assert.equal(firstInvalidUtf8(input), valid ? -1 : 1, `bytes ${sample.map((b) => b.toString(16)).join(' ')}`);
    }
  });
});
