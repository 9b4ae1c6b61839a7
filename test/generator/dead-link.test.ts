/**
 * `dead-link`: a post's link or image to a path of this site that no file the build
 * writes answers. Found by an outside author: `[dead](/guide/no-such-post/)`, or a
 * relative link to a post that moved to another category, passed `agora check`, `build`
 * and `dev` without a word, and a crawl of the built site found the 404s.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { build, check, type Message } from '@agora/generator';
import { makeProject, postSource, REPO_ROOT } from '../helpers/project.ts';
import { readValidContent } from '../../packages/generator/src/content.ts';
import { buildSiteModel } from '../../packages/generator/src/model/site.ts';
import { siteFiles } from '../../packages/generator/src/emit/site-files.ts';

const run = promisify(execFile);

/** Every file under `dir`, relative to it, `/`-separated. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name)).split('\\').join('/'));
}

const LINKS = `The conclusion comes first.

- [dead](/guide/no-such-post/)
- [moved](../../guide/2025-05-02-target/)
- [twin moved](/guide/2025-05-02-target/post.md)
- [absolute](https://agora.example/knowhow/nope/)
- ![picture](/knowhow/nope/chart.html)
- [tag by name](/tags/Node%20JS/)
- [reference][gone]
- [bad escape](/guide/100%/)
- [source file](2025-05-02-target.md)

[gone]: /stories/gone/
[never-used]: /stories/never-used/

- [page](/knowhow/2025-05-02-target/)
- [page without slash](/knowhow/2025-05-02-target)
- [page file](/knowhow/2025-05-02-target/index.html)
- [relative](../../knowhow/2025-05-02-target/)
- [its source](/knowhow/2025-05-02-target/post.md)
- [json](/api/post/2025-05-02-target)
- [comments](/api/comments/2025-05-02-target?x=1#top)
- [comment feed](/knowhow/2025-05-02-target/comments.atom)
- [model](/models/Claude%20Opus%204.1/)
- [model json](/api/model/Claude%20Opus%204.1)
- [odd model](/api/model/meta%252Fllama-3)
- [tag](/tags/node-js/)
- [tag feed](/tags/node-js/feed.json)
- [korean tag](/tags/한국어/)
- [second page](/page/2/)
- [category](/guide/)
- [category feed](/guide/feed.atom)
- [llms](https://agora.example/llms.txt)
- [sitemap](/sitemap.xml)
- [search](/api/search?q=nginx)
- [search page](/search/)
- [mcp](/mcp)
- [catalog](/agencatalog/)
- [elsewhere](https://example.com/guide/no-such-post/)
- [same page](#detail)
- [mail](mailto:someone@example.com)
- [diagram](./diagram.png)
- ![stylesheet](/assets/site.css)
- [comments page](/comments/)

\`\`\`text
[in code](/guide/in-code/)
\`\`\`
`;

test('dead-link', async (t) => {
  const project = await makeProject({
    catalog: true,
    files: {
      'agora.config.json': JSON.stringify({ pageSize: 2, baseUrl: 'https://agora.example' }),
      'content/posts/2025-05-01-links.md': postSource({ tags: 'Node JS, 한국어' }, LINKS),
      'content/posts/2025-05-02-target.md': postSource({ date: '2025-05-02', category: 'knowhow', model: 'Claude Opus 4.1' }),
      'content/posts/2025-05-03-other.md': postSource({ date: '2025-05-03', model: 'meta/llama-3', tags: 'Node JS' }),
      'content/posts/2025-05-04-more.md': postSource({ date: '2025-05-04', tags: 'Node JS' }),
    },
  });
  t.after(() => project.remove());
  const lineOf = (text: string) => postSource({ tags: 'Node JS, 한국어' }, LINKS).split('\n').findIndex((l) => l.includes(text)) + 1;

  let result: Awaited<ReturnType<typeof check>>;
  const dead = () => result.messages.filter((m) => m.ruleId === 'dead-link');
  const at = (text: string) => dead().find((m) => m.line === lineOf(text));

  await t.test('should warn of each link and image into the site that names nothing, with file, line, column and a fix', async () => {
    result = await check(project.config);
    assert.equal(result.errors, 0, JSON.stringify(result.messages));
    assert.deepEqual(dead().map((m) => m.line), ['[dead]', '[moved]', '[twin moved]', '[absolute]', '![picture]', '[tag by name]', '[bad escape]', '[gone]:'].map(lineOf), JSON.stringify(dead(), null, 1));
    for (const m of dead()) {
      assert.equal(m.severity, 'warning');
      assert.equal(m.file, 'content/posts/2025-05-01-links.md');
    }
    const first = at('[dead]')!;
    assert.equal(first.column, 3);
    assert.equal(first.message, 'Unexpected link to `/guide/no-such-post/`: the site has no page there, so a reader gets a 404');
    assert.match(first.fix ?? '', /^no page \/guide\/no-such-post\/; link to one the site has/);
    assert.equal(at('[moved]')?.message, 'Unexpected link to `../../guide/2025-05-02-target/` (`/guide/2025-05-02-target/` on this site): the site has no page there, so a reader gets a 404');
    assert.equal(at('[moved]')?.fix, 'no page /guide/2025-05-02-target/; did you mean /knowhow/2025-05-02-target/? (the post `2025-05-02-target` is in knowhow)');
    assert.match(at('[twin moved]')?.fix ?? '', /did you mean \/knowhow\/2025-05-02-target\/post\.md\?/);
    assert.match(at('[absolute]')?.message ?? '', /^Unexpected link to `https:\/\/agora\.example\/knowhow\/nope\/` \(`\/knowhow\/nope\/` on this site\)/);
    assert.match(at('![picture]')?.message ?? '', /^Unexpected image to/);
    assert.match(at('[tag by name]')?.fix ?? '', /did you mean \/tags\/node-js\/\?/);
    assert.equal(at('[gone]:')?.column, 1, 'a reference link is reported at its definition');
    assert.match(at('[bad escape]')?.message ?? '', /not valid percent-encoding/);
    // A relative link to a file is rule local-file's: one message for it, not two.
    assert.deepEqual(result.messages.filter((m) => m.line === lineOf('[source file]')).map((m) => m.ruleId), ['local-file']);
  });

  await t.test('should print it from the CLI as a warning (exit 0)', async () => {
    const { stdout } = await run(process.execPath, [join(REPO_ROOT, 'bin', 'agora'), '--root', project.root, 'check']);
    assert.match(stdout, new RegExp(`content/posts/2025-05-01-links\\.md:${lineOf('[dead]')}:3 warning Unexpected link to \`/guide/no-such-post/\`[^\\n]*\\(dead-link\\)\\n  fix: no page /guide/no-such-post/`));
    // Eight dead links, and two relative links to files that are rule local-file's.
    assert.match(stdout, /4 files checked: 0 errors, 10 warnings/);
  });

  await t.test('should name every file a build writes (the link targets), no more and no less', async () => {
    const { result: built, state } = await build(project.config);
    await state.close();
    assert.deepEqual(built.messages.filter((m) => m.ruleId === 'dead-link'), dead(), 'build says the same');
    const { content, posts } = await readValidContent(project.config);
    const site = buildSiteModel({ config: project.config.site, posts, comments: [], views: new Map(), catalog: content.catalog });
    const written = (await filesUnder(project.config.distDir)).filter((p) => !p.startsWith('.'));
    assert.ok(written.includes('page/2/index.html') && written.includes('tags/node-js/page/2/index.html'), 'the test site has pagination');
    assert.deepEqual([...siteFiles(site)].sort(), written.sort());
  });

  await t.test("should warn in a rebuild (agora dev) when a post another one links to moves, and stop when the link follows", async () => {
    const { state } = await build(project.config, { longLived: true });
    t.after(() => state.close());
    const target = join(project.config.contentDir, 'posts/2025-05-02-target.md');
    await writeFile(target, postSource({ date: '2025-05-02', category: 'setups', model: 'Claude Opus 4.1' }));
    const moved = await state.updateSources([target]);
    const fix = (m: Message) => m.ruleId === 'dead-link' && m.line === lineOf('[page]');
    assert.match(moved.messages.find(fix)?.fix ?? '', /did you mean \/setups\/2025-05-02-target\/\?/);
    await writeFile(target, postSource({ date: '2025-05-02', category: 'knowhow', model: 'Claude Opus 4.1' }));
    const back = await state.updateSources([target]);
    assert.equal(back.messages.find(fix), undefined);
  });

  await t.test('should not report a link to a post whose file has errors (its errors are)', async () => {
    await writeFile(join(project.config.contentDir, 'posts/2025-05-02-target.md'), postSource({ date: '2025-05-02', category: 'news' }));
    const broken = await check(project.config);
    assert.ok(broken.messages.some((m) => m.ruleId === 'front-matter-category'));
    assert.ok(!broken.messages.some((m) => m.ruleId === 'dead-link' && m.line === lineOf('[page]')), JSON.stringify(broken.messages));
    assert.ok(broken.messages.some((m) => m.ruleId === 'dead-link' && m.line === lineOf('[dead]')), 'the others still are');
  });
});
