import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderMarkdown } from '../../packages/generator/src/render/markdown.ts';
import { HIGHLIGHT_BUDGET_CHARS, renderCommentMarkdown } from '../../packages/generator/src/render/comment-markdown.ts';

test('renderMarkdown', async (t) => {
  await t.test('should render the GFM parts posts use', () => {
    const { html } = renderMarkdown('Conclusion.\n\n| port | service |\n|---|---|\n| 5432 | postgres |\n\n~~old~~ new\n\n- [x] done\n- [ ] todo\n');
    assert.match(html, /<table>[\s\S]*<td>5432<\/td>/);
    assert.match(html, /<del>old<\/del>/);
    assert.match(html, /<input type="checkbox" checked disabled aria-label="done"> done/);
  });

  await t.test('should give headings ids and highlight code at build time', () => {
    const { html, notes } = renderMarkdown('Conclusion first.\n\n## Reload nginx\n\n```bash\nsudo systemctl reload nginx\n```\n');
    assert.match(html, /<h2 id="reload-nginx">Reload nginx<\/h2>/);
    assert.match(html, /<code class="hljs language-bash">/);
    assert.deepEqual(notes, []);
  });

  await t.test('should drop raw HTML and note the style rules', () => {
    const { html, notes } = renderMarkdown('## Heading first\n\n<script>alert(1)</script>\n\n```\nno language\n```\n');
    assert.doesNotMatch(html, /<script>/);
    assert.deepEqual(notes.map((n) => [n.ruleId, n.line]), [['conclusion-first', 1], ['code-lang', 5]]);
  });

  await t.test('should note headings that repeat the title\'s level 1 or skip a level, and links without text (axe flagged each on the page)', () => {
    const body = 'Conclusion first.\n\n# Title again\n\n## Setup\n\n#### Too deep\n\n### Fine\n\nSee [](https://example.com/x), [`code`](https://example.com/c), [![logo](/l.png)](/) and [![](/i.png)](/i).\n';
    const { notes } = renderMarkdown(body);
    assert.deepEqual(notes.map((n) => [n.ruleId, n.line, n.column]), [['heading-levels', 3, 1], ['heading-levels', 7, 1], ['link-text', 11, 5], ['link-text', 11, 90]]);
    assert.match(notes[1]!.message, /level-4 heading after level 2/);
    assert.equal(notes[1]!.fix, 'make it `###`');
    assert.match(notes[2]!.message, /without text to `https:\/\/example\.com\/x`/);
    assert.deepEqual(renderMarkdown('Conclusion.\n\n## A\n\n### B\n\n## C\n\n[words](https://example.com)\n').notes, [], 'a well-formed outline');
  });
});

test('renderCommentMarkdown', async (t) => {
  await t.test('should highlight at most HIGHLIGHT_BUDGET_CHARS of code, the rest plain, whatever the grammar costs', () => {
    // 990 lines in a ```c block took 3 s to highlight (quadratic in that grammar), within every work limit.
    const heavy = renderCommentMarkdown('```c\n' + 'a b c d e f g h\n'.repeat(990) + '```\n');
    assert.match(heavy, /<code class="language-c no-highlight">a b c d/);
    assert.doesNotMatch(heavy, /hljs/);
    // Blocks are highlighted in order until the budget: a small one first keeps its colours.
    const mixed = renderCommentMarkdown('Two blocks.\n\n```js\nconst a = 1;\n```\n\n```c\n' + 'int x;\n'.repeat(HIGHLIGHT_BUDGET_CHARS / 7 + 1) + '```\n');
    assert.match(mixed, /<code class="hljs language-js"><span class="hljs-keyword">const<\/span>/);
    assert.match(mixed, /<code class="language-c no-highlight">int x;/);
    assert.match(renderCommentMarkdown('```c\n' + 'int x;\n'.repeat(100) + '```\n'), /<code class="hljs language-c">/, 'within the budget: highlighted');
  });

  await t.test('should sanitize and mark links as user content', () => {
    const html = renderCommentMarkdown('[a](javascript:alert(1)) [b](https://example.com) ![i](https://t.example/p.png) <img src=x onerror=alert(1)>');
    assert.doesNotMatch(html, /javascript:|onerror|<img/);
    assert.match(html, /<a href="https:\/\/example.com" rel="nofollow ugc noopener">b<\/a>/);
  });

  await t.test('should put a comment\'s headings three levels down, so none starts a section of the page\'s outline', () => {
    const html = renderCommentMarkdown('# Symptom\n\n## Cause\n\n### Fix\n\n###### Deep\n\nSetext\n=\n');
    assert.deepEqual([...html.matchAll(/<(h[1-6])>([^<]*)</g)].map((m) => `${m[1]} ${m[2]}`), ['h4 Symptom', 'h5 Cause', 'h6 Fix', 'h6 Deep', 'h4 Setext']);
  });

  await t.test('should keep a task list\'s state as disabled checkboxes, and no other input', () => {
    const html = renderCommentMarkdown('- [ ] open\n- [x] done\n\n<input type="text" value="x"> <input type="checkbox" onclick="alert(1)">');
    // Named, so a screen reader says what the box is (axe: label).
    assert.match(html, /<li class="task-list-item"><input type="checkbox" disabled aria-label="not done"> open<\/li>/);
    assert.match(html, /<li class="task-list-item"><input type="checkbox" checked disabled aria-label="done"> done<\/li>/);
    assert.equal(html.match(/<input/g)?.length, 2, html);
    assert.doesNotMatch(html, /onclick|type="text"/);
  });
});

test('a post\'s task list checkboxes are named, as a comment\'s are', () => {
  // They were <input type="checkbox" disabled> without a name: nothing to a screen reader (axe: label),
  // found auditing a post with a task list in Chromium; comments named theirs already.
  const { html } = renderMarkdown('Conclusion first.\n\n- [ ] open\n- [x] done\n');
  assert.match(html, /<li class="task-list-item"><input type="checkbox" disabled aria-label="not done"> open<\/li>/);
  assert.match(html, /<li class="task-list-item"><input type="checkbox" checked disabled aria-label="done"> done<\/li>/);
  assert.match(renderCommentMarkdown('A comment that has a task list.\n\n- [x] done\n'), /aria-label="done"/);
});
