import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { check, build, ContentError } from '@agora/generator';
import { makeProject, postSource, REPO_ROOT } from '../helpers/project.ts';
import { parsePost } from '../../packages/generator/src/validate/post.ts';
import { toSourceFile } from '../../packages/generator/src/load/posts.ts';

const run = promisify(execFile);

test('check', async (t) => {
  const project = await makeProject({
    files: {
      'content/posts/2025-05-01-good.md': postSource({ date: '2025-05-01' }),
      'content/posts/missing-key.md': '---\ntitle: "No tags"\ndate: 2025-05-02\nmodel: gpt-5\ncategory: guide\nsummary: "s"\n---\nBody first.\n',
      'content/posts/unknown-key.md': postSource().replace('tags: a, b', 'tags: a, b\nauthor: me'),
      'content/posts/bad-date.md': postSource({ date: '2025-02-30' }),
      'content/posts/bad-category.md': postSource({ category: 'news' }),
      'content/posts/a/dup.md': postSource(),
      'content/posts/b/dup.md': postSource(),
      'content/posts/count.md': postSource(),
      'content/posts/feed.json.md': postSource(),
      // Nesting the markdown parser would recurse through until the stack overflows.
      'content/posts/deep-quotes.md': postSource({}, `Conclusion first.\n\n${'>'.repeat(2000)} deep\n`),
      'content/posts/deep-list.md': postSource({}, `Conclusion first.\n\n${Array.from({ length: 1200 }, (_, i) => `${'  '.repeat(i)}- item\n`).join('')}`),
      // So does emphasis: a balanced run of 3,000 `*` overflowed the stack.
      'content/posts/deep-emphasis.md': postSource({}, `Conclusion first.\n\n${'*'.repeat(3000)}x${'*'.repeat(3000)}\n`),
      'content/posts/tagged.md': postSource({ tags: 'ok, Index.HTML' }),
      'content/posts/empty.md': postSource({}, '\n  \n'),
      'content/posts/style.md': '---\ndate: 2025-05-03\ntitle: "Order"\nmodel: gpt-5\ncategory: guide\nsummary: "s"\ntags: x\n---\n## Heading first\n\n```\nno lang\n```\n',
      // A quote or bracket left open: the parser gives up at the closing `---` or the next line.
      'content/posts/open-quote.md': '---\ntitle: "Unclosed quote\ndate: 2025-05-02\nmodel: gpt-5\ncategory: guide\nsummary: s\ntags: a\n---\nBody first.\n',
      'content/posts/open-bracket.md': '---\ntitle: ok\ndate: 2025-05-02\nmodel: [gpt-5\ncategory: guide\nsummary: s\ntags: a\n---\nBody first.\n',
      'content/posts/unclosed.md': '---\ntitle: ok\ndate: 2025-05-02\nmodel: gpt-5\ncategory: guide\nsummary: s\ntags: a\nBody first.\n',
      'content/posts/indented.md': '---\ntitle: ok\ndate: 2025-05-02\nmodel: gpt-5\n  stray: line\ncategory: guide\nsummary: s\ntags: a\n---\nBody first.\n',
      'content/posts/style-and-error.md': postSource({ category: 'blogposts' }, '## Heading first\n\n```\nno lang\n```\n'),
      // Pasted terminal output: the feeds cannot hold an escape character (XML 1.0).
      'content/posts/terminal.md': postSource({}, 'Conclusion first.\n\nOutput: \u001b[31mred\u001b[0m\n'),
      'content/posts/nonchar-title.md': postSource({ title: 'Odd \uffff title' }),
    },
  });
  t.after(() => project.remove());
  // Latin-1 bytes in the title and the body: not UTF-8.
  await writeFile(join(project.root, 'content/posts/latin1.md'), Buffer.from(postSource({ title: 'Caf\u00e9 notes' }), 'latin1'));
  const result = await check(project.config);
  const find = (file: string, ruleId: string) => result.messages.find((m) => m.file === `content/posts/${file}` && m.ruleId === ruleId);

  await t.test('should report every error in every file in one run', () => {
    assert.ok(find('missing-key.md', 'front-matter-required-key'), 'missing tags');
    const unknown = find('unknown-key.md', 'front-matter-unknown-key');
    assert.equal(unknown?.line, 8);
    assert.match(unknown?.message ?? '', /Unexpected key `author`/);
    const date = find('bad-date.md', 'front-matter-date');
    assert.equal(date?.line, 3);
    assert.match(date?.fix ?? '', /date: 2025-09-14/);
    assert.equal(find('bad-category.md', 'front-matter-category')?.line, 5);
    const dup = find('b/dup.md', 'duplicate-slug');
    assert.match(dup?.message ?? '', /already used by `content\/posts\/a\/dup.md`/);
    assert.match(find('count.md', 'slug-reserved')?.message ?? '', /api\/comments\/count/);
    const latin1 = find('latin1.md', 'not-utf8');
    assert.equal(latin1?.message, 'Unexpected byte 0xE9 that is not UTF-8');
    assert.deepEqual([latin1?.line, latin1?.column], [2, 12]);
    const deep = find('deep-quotes.md', 'body-too-deep');
    assert.match(deep?.message ?? '', /2000 levels deep, expected at most 100/);
    assert.equal(deep?.line, 11);
    assert.match(find('deep-list.md', 'body-too-deep')?.message ?? '', /1200 levels deep/);
    const emphasis = find('deep-emphasis.md', 'body-too-deep');
    assert.match(emphasis?.message ?? '', /Unexpected run of 3000 `\*` or `_`, which may nest emphasis 1500 levels deep, expected at most 200 in a run/);
    assert.equal(emphasis?.line, 11);
    assert.match(find('feed.json.md', 'slug-reserved')?.message ?? '', /category feed `\/\{category\}\/feed.json`/);
    assert.match(find('tagged.md', 'tag-name')?.message ?? '', /`Index.HTML`: its page collides with the tag index `\/tags\/index.html`/);
    assert.ok(find('empty.md', 'empty-body'));
    const yamlAt = (file: string) => result.messages.filter((m) => m.file === `content/posts/${file}` && m.ruleId === 'front-matter-syntax').map((m) => [m.line, m.column, m.message]);
    assert.deepEqual(yamlAt('open-quote.md'), [[2, 8, 'Unexpected YAML: Missing closing "quote']], 'where the quote opens, not the closing ---');
    assert.deepEqual(yamlAt('open-bracket.md'), [[4, 8, 'Unexpected YAML: Flow sequence in block collection must be sufficiently indented and end with a ]']], 'where the bracket opens, not the next line');
    assert.equal(yamlAt('indented.md').length, 1, 'one mistake, said once');
    const fixOf = (file: string) => result.messages.find((m) => m.file === `content/posts/${file}` && m.ruleId === 'front-matter-syntax')?.fix;
    assert.match(fixOf('open-quote.md') ?? '', /^close the quote/);
    assert.match(fixOf('open-bracket.md') ?? '', /^close the `\[` or `\{`/);
    assert.match(fixOf('indented.md') ?? '', /an indented line continues the value above it/);
    const unclosed = result.messages.filter((m) => m.file === 'content/posts/unclosed.md');
    assert.deepEqual(unclosed.map((m) => [m.ruleId, m.fix]), [['front-matter-syntax', 'add a `---` line after the last `key: value` line, before the body']], 'the missing --- only, not an empty body too');
    assert.equal(result.errors, result.messages.filter((m) => m.severity === 'error').length);
    assert.ok(result.errors >= 7);
  });

  await t.test('should report the style rules as warnings with their lines', () => {
    const order = find('style.md', 'front-matter-key-order');
    assert.equal(order?.severity, 'warning');
    assert.equal(order?.line, 2);
    assert.equal(find('style.md', 'conclusion-first')?.line, 9);
    const lang = find('style.md', 'code-lang');
    assert.equal(lang?.severity, 'warning');
    assert.equal(lang?.line, 11);
    assert.equal(find('2025-05-01-good.md', 'code-lang'), undefined);
  });

  await t.test('should warn at a control character in a body and refuse a noncharacter in a title', () => {
    const control = find('terminal.md', 'body-control-character');
    assert.equal(control?.severity, 'warning');
    assert.match(control?.message ?? '', /control character U\+001B in the body/);
    const source = postSource({}, 'Conclusion first.\n\nOutput: \u001b[31mred\u001b[0m\n');
    assert.deepEqual([control?.line, control?.column], [source.slice(0, source.indexOf('\u001b')).split('\n').length, 9]);
    const title = find('nonchar-title.md', 'front-matter-title');
    assert.equal(title?.severity, 'error');
    assert.match(title?.message ?? '', /noncharacter in `title`/);
    assert.equal(find('2025-05-01-good.md', 'body-control-character'), undefined);
  });

  await t.test('should report a body\'s style warnings beside its front-matter errors (nothing new after the fix)', () => {
    assert.equal(find('style-and-error.md', 'front-matter-category')?.severity, 'error');
    assert.equal(find('style-and-error.md', 'conclusion-first')?.line, 9);
    assert.equal(find('style-and-error.md', 'code-lang')?.severity, 'warning');
  });

  await t.test('should make build refuse a site with errors', async () => {
    await assert.rejects(build(project.config), (error: unknown) => error instanceof ContentError && error.messages.some((m) => m.ruleId === 'duplicate-slug'));
  });

  await t.test('should exit non-zero from the CLI and print file:line and the fix', async () => {
    const cli = run(process.execPath, [join(REPO_ROOT, 'bin', 'agora'), '--root', project.root, 'check']);
    const error = await cli.then(() => null, (e: { code: number; stdout: string; stderr: string }) => e);
    assert.ok(error, 'check must fail');
    assert.equal(error.code, 1);
    // On stdout, the report itself, before its count (`agora check | less` showed the count alone).
    assert.match(error.stdout, /content\/posts\/bad-date\.md:3:1 error Unexpected date `2025-02-30`[^]*\n\d+ files? checked: [1-9]\d* errors?/);
    assert.match(error.stdout, /fix: /);
  });
});

test('check and new refuse a folder that holds no site, as build does', async (t) => {
  const empty = await mkdtemp(join(tmpdir(), 'agora-no-site-'));
  t.after(() => rm(empty, { recursive: true, force: true }));
  for (const args of [['check'], ['new', 'A title', '-c', 'guide', '-m', 'gpt-5']]) {
    const error = await run(process.execPath, [join(REPO_ROOT, 'bin', 'agora'), '--root', empty, ...args]).then(() => null, (e: { code: number; stderr: string }) => e);
    assert.ok(error, `${args[0]} must fail (it passed with 0 files checked, or made content/posts/ here)`);
    assert.equal(error.code, 1);
    assert.match(error.stderr, /Cannot find an Agora site in `.*`: neither `agora.config.json` nor `content\/posts\/` exists\. Create one with `agora init`/);
  }
  assert.deepEqual(await readdir(empty), [], 'nothing made');
});

test('check on the sample content', async (t) => {
  await t.test('should find no errors and no warnings', async () => {
    const project = await makeProject({ samplePosts: true, catalog: true });
    t.after(() => project.remove());
    const result = await check(project.config);
    assert.deepEqual(result.messages, []);
    assert.ok(result.files >= 14);
  });
});

test('check names a Unicode-normalization collision as such (it printed as a case collision of two identical-looking names)', async (t) => {
  const nfc = '2025-05-01-한국어-노트';
  const nfd = nfc.normalize('NFD');
  assert.notEqual(nfc, nfd);
  const project = await makeProject({ files: { [`content/posts/${nfc}.md`]: postSource({ title: 'Korean note', date: '2025-05-01' }), [`content/posts/${nfd}.md`]: postSource({ title: 'Korean note again', date: '2025-05-01' }) } });
  t.after(() => project.remove());
  const { messages } = await check(project.config);
  const collision = messages.find((m) => m.ruleId === 'slug-collision');
  assert.ok(collision, JSON.stringify(messages));
  assert.match(collision.message, /the same name in another Unicode normalization \((NFC against decomposed, NFD|decomposed, NFD against NFC);/);
  assert.doesNotMatch(collision.message, /case-insensitive/);
});

test('check warns of a markdown file the build never reads as a post (x.MD, x.markdown)', async (t) => {
  const project = await makeProject({ files: { 'content/posts/2025-05-01-fine.md': postSource({ date: '2025-05-01' }), 'content/posts/2025-05-02-shout.MD': postSource({ date: '2025-05-02' }), 'content/posts/sub/2025-05-03-long.markdown': postSource({ date: '2025-05-03' }), 'content/posts/notes.txt': 'not markdown', 'content/posts/.hidden.md': postSource({ date: '2025-05-04' }), 'content/posts/.drafts/2025-05-05-draft.md': postSource({ date: '2025-05-05' }) } });
  t.after(() => project.remove());
  const result = await check(project.config);
  // Before: 0 errors, 0 warnings, and two posts silently not published.
  const misnamed = result.messages.filter((m) => m.ruleId === 'not-a-post').map((m) => [m.file, m.severity, m.fix]);
  // Hidden ones are published (a slug may start with a dot, encoded: `/guide/%2Ehidden/`), which their author may not see: said now.
  assert.deepEqual(misnamed, [
    ['content/posts/.drafts/2025-05-05-draft.md', 'warning', 'rename it without the leading `.`, or move it out of the posts folder to keep it unpublished'],
    ['content/posts/.hidden.md', 'warning', 'rename it without the leading `.`, or move it out of the posts folder to keep it unpublished'],
    ['content/posts/2025-05-02-shout.MD', 'warning', 'rename it to `2025-05-02-shout.md`, or move it out of the posts folder'],
    ['content/posts/sub/2025-05-03-long.markdown', 'warning', 'rename it to `2025-05-03-long.md`, or move it out of the posts folder'],
  ]);
  assert.equal(result.files, 3, 'the two hidden .md files are posts');
});

test('check warns of a symbolic link under content/posts/, which the build never follows', async (t) => {
  const project = await makeProject({ files: { 'content/posts/2025-05-01-fine.md': postSource({ date: '2025-05-01' }), 'elsewhere/2025-05-02-linked.md': postSource({ date: '2025-05-02' }), 'elsewhere/drafts/2025-05-03-in-folder.md': postSource({ date: '2025-05-03' }) } });
  t.after(() => project.remove());
  const posts = join(project.root, 'content/posts');
  await symlink(join(project.root, 'elsewhere/2025-05-02-linked.md'), join(posts, '2025-05-02-linked.md'));
  await symlink(join(project.root, 'elsewhere/drafts'), join(posts, 'drafts'));
  await symlink(join(project.root, 'nowhere.md'), join(posts, 'broken.md'));
  const result = await check(project.config);
  // Before: "1 file checked: 0 errors, 0 warnings", and two posts silently not published.
  const links = result.messages.filter((m) => m.ruleId === 'not-a-post').map((m) => [m.file, m.severity, m.message]);
  assert.deepEqual(links, [
    ['content/posts/2025-05-02-linked.md', 'warning', 'Unexpected symbolic link `content/posts/2025-05-02-linked.md`: posts are read from files and folders inside the posts folder, never through a link, so it is not published'],
    ['content/posts/broken.md', 'warning', 'Unexpected symbolic link `content/posts/broken.md`: posts are read from files and folders inside the posts folder, never through a link, so it is not published'],
    ['content/posts/drafts', 'warning', 'Unexpected symbolic link `content/posts/drafts`: posts are read from files and folders inside the posts folder, never through a link, so nothing under it is published'],
  ]);
  assert.equal(result.messages.find((m) => m.file === 'content/posts/drafts')?.fix, 'put the files themselves in the posts folder in place of the link (copy or move them)');
  assert.equal(result.files, 1);
});

test('a bare `tags:` is no tags, as `tags: ""` (what agora new writes) is', async (t) => {
  const source = postSource({ date: '2025-05-01' });
  assert.match(source, /^tags: .*$/m);
  const project = await makeProject({ files: { 'content/posts/2025-05-01-bare.md': source.replace(/^tags: .*$/m, 'tags:') } });
  t.after(() => project.remove());
  const result = await check(project.config);
  // Before: `Unexpected empty value for tags`, an error.
  assert.deepEqual(result.messages.filter((m) => m.severity === 'error'), []);
});

test('a number in a `tags` list is published as written (`3.10` stays 3.10, not 3.1)', () => {
  const text = postSource({ date: '2025-05-01' }).replace(/^tags: .*$/m, 'tags: [python, 3.10, 0x1F, 1e3, 2025]');
  const { post, messages } = parsePost(toSourceFile('/p/content/posts/2025-05-01-numbers.md', '/p', text));
  assert.deepEqual(messages.filter((m) => m.severity === 'error'), []);
  // Before: "python, 3.1, 31, 1000, 2025" (YAML's numbers printed back).
  assert.equal(post?.tags, 'python, 3.10, 0x1F, 1e3, 2025');
});

test('a `tags` list item that is not a word is named, with the fix', () => {
  const text = postSource({ date: '2025-05-01' }).replace(/^tags: .*$/m, 'tags: [ci, true]');
  const { messages } = parsePost(toSourceFile('/p/content/posts/2025-05-01-bool.md', '/p', text));
  const error = messages.find((m) => m.ruleId === 'front-matter-tags');
  // Before: "Unexpected list for `tags`, expected comma-separated words or a list" (it was a list).
  assert.equal(error?.message, 'Unexpected boolean `true` in the `tags` list, expected a word');
  assert.match(error?.fix ?? '', /"true"/);
});
