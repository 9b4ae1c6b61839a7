import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { build, commentRulesMarkdown, countTextTokens, parseCommentDocument } from '@agora/generator';
import { exampleComment } from '../../packages/generator/src/render/pages/agent-instructions.ts';
import { makeProject, postSource } from '../helpers/project.ts';
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import { existsSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';

/**
 * The llms.txt format of llmstxt.org, strictly: an H1 title; an optional blockquote;
 * optional markdown that is not a heading; then H2 sections, each only a markdown list
 * of `[name](url)` links with optional `: notes`. Every line that fits none of these is
 * reported (the reference parser silently drops such lines).
 */
function parseLlmsTxt(text: string): { title: string; summary?: string; info: string[]; sections: Map<string, { name: string; url: string; notes?: string }[]>; stray: string[] } {
  const lines = text.split('\n');
  const stray: string[] = [];
  let i = 0;
  const skipBlank = () => {
    while (i < lines.length && lines[i]!.trim() === '') i++;
  };
  const title = /^# (.+)$/.exec(lines[i] ?? '')?.[1];
  if (!title) throw new Error(`line 1 must be an H1 title, got ${JSON.stringify(lines[0])}`);
  i++;
  skipBlank();
  let summary: string | undefined;
  if (lines[i]?.startsWith('>')) {
    summary = lines[i]!.replace(/^>\s?/, '');
    i++;
  }
  const info: string[] = [];
  for (; i < lines.length && !lines[i]!.startsWith('## '); i++) {
    if (/^#{1,6}\s/.test(lines[i]!)) stray.push(`${i + 1}: heading before the first section: ${lines[i]}`);
    else if (lines[i]!.trim() !== '') info.push(lines[i]!);
  }
  const sections = new Map<string, { name: string; url: string; notes?: string }[]>();
  let current: { name: string; url: string; notes?: string }[] | null = null;
  const link = /^- \[([^\]]+)\]\(([^)\s]+)\)(?::\s*(.*))?$/;
  for (; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith('## ')) {
      current = [];
      sections.set(line.slice(3), current);
    } else if (line.trim() === '') continue;
    else {
      const m = link.exec(line);
      if (m && current) current.push({ name: m[1]!, url: m[2]!, ...(m[3] ? { notes: m[3] } : {}) });
      else stray.push(`${i + 1}: ${line}`);
    }
  }
  return { title, summary, info, sections, stray };
}

test('llms.txt, llms-full.txt and agents.md', async (t) => {
  const project = await makeProject({ samplePosts: true, catalog: true });
  t.after(() => project.remove());
  await build(project.config);
  const dist = project.config.distDir;
  const llms = await readFile(join(dist, 'llms.txt'), 'utf8');

  await t.test('should follow the llmstxt.org format with no stray lines', () => {
    const parsed = parseLlmsTxt(llms);
    assert.deepEqual(parsed.stray, []);
    assert.equal(parsed.title, 'Agora');
    assert.ok(parsed.summary);
    assert.ok(parsed.info.length > 0, 'prose before the first section');
    assert.ok(parsed.sections.has('Troubleshooting'));
    assert.ok(parsed.sections.has('For agents'));
    assert.ok([...parsed.sections.values()].every((links) => links.length > 0));
  });

  await t.test('should catch a stray line (the parser can fail)', () => {
    assert.deepEqual(parseLlmsTxt('# T\n\n> s\n\n## A\n\n- [x](https://a.example/x)\nSend a POST\n').stray, ['8: Send a POST']);
  });

  await t.test('should say what {slug} is, with an example, and link agents.md', () => {
    const info = parseLlmsTxt(llms).info.join('\n');
    assert.match(info, /`\{slug\}` is the last path segment/);
    assert.match(info, /has the slug `[^`]+`/);
    assert.ok(parseLlmsTxt(llms).sections.get('For agents')?.some((l) => l.url === 'https://agora.example/agents.md'));
  });

  await t.test('should carry the posting instructions before the first section, from the comment rules', async () => {
    const info = parseLlmsTxt(llms).info.join('\n');
    assert.ok(info.includes('`POST https://agora.example/api/comments/{slug}`'), 'endpoint');
    assert.ok(info.includes('`X-API-Key: agora-public-comment-key`'), 'key and value');
    assert.ok(info.includes('`Content-Type: text/plain; charset=utf-8`'), 'media type');
    for (const line of commentRulesMarkdown()) assert.ok(info.includes(line), `rule: ${line.slice(0, 40)}`);
    assert.match(info, /`type`: required: `supplement`, `correction` or `debate`/);
    assert.match(info, /`pro`, `con` or `neutral`/);
    assert.ok(info.includes(['```markdown', exampleComment().trimEnd(), '```'].join('\n')), 'one example document');
    assert.doesNotThrow(() => parseCommentDocument(exampleComment(), '2025-11-20'), 'the example is a valid document');
  });

  await t.test('should state the exact token count of llms-full.txt', async () => {
    const full = await readFile(join(dist, 'llms-full.txt'), 'utf8');
    const claim = /\[All posts in full\]\([^)]+\): every post with its metadata \(([\d,]+) tokens\)/.exec(llms)?.[1];
    assert.equal(claim, countTextTokens(full).toLocaleString('en-US'));
  });

  await t.test('should give each post its size in o200k_base tokens', async () => {
    const posts = [...parseLlmsTxt(llms).sections.values()].flat().filter((l) => l.url.endsWith('/post.md'));
    assert.equal(posts.length, 16);
    for (const post of posts) {
      const source = await readFile(join(dist, decodeURIComponent(new URL(post.url).pathname)), 'utf8');
      assert.ok(post.notes?.endsWith(`(${countTextTokens(source).toLocaleString('en-US')} tokens)`), post.notes);
    }
  });

  await t.test('should write agents.md from the comment rules', async () => {
    const agents = await readFile(join(dist, 'agents.md'), 'utf8');
    assert.match(agents, /X-API-Key: agora-public-comment-key/);
    assert.match(agents, /`position`: required with `type: debate`/);
    assert.match(agents, /has the slug `/);
  });

  await t.test('should keep llms-full.txt whole for a small site', async () => {
    const full = await readFile(join(dist, 'llms-full.txt'), 'utf8');
    assert.equal(full.match(/^slug: /gm)?.length, 16);
    assert.ok(!(await readdir(dist)).some((f) => /^llms-full-\d+\.txt$/.test(f)));
  });

  await t.test('should give each entry a header that parses as YAML into the post\'s own fields', async () => {
    const full = await readFile(join(dist, 'llms-full.txt'), 'utf8');
    const posts = JSON.parse(await readFile(join(dist, 'api/posts'), 'utf8')) as Record<string, string>[];
    const heads = [...full.matchAll(/^---\n([\s\S]*?)\n---\n/gm)].map((m) => parseYaml(m[1]!, { schema: 'core' }) as Record<string, string>);
    assert.equal(heads.length, 16);
    for (const head of heads) {
      const post = posts.find((p) => p.slug === head.slug);
      assert.ok(post, `a post ${head.slug}`);
      for (const key of ['title', 'date', 'model', 'author_type', 'category', 'summary', 'tags'] as const) assert.equal(head[key], post[key], `${head.slug} ${key}`);
    }
    assert.ok(heads.some((h) => h.title?.includes(': ')), 'a title with ": " (quoted in the header)');
  });
});

test('llms-full.txt split by llmsFullMaxTokens', async (t) => {
  const max = 3000;
  const project = await makeProject({ samplePosts: true, files: { 'agora.config.json': JSON.stringify({ llmsFullMaxTokens: max }) } });
  t.after(() => project.remove());
  await build(project.config);
  const dist = project.config.distDir;
  const index = await readFile(join(dist, 'llms-full.txt'), 'utf8');

  await t.test('should turn llms-full.txt into an index of parts of at most the limit', async () => {
    const parts = [...index.matchAll(/\]\(https:\/\/agora\.example\/(llms-full-(\d+)\.txt)\)/g)].map((m) => m[1]!);
    assert.ok(parts.length >= 4, `${parts.length} parts`);
    assert.deepEqual(parseLlmsTxt(index).stray, []);
    let slugs = 0;
    for (const part of parts) {
      const text = await readFile(join(dist, part), 'utf8');
      assert.ok(countTextTokens(text) <= max, `${part}: ${countTextTokens(text)} tokens`);
      slugs += text.match(/^slug: /gm)?.length ?? 0;
    }
    assert.equal(slugs, 16, 'every post in exactly one part');
    const stated = [...index.matchAll(/\]\(https:\/\/agora\.example\/(llms-full-\d+\.txt)\): .*, ([\d,]+) tokens$/gm)];
    let sum = 0;
    for (const [, part, tokens] of stated) {
      const exact = countTextTokens(await readFile(join(dist, part!), 'utf8'));
      assert.equal(tokens, exact.toLocaleString('en-US'), `${part}: stated size is exact`);
      sum += exact;
    }
    assert.equal(stated.length, parts.length);
    assert.match(index, new RegExp(`all 16 posts is ${sum.toLocaleString('en-US')} tokens`));
    assert.ok(!(await readdir(dist)).includes(`llms-full-${parts.length + 1}.txt`));
  });

  await t.test('should give every part the llms files\' rule in _headers, as the writer serves them', async () => {
    // Netlify and Cloudflare Pages apply every rule whose path matches: `:name` is one
    // segment, `*` any characters. The parts had no rule: a static host sent them with its
    // own guess of a type and without the CORS header that llms-full.txt, which links them, has.
    const rules = (await readFile(join(dist, '_headers'), 'utf8')).split(/\n(?=\/)/).map((block) => {
      const [path, ...lines] = block.trim().split('\n');
      const pattern = new RegExp(`^${path!.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/:[a-z]+/g, '[^/]+')}$`);
      return { pattern, headers: lines.map((l) => l.trim()).filter((l) => !l.startsWith('#')) };
    });
    const headersOf = (path: string) => rules.filter((r) => r.pattern.test(path)).flatMap((r) => r.headers);
    const parts = (await readdir(dist)).filter((f) => /^llms-full-\d+\.txt$/.test(f));
    assert.ok(parts.length >= 4);
    for (const file of ['llms-full.txt', ...parts]) {
      const headers = headersOf(`/${file}`);
      assert.ok(headers.includes('Content-Type: text/plain; charset=utf-8'), `${file}: ${JSON.stringify(headers.filter((h) => !/Policy|^X-|Origin-Agent/.test(h)))}`);
      assert.ok(headers.includes('Access-Control-Allow-Origin: *'), `${file}: readable from other sites' scripts`);
    }
  });

  await t.test('should refuse a bad llmsFullMaxTokens naming the key', async () => {
    await project.write('agora.config.json', JSON.stringify({ llmsFullMaxTokens: 'lots' }));
    const { loadConfig } = await import('@agora/generator');
    assert.throws(() => loadConfig({ root: project.root }), /llmsFullMaxTokens/);
  });
});

test('markdown links to posts whose slug has an unbalanced parenthesis', async (t) => {
  const slug = '2025-12-07-paren(open';
  const project = await makeProject({ samplePosts: true, files: { [`content/posts/${slug}.md`]: postSource({ title: 'Unbalanced paren slug', category: 'knowhow', model: 'paren (model' }) } });
  t.after(() => project.remove());
  await build(project.config);
  const dist = project.config.distDir;
  // Every link a markdown parser finds, as the path it names (decoded, site-relative).
  const linkedPaths = async (file: string) => {
    type Node = { type: string; url?: string; children?: Node[] };
    const paths: string[] = [];
    const walk = (node: Node): void => {
      if (node.type === 'link' && node.url) paths.push(decodeURIComponent(new URL(node.url).pathname));
      node.children?.forEach(walk);
    };
    walk(unified().use(remarkParse).parse(await readFile(join(dist, file), 'utf8')) as Node);
    return paths;
  };

  for (const file of ['llms.txt', 'knowhow/index.md', 'index.md']) {
    await t.test(`should stay a link in ${file}, to a file that exists`, async () => {
      const paths = await linkedPaths(file);
      const path = `/knowhow/${slug}/post.md`;
      assert.ok(paths.includes(path), `${file} links ${path}; it has ${paths.filter((p) => p.includes('paren')).join(', ') || 'no such link'}`);
      assert.ok(existsSync(join(dist, path)));
    });
  }
});

test('agents.md names the catalog tools only where the site has a catalog, as the MCP server lists them', async () => {
  const tools = /`get_catalog`|`call_public_data`/g;
  const without = await makeProject();
  const withCatalog = await makeProject({ catalog: true });
  try {
    await build(without.config);
    await build(withCatalog.config);
    const plain = await readFile(join(without.config.distDir, 'agents.md'), 'utf8');
    const full = await readFile(join(withCatalog.config.distDir, 'agents.md'), 'utf8');
    assert.deepEqual(plain.match(tools), null);
    assert.ok(plain.includes('`post_comment`'));
    assert.deepEqual(full.match(tools), ['`get_catalog`', '`call_public_data`']);
  } finally {
    await without.remove();
    await withCatalog.remove();
  }
});

test('llms.txt and the index.md twins give titles and summaries back as written, not as markup', async () => {
  const title = 'Escaping <script>alert(1)</script> *stars* _emph_ `code` &amp; snake_case';
  const summary = 'A <b>bold</b> claim with *emphasis* and a [link](x)';
  const project = await makeProject({ files: { 'content/posts/2025-05-01-tricky.md': postSource({ title, summary, category: 'guide' }) } });
  try {
    await build(project.config);
    for (const file of ['llms.txt', 'guide/index.md']) {
      const text = await readFile(join(project.config.distDir, file), 'utf8');
      const line = text.split('\n').find((l) => l.startsWith('- [') && l.includes('2025-05-01-tricky'));
      assert.ok(line, `${file} lists the post`);
      type Inline = { type: string; children?: { type: string; value: string }[]; value?: string };
      const root = unified().use(remarkParse).parse(line) as unknown as { children: { children: { children: { children: Inline[] }[] }[] }[] };
      // root → list → item → paragraph → inline nodes
      const paragraph = root.children[0]!.children[0]!.children[0]!.children;
      const link = paragraph.find((n) => n.type === 'link');
      assert.deepEqual(link?.children?.map((n) => n.type), ['text'], `${file}: the title is one text node`);
      assert.equal(link?.children?.[0]?.value, title);
      const after = paragraph.slice(paragraph.indexOf(link!) + 1);
      assert.deepEqual([...new Set(after.map((n) => n.type))], ['text'], `${file}: the summary is text`);
      assert.ok(after.map((n) => n.value).join('').includes(summary), `${file}: ${after.map((n) => n.value).join('')}`);
    }
  } finally {
    await project.remove();
  }
});

test('llms-full.txt headers read back as the posts\' strings under YAML 1.1 too (PyYAML: `no`, `On`, `1:30`)', async () => {
  // The header was quoted for YAML 1.2 only: `model: no` read as false, `title: On` as true and
  // `summary: 1:30` as 90 in YAML 1.1 readers such as PyYAML, the one most Python agents use.
  const tricky: Record<string, Partial<Record<'title' | 'model' | 'summary' | 'tags', string>>> = {
    '2025-05-01-one.md': { title: 'On', model: 'no', summary: '1:30', tags: 'yes' },
    '2025-05-02-two.md': { title: '2025-09-14', model: 'Off', summary: '1_000', tags: 'y' },
  };
  const files = Object.fromEntries(Object.entries(tricky).map(([file, fields]) => [`content/posts/${file}`, postSource({ ...fields, date: file.slice(0, 10) })]));
  const project = await makeProject({ files });
  try {
    await build(project.config);
    const full = await readFile(join(project.config.distDir, 'llms-full.txt'), 'utf8');
    const heads = [...full.matchAll(/^---\n([\s\S]*?)\n---\n/gm)].map((m) => m[1]!);
    assert.equal(heads.length, 2);
    for (const head of heads) {
      const core = parseYaml(head, { schema: 'core' }) as Record<string, string>;
      const fields = tricky[`${core.slug}.md`]!;
      for (const version of ['1.1', '1.2'] as const) {
        const read = parseYaml(head, { version }) as Record<string, unknown>;
        for (const key of ['title', 'model', 'summary', 'tags'] as const) assert.equal(read[key], fields[key], `YAML ${version} ${core.slug} ${key}:\n${head}`);
      }
    }
  } finally {
    await project.remove();
  }
});

test('llms.txt links a post whose title has a `]` as the llmstxt.org reference parser reads links (`[^\\]]+`), and markdown still reads the title back', async () => {
  const title = 'Array[int] vs list[int]: typing\\] the [brackets]';
  const project = await makeProject({ files: { 'content/posts/2025-05-01-brackets.md': postSource({ title, category: 'guide' }) } });
  try {
    await build(project.config);
    for (const file of ['llms.txt', 'guide/index.md']) {
      const text = await readFile(join(project.config.distDir, file), 'utf8');
      const line = text.split('\n').find((l) => l.startsWith('- [') && l.includes('2025-05-01-brackets'));
      assert.ok(line, `${file} lists the post`);
      // The reference parser (llms_txt/miniparse.py, `-\s*\[(?P<title>[^\]]+)\]\((?P<url>[^\)]+)\)`)
      // found no link on the line with `\]` and stopped with an AttributeError on the whole file.
      assert.match(line, /^-\s*\[[^\]]+\]\([^)]+\)(?::\s*.*)?$/, `${file}: ${line}`);
      const root = unified().use(remarkParse).parse(line) as unknown as { children: { children: { children: { children: { type: string; children?: { value: string }[] }[] }[] }[] }[] };
      const link = root.children[0]!.children[0]!.children[0]!.children.find((n) => n.type === 'link');
      assert.equal(link?.children?.map((n) => n.value).join(''), title, `${file}: the title as written`);
    }
    assert.deepEqual(parseLlmsTxt(await readFile(join(project.config.distDir, 'llms.txt'), 'utf8')).stray, []);
  } finally {
    await project.remove();
  }
});
