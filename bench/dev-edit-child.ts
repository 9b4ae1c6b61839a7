/**
 * Edits in a running `agora dev` (the long-lived `SiteBuild`), in its own process:
 * `node --import tsx --conditions=agora-source bench/dev-edit-child.ts <root> [--edits 5]`.
 * Builds the site (with the search index unless the config turns it off), then, as the
 * chokidar watcher does, changes files and calls `updateSources` with them, for four kinds
 * of edit (issue 21, item 1): a body edit (a sentence appended), a front-matter edit (title,
 * tags and category: the lists that show the post follow), a new post, and that post
 * deleted again. Each is timed from the call until the post's own files are in `dist/`
 * (`updateSources` reports the first half of its two speeds: the page, or the deleted
 * post's files removed) — the figure of issue 21 — and until it returns (the lists,
 * feeds and site-wide files that show the post written too); the search index follows in the
 * background, and the bench waits for it between edits (an author edits every few seconds),
 * so each edit is timed on a quiet process. Prints one JSON line: per kind the median and
 * max of the timed edits (the first of each kind warms the JIT and is left out), files
 * written; the Pagefind figures: the full index of the first build (time, shards, peak RSS
 * of one Pagefind process) and the background runs after the edits (time, peak RSS, how
 * far behind the site the index was when it caught up). Then the body edit again, through
 * `agora dev`'s own watcher (`watch()`: chokidar and its quiet period), timed from the
 * file's write to the page in `dist/`: what an author waits for after a save.
 */
import { appendFileSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig, build, watch, type SearchIndexResult } from '@agora/generator';
import { samplePagefind } from './pagefind-rss.ts';

const [root, ...rest] = process.argv.slice(2);
if (!root) {
  console.error('usage: dev-edit-child.ts <root> [--edits N]');
  process.exit(2);
}
const edits = rest.includes('--edits') ? Number(rest[rest.indexOf('--edits') + 1]) : 5;
const config = loadConfig({ root, env: { AGORA_SEARCH_INDEX: process.env.AGORA_SEARCH_INDEX }, overrides: { port: 0, host: '127.0.0.1', site: { baseUrl: 'https://agora.example' } } });
// The first build writes the whole index, so that its time and Pagefind's peak are measured.
for (const name of (existsSync(config.distDir) ? readdirSync(config.distDir, { withFileTypes: true }) : []).filter((e) => /^(pagefind(-\d+)?|search-shards\.json)$/.test(e.name))) rmSync(join(config.distDir, name.name), { recursive: true, force: true });
const fullSampler = samplePagefind();
// Long-lived, as `agora dev` builds it: renderings and records stay in memory for the edits.
const { state, result: first } = await build(config, { longLived: true });
// As `agora dev` does once built (`watch.ts`): the indexes the edits' checks keep.
state.prepareEdits();
const fullPagefind = await fullSampler();
const dir = join(config.contentDir, 'posts');
const names = readdirSync(dir).filter((f) => f.endsWith('.md')).sort();
const file = join(dir, names[Math.floor(names.length / 2)]!);
const original = readFileSync(file, 'utf8');
const CATS = ['guide', 'knowhow', 'setups'];

interface Run { pageMs: number; ms: number; written: number; rendered: number }
const runs: Record<'body' | 'frontMatter' | 'newPost' | 'deletedPost', Run[]> = { body: [], frontMatter: [], newPost: [], deletedPost: [] };
const background: { result: SearchIndexResult | null; lagMs: number | null }[] = [];
state.onSearchIndexed((result, status) => background.push({ result, lagMs: status.lastLagMs }));
const editSampler = samplePagefind();

async function timed(kind: keyof typeof runs, paths: string[]): Promise<void> {
  const started = performance.now();
  let pageMs = NaN;
  const result = await state.updateSources(paths, () => void (pageMs = performance.now() - started));
  runs[kind].push({ pageMs, ms: performance.now() - started, written: result.written.length, rendered: result.rendered });
  // An author edits every few seconds: let the background index catch up before the next edit.
  await state.searchIndexIdle();
}

for (let i = 0; i < edits; i++) {
  appendFileSync(file, `\nA sentence added by the dev-edit benchmark, number ${i}.\n`);
  await timed('body', [file]);
  // Title, tags and category: the post moves between lists.
  const text = readFileSync(file, 'utf8')
    .replace(/^title: .*$/m, `title: "Edited title ${i} by the dev-edit benchmark"`)
    .replace(/^tags: .*$/m, `tags: bench-edit-${i}, dev`)
    .replace(/^category: .*$/m, `category: ${CATS[i % CATS.length]}`);
  writeFileSync(file, text);
  await timed('frontMatter', [file]);
  const created = join(dir, `2025-01-01-dev-edit-new-${i}.md`);
  writeFileSync(created, `---\ntitle: "New post ${i} from the dev-edit benchmark"\ndate: 2025-01-01\nmodel: bench\ncategory: guide\nsummary: "A post created by the dev-edit benchmark."\ntags: bench, new\n---\nA new post states its conclusion first.\n\n## Detail\n\nNumber ${i}.\n`);
  await timed('newPost', [created]);
  rmSync(created);
  await timed('deletedPost', [created]);
}
writeFileSync(file, original);
await state.updateSources([file]);
await state.searchIndexIdle();

// The same body edit through `agora dev`'s own watcher (chokidar, its settling and debounce):
// timed from the write of the file until the post's page is in dist/, as an author sees it.
const watched: number[] = [];
let pageWritten: (() => void) | null = null;
const watcher = await watch(config, { state, onPages: () => pageWritten?.(), onError: (error) => console.error(`watched edit failed: ${String(error)}`) });
/** Edits the watcher never turned into a page within 5 s (they would stall the bench). */
let missed = 0;
for (let i = 0; i <= edits; i++) {
  const written = new Promise<boolean>((resolve) => {
    pageWritten = () => resolve(true);
    setTimeout(() => resolve(false), 5000).unref();
  });
  const started = performance.now();
  appendFileSync(file, `\nA sentence added through the watcher, number ${i}.\n`);
  const seen = await written;
  if (!seen) missed++;
  // The first warms the watcher's path and is left out, as above.
  else if (i > 0) watched.push(performance.now() - started);
  await watcher.idle();
  await state.searchIndexIdle();
}
await watcher.close();
writeFileSync(file, original);
await state.updateSources([file]);
await state.searchIndexIdle();
const editPagefind = await editSampler();
await state.close();

const median = (list: Run[], key: 'pageMs' | 'ms') => {
  const timed = (list.length > 1 ? list.slice(1) : list).map((r) => r[key]).sort((a, b) => a - b);
  return { median: timed[Math.floor(timed.length / 2)] ?? 0, max: timed.at(-1) ?? 0 };
};
const stats = (list: Run[]) => {
  const page = median(list, 'pageMs');
  const all = median(list, 'ms');
  return { pageMedianMs: page.median, pageMaxMs: page.max, medianMs: all.median, maxMs: all.max, written: list.at(-1)?.written ?? 0, rendered: list.at(-1)?.rendered ?? 0, pageRuns: list.map((r) => Math.round(r.pageMs)), runs: list.map((r) => Math.round(r.ms)) };
};
const ran = background.filter((b) => b.result);
const kinds = { body: stats(runs.body), frontMatter: stats(runs.frontMatter), newPost: stats(runs.newPost), deletedPost: stats(runs.deletedPost) };
console.log(JSON.stringify({
  ok: true,
  // The body edit, as before (issue 13's figure).
  medianMs: kinds.body.medianMs, maxMs: kinds.body.maxMs, written: kinds.body.written, rendered: kinds.body.rendered,
  kinds,
  // The body edit through the watcher: from the file's write to the page in dist/.
  watched: { pageMedianMs: [...watched].sort((a, b) => a - b)[Math.floor(watched.length / 2)] ?? 0, pageMaxMs: Math.max(0, ...watched), pageRuns: watched.map(Math.round), missed },
  search: {
    full: first.search ? { ms: first.search.ms, shards: first.search.of, pages: first.search.pages, peakMB: fullPagefind.peakMB } : null,
    edits: { runs: ran.length, medianMs: ran.map((b) => b.result!.ms).sort((a, b) => a - b)[Math.floor(ran.length / 2)] ?? 0, shardsPerRun: ran.map((b) => b.result!.shards), maxLagMs: Math.max(0, ...ran.map((b) => b.lagMs ?? 0)), peakMB: editPagefind.peakMB },
  },
}));
