/**
 * `node --import tsx bench/micromark-html.ts [--dir <corpus>]`: the issue-13 check of
 * micromark's own HTML compiler (with the GFM html extensions) as a fast path. Counts
 * the corpus posts whose micromark HTML equals `renderMarkdown`'s, the posts without
 * headings, code or tables (the only ones such a path could serve without
 * re-implementing ids, highlighting and scroll regions), and times both, alternated.
 * Findings in docs/performance.md (issue 13).
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { generateCorpus } from './corpus.ts';
import { flag } from './report.ts';
import { join } from 'node:path';
import { micromark } from 'micromark';
import { gfmTable, gfmTableHtml } from 'micromark-extension-gfm-table';
import { gfmStrikethrough, gfmStrikethroughHtml } from 'micromark-extension-gfm-strikethrough';
import { gfmTaskListItem, gfmTaskListItemHtml } from 'micromark-extension-gfm-task-list-item';
import { splitFrontMatter } from '@agora/generator';
import { renderMarkdown } from '../packages/generator/src/render/markdown.ts';
const root = flag('dir') ?? join(existsSync('/dev/shm') ? '/dev/shm' : join(import.meta.dirname, '.corpus'), 'agora-render-stages-4000');
if (!existsSync(join(root, 'content', 'posts'))) await generateCorpus(root, 4000);
const dir = join(root, 'content', 'posts');
const mds = await Promise.all((await readdir(dir)).filter((f) => f.endsWith('.md')).sort().map(async (f) => splitFrontMatter(await readFile(join(dir, f), 'utf8')).body));
const opts = { extensions: [gfmTable(), gfmStrikethrough({ singleTilde: false }), gfmTaskListItem()], htmlExtensions: [gfmTableHtml(), gfmStrikethroughHtml(), gfmTaskListItemHtml()] };
let same = 0;
let noHeading = 0;
let noCode = 0;
let plainish = 0;
let escapes = 0;
for (const md of mds) {
  const a = micromark(md, opts);
  const b = renderMarkdown(md).html;
  if (a === b || a + '\n' === b || a === b + '\n') same++;
  if (!/^#/m.test(md)) noHeading++;
  if (!md.includes('```') && !/^    /m.test(md)) noCode++;
  if (!/^#/m.test(md) && !md.includes('```') && !md.includes('|')) plainish++;
  if (/[&<>"]/.test(md)) escapes++;
}
console.log({ posts: mds.length, identical: same, withoutHeadings: noHeading, withoutCode: noCode, withoutHeadingsCodeTables: plainish, withCharsEscapedDifferently: escapes });
for (let pass = 0; pass < 3; pass++) {
  let t = performance.now(); for (const md of mds) micromark(md, opts); const tm = performance.now() - t;
  t = performance.now(); for (const md of mds) renderMarkdown(md); const tr = performance.now() - t;
  console.log(`micromark html ${tm.toFixed(0)} ms, renderMarkdown ${tr.toFixed(0)} ms, ratio ${(tm / tr).toFixed(2)}`);
}
const md = 'Conclusion & "more" <x>.\n\n## Head\n\n```bash\necho "a" > b\n```\n';
console.log(micromark(md, opts)); console.log(renderMarkdown(md).html);
