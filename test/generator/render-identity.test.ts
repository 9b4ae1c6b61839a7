/**
 * The post renderer of issue 13 (one frozen processor per thread, one rehype pass for
 * heading ids + highlighting + scroll regions, grammars registered on first use) must
 * give byte-identical HTML and notes to the pipeline it replaced
 * (bench/reference-renderer.ts): on hand-made edge cases, on every post of the repo's
 * content/posts, and on the first AGORA_IDENTITY_POSTS posts of the generated bench
 * corpus (default 1,000, ~15 s; `AGORA_IDENTITY_POSTS=4000` is the whole `bench:compare`
 * corpus, ~1 min; 0 skips it). `npm run bench:render` checks all 4,000 on every run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import hljs from 'highlight.js/lib/core';
import { splitFrontMatter } from '../../packages/generator/src/index.ts';
import { renderMarkdown } from '../../packages/generator/src/render/markdown.ts';
import { LANGUAGES } from '../../packages/generator/src/render/languages.ts';
import { GRAMMAR_ALIASES, GRAMMAR_EMBEDS, GRAMMAR_NAMES, loadGrammar } from '../../packages/generator/src/render/grammars.ts';
import { renderReference } from '../../bench/reference-renderer.ts';
import { generateCorpus } from '../../bench/corpus.ts';

const REPO = join(import.meta.dirname, '..', '..');
const CORPUS_POSTS = Number(process.env.AGORA_IDENTITY_POSTS ?? 1000);

async function bodies(root: string): Promise<[string, string][]> {
  const dir = join(root, 'content', 'posts');
  const files = (await readdir(dir)).filter((f) => f.endsWith('.md')).sort();
  return Promise.all(files.map(async (f): Promise<[string, string]> => [f, splitFrontMatter(await readFile(join(dir, f), 'utf8')).body]));
}

/** Names of the bodies whose rendering differs from the reference (HTML or notes). */
function differing(items: readonly [string, string][]): string[] {
  const out: string[] = [];
  for (const [name, markdown] of items) {
    const got = renderMarkdown(markdown);
    const want = renderReference(markdown);
    if (got.html !== want.html || JSON.stringify(got.notes) !== JSON.stringify(want.notes)) out.push(name);
  }
  return out;
}

const EDGE_CASES: [string, string][] = [
  ['languages and aliases', ['Conclusion.', ...['sh', 'zsh', 'js', 'TS', 'Bash', 'yml', 'py', 'html', 'console', 'shell', 'docker', 'https', 'http', 'xml', 'markdown', 'php-template', 'pycon', 'toml', 'c++', 'text', 'Text', 'txt', 'log', 'no-highlight', 'nohighlight', 'klingon', 'graphql', 'yaml'].map((l) => `\`\`\`${l}\nGET /a HTTP/1.1\nHost: x\n\n{"a": [1, "<b>"]}\n<script>let x = 1 < 2 && "y";</script>\n$ echo 'hi' # done\n\`\`\``)].join('\n\n')],
  ['http auto-detects its body over every grammar', 'Conclusion.\n\n```http\nPOST /api HTTP/1.1\nContent-Type: application/json\n\n{"key": "value", "n": 1}\n```\n\n```sh\nls\n```\n'],
  ['headings: duplicates, inline code, emphasis, empty, unicode', 'Conclusion.\n\n## Setup\n\n## Setup\n\n### `nginx -t` *works* **now**\n\n#\n\n## Ünïcode — “quotes” & <tags>\n\nSetup\n=====\n'],
  ['nested code, tables and headings', 'Conclusion.\n\n> ## In a quote\n>\n> ```bash\n> echo quoted\n> ```\n\n- item\n\n  ```python\n  print(1)\n  ```\n\n  | a | b |\n  |---|---|\n  | 1 | 2 |\n\n1. ## Heading in a list\n'],
  ['code without language, empty code, indented code', '## Heading first\n\n```\nno language\n```\n\n```bash\n```\n\n    indented code\n\nText with `inline` code and ~~strike~~ and [ ] not a task.\n'],
  ['GFM parts', 'Conclusion.\n\n| port | service |\n|---:|:---|\n| 5432 | `postgres` |\n\n- [x] done\n- [ ] todo\n\n~~old~~ new ~one~\n'],
  ['raw HTML is dropped', 'Conclusion.\n\n<div class="x">\n\n## Inside\n\n</div>\n\n<pre><code class="language-bash">echo raw</code></pre>\n'],
];

test('grammars.ts tables match the grammars of languages.ts', () => {
  assert.deepEqual([...GRAMMAR_NAMES], Object.keys(LANGUAGES));
  const aliases: Record<string, string> = {};
  const embeds: Record<string, string[]> = {};
  for (const [name, fn] of Object.entries(LANGUAGES)) {
    assert.equal(loadGrammar(name).toString(), fn.toString(), `${name}: the CommonJS grammar is the one lowlight registers`);
    const def = fn(hljs);
    for (const alias of def.aliases ?? []) aliases[alias.toLowerCase()] = name;
    const found = new Set<string>();
    const seen = new Set<unknown>();
    const walk = (value: unknown): void => {
      if (!value || typeof value !== 'object' || seen.has(value)) return;
      seen.add(value);
      const mode = value as Record<string, unknown>;
      if (typeof mode.subLanguage === 'string') found.add(mode.subLanguage);
      else if (Array.isArray(mode.subLanguage)) {
        if (mode.subLanguage.length === 0) found.add('*');
        for (const s of mode.subLanguage) found.add(String(s));
      }
      for (const v of Object.values(mode)) walk(v);
    };
    walk(def);
    const list = [...found].filter((l) => l === '*' || (l in LANGUAGES && l !== name));
    if (list.length > 0) embeds[name] = list;
  }
  for (const name of Object.keys(LANGUAGES)) delete aliases[name];
  assert.deepEqual({ ...GRAMMAR_ALIASES }, aliases);
  assert.deepEqual({ ...GRAMMAR_EMBEDS }, embeds);
});

test('renderMarkdown is byte-identical to the pre-issue-13 pipeline', async (t) => {
  await t.test('on edge cases', () => {
    assert.deepEqual(differing(EDGE_CASES), []);
    // The cases do reach the paths they are about (so a broken reference cannot pass them).
    const html = renderMarkdown(EDGE_CASES[0]![1]).html;
    assert.match(html, /<pre tabindex="0" role="group" aria-label="Code: http"><code class="hljs language-http">/);
    assert.match(html, /<code class="hljs language-klingon">GET/);
    assert.match(html, /<code class="hljs language-no-highlight">GET/);
    assert.match(renderMarkdown(EDGE_CASES[2]![1]).html, /<h2 id="setup-1">Setup<\/h2>/);
  });

  await t.test('on content/posts', async () => {
    const items = await bodies(REPO);
    assert.ok(items.length > 0);
    assert.deepEqual(differing(items), []);
  });

  await t.test(`on the generated bench corpus (${CORPUS_POSTS} posts)`, { skip: CORPUS_POSTS === 0 }, async () => {
    const base = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
    const dir = await mkdtemp(join(base, 'agora-identity-'));
    try {
      await generateCorpus(dir, CORPUS_POSTS, { legacyComments: false });
      const items = await bodies(dir);
      assert.equal(items.length, CORPUS_POSTS);
      assert.deepEqual(differing(items), []);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

test('the identity check can fail', () => {
  // A one-character change in the output is caught.
  const [name, markdown] = EDGE_CASES[2]!;
  const want = renderReference(markdown);
  assert.notEqual(renderMarkdown(markdown.replace('## Setup\n\n## Setup', '## Setup\n\n## Setup!')).html, want.html, name);
});

test('a post\'s links and images keep safe URLs only', async (t) => {
  await t.test('should drop javascript:, data: and vbscript: URLs and keep relative, http(s) and mailto ones', () => {
    const html = renderMarkdown([
      '[js](javascript:alert(1)) [JS](JaVaScRiPt:alert(2)) [vb](vbscript:msgbox) [data](data:text/html;base64,PHNjcmlwdD4=)',
      '![img](javascript:alert(3)) ![pixel](data:image/png;base64,AAAA)',
      '[rel](../other/) [abs](/api/posts) [q](?a=b:c) [frag](#x:y) [web](https://example.com/a:b) [mail](mailto:a@example.com)',
      '<javascript:alert(4)> <https://example.com>',
    ].join('\n\n')).html;
    assert.doesNotMatch(html, /(href|src)="\s*(javascript|vbscript|data):/i);
    for (const kept of ['href="../other/"', 'href="/api/posts"', 'href="?a=b:c"', 'href="#x:y"', 'href="https://example.com/a:b"', 'href="mailto:a@example.com"', 'href="https://example.com"']) {
      assert.ok(html.includes(kept), kept);
    }
    assert.match(html, /<a>js<\/a>/, 'the link text stays, without its URL');
    assert.match(html, /<img alt="img">/);
  });
});
