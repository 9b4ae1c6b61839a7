/**
 * `npm run bench:render [-- --posts 4000] [--passes 3] [--dir <corpus>] [--reference]`: where the post
 * renderer's time goes, per stage and per post, in one thread (what a render worker
 * does). Renders every body of the generated corpus (plus content/posts) `passes` times
 * after one warm-up pass with the renderer's own processor, timing separately: parse
 * (micromark + mdast-util-from-markdown), every transformer of the processor (wrapped
 * one by one), stringify (hast-util-to-html) and the garbage collections that fell
 * inside each stage. Also times `renderMarkdown` as a whole (the path the build takes,
 * including any fast path) and checks it, in the warm-up pass, against the staged output
 * and the pre-issue-13 pipeline (bench/reference-renderer.ts).
 */
import { readdir, readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { unified, type Processor } from 'unified';
import { VFile } from 'vfile';
import { splitFrontMatter } from '@agora/generator';
import { generateCorpus } from './corpus.ts';
import { REPO_ROOT } from './child.ts';
import { flag } from './report.ts';
import { median } from './stats.ts';
import { mayUseGfm, renderMarkdown, stageProcessors } from '../packages/generator/src/render/markdown.ts';
import { referenceProcessor, renderReference } from './reference-renderer.ts';

const posts = Number(flag('posts') ?? 4000);
const passes = Math.max(1, Number(flag('passes') ?? 3));
const dir = flag('dir') ?? join(existsSync('/dev/shm') ? '/dev/shm' : join(REPO_ROOT, 'bench', '.corpus'), `agora-render-stages-${posts}`);

async function bodies(root: string): Promise<string[]> {
  const postsDir = join(root, 'content', 'posts');
  const files = (await readdir(postsDir)).filter((f) => f.endsWith('.md')).sort();
  return Promise.all(files.map(async (f) => splitFrontMatter(await readFile(join(postsDir, f), 'utf8')).body));
}

if (!existsSync(join(dir, 'content', 'posts'))) await generateCorpus(dir, posts);
const markdown = [...(await bodies(dir)), ...(await bodies(REPO_ROOT))];
const chars = markdown.reduce((n, m) => n + m.length, 0);

// --- stage clock: every stage adds its time; GC entries are attributed afterwards.
const stageNames: string[] = [];
const spans: number[] = []; // [start, end, stage] triples
const clock = (name: string) => {
  let i = stageNames.indexOf(name);
  if (i < 0) i = stageNames.push(name) - 1;
  return i;
};
function timed<T>(stage: number, fn: () => T): T {
  const start = performance.now();
  const out = fn();
  spans.push(start, performance.now(), stage);
  return out;
}

type AnyProcessor = Processor<any, any, any, any, any>;
type Attacher = (this: AnyProcessor, ...args: unknown[]) => unknown;

/** The same processor with each transformer wrapped in the stage clock. */
function instrument(frozen: AnyProcessor): AnyProcessor {
  let proc = unified() as AnyProcessor;
  for (const [plugin, ...options] of frozen.attachers as unknown as [Attacher, ...unknown[]][]) {
    const stage = clock(`transform: ${plugin.name || '(anonymous)'}`);
    const wrapped = function (this: AnyProcessor, ...args: unknown[]) {
      const transformer = plugin.apply(this, args);
      if (typeof transformer !== 'function') return transformer;
      return (tree: unknown, file: unknown) => timed(stage, () => (transformer as (t: unknown, f: unknown) => unknown)(tree, file));
    };
    Object.defineProperty(wrapped, 'name', { value: plugin.name });
    proc = proc.use(wrapped as never, ...(options as []));
  }
  return proc.freeze();
}

const gcs: { start: number; duration: number }[] = [];
const observer = new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcs.push({ start: e.startTime, duration: e.duration });
});
observer.observe({ entryTypes: ['gc'] });

const staged = new Map<string, AnyProcessor>();
const PARSE = clock('parse (micromark + from-markdown)');
const RUN = clock('run (all transformers)');
const STRINGIFY = clock('stringify (hast-util-to-html)');
const WHOLE = clock('renderMarkdown (as built)');
// --reference: profile the pre-issue-13 pipeline's stages instead (the before picture).
const reference = flag('reference') === 'true';
const { pick } = reference ? { pick: (md: string): [string, AnyProcessor] => { const gfm = mayUseGfm(md); return [gfm ? 'gfm' : 'plain', referenceProcessor(gfm)]; } } : stageProcessors();

function renderStaged(md: string): string {
  const [key, frozen] = pick(md);
  let proc = staged.get(key);
  if (!proc) staged.set(key, (proc = instrument(frozen)));
  const vfile = new VFile(md);
  const tree = timed(PARSE, () => proc.parse(vfile));
  const out = timed(RUN, () => proc.runSync(tree, vfile));
  return timed(STRINGIFY, () => String(proc.stringify(out, vfile)));
}

const perPass: Map<number, number>[] = [];
let mismatches = 0;
for (let pass = 0; pass <= passes; pass++) {
  spans.length = 0;
  gcs.length = 0;
  const t0 = performance.now();
  for (const md of markdown) {
    const a = renderStaged(md);
    const b = timed(WHOLE, () => renderMarkdown(md));
    if (pass === 0 && (a !== b.html || b.html !== renderReference(md).html || JSON.stringify(b.notes) !== JSON.stringify(renderReference(md).notes))) mismatches++;
  }
  const t1 = performance.now();
  await new Promise((r) => setTimeout(r, 50)); // let the GC observer deliver
  if (pass === 0) continue; // warm-up
  const sums = new Map<number, number>();
  for (let i = 0; i < spans.length; i += 3) sums.set(spans[i + 2]!, (sums.get(spans[i + 2]!) ?? 0) + spans[i + 1]! - spans[i]!);
  // GC inside a stage: find the innermost span holding the GC's start (transform spans nest inside RUN).
  const gcBy = new Map<number, number>();
  let gcTotal = 0;
  for (const gc of gcs) {
    if (gc.start < t0 || gc.start > t1) continue;
    gcTotal += gc.duration;
    let owner = -1;
    let width = Infinity;
    for (let i = 0; i < spans.length; i += 3) {
      if (spans[i]! <= gc.start && gc.start <= spans[i + 1]! && spans[i + 1]! - spans[i]! < width) {
        owner = spans[i + 2]!;
        width = spans[i + 1]! - spans[i]!;
      }
    }
    gcBy.set(owner, (gcBy.get(owner) ?? 0) + gc.duration);
  }
  sums.set(-2, gcTotal);
  for (const [k, v] of gcBy) sums.set(1000 + k, v);
  perPass.push(sums);
}
observer.disconnect();

const med = (k: number) => median(perPass.map((m) => m.get(k) ?? 0));
const n = markdown.length;
const staged3 = med(PARSE) + med(RUN) + med(STRINGIFY);
const rows = [PARSE, ...stageNames.map((_, i) => i).filter((i) => stageNames[i]!.startsWith('transform: ')), STRINGIFY].map((i) => [
  stageNames[i]!, `${med(i).toFixed(0)} ms`, `${((med(i) * 1000) / n).toFixed(0)} µs`, `${((med(i) / staged3) * 100).toFixed(1)}%`, `${med(1000 + i).toFixed(0)} ms`,
]);
rows.push(['total staged (parse + run + stringify)', `${staged3.toFixed(0)} ms`, `${((staged3 * 1000) / n).toFixed(0)} µs`, '100%', `${med(-2).toFixed(0)} ms all GC`]);
rows.push([stageNames[WHOLE]!, `${med(WHOLE).toFixed(0)} ms`, `${((med(WHOLE) * 1000) / n).toFixed(0)} µs`, `${((med(WHOLE) / staged3) * 100).toFixed(1)}%`, `${med(1000 + WHOLE).toFixed(0)} ms`]);
console.log(`\n${n} bodies (${(chars / 1e6).toFixed(1)} M chars; corpus + content/posts), median of ${passes} passes after a warm-up, one thread, stages of ${reference ? 'the pre-issue-13 reference pipeline' : 'renderMarkdown\'s processor'}`);
console.log('\nPer stage (time inside the stage; GC = collections that started inside it)');
const table = [['stage', 'all posts', 'per post', 'share', 'GC in stage'], ...rows];
const widths = table[0]!.map((_, c) => Math.max(...table.map((r) => r[c]!.length)));
for (const [i, r] of table.entries()) {
  console.log(r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  '));
  if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
}
console.log(`renderMarkdown vs its staged pipeline vs the pre-issue-13 reference (bench/reference-renderer.ts): ${mismatches === 0 ? 'identical HTML and notes for every body' : `${mismatches} bodies DIFFER`}`);
if (mismatches > 0) process.exitCode = 1;
