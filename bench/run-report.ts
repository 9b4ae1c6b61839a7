/** The shape of bench/results.json and its printed table. */
import type { BuildRun, SizeFigures } from './builds.ts';
import type { WriterScaleResults } from './writer-scale.ts';
import { machine, codeFingerprint, printTable, ms, s, x, type Row } from './report.ts';

export interface BenchResults {
  machine: ReturnType<typeof machine>;
  code: ReturnType<typeof codeFingerprint> & { changedDuringRun: boolean };
  options: Record<string, unknown>;
  builds: SizeFigures[];
  ramDisk: { posts: number; path: string; cold: BuildRun } | { skipped: string };
  buildWorkers: { workers: number | null; reason: string | null };
  contention: { checks: number; waitedMs: number; gaveUp: number; lastBusy: number };
  writer: WriterScaleResults;
}

const mb = (n: number) => `${Math.round(n)} MB`;
/** A target's verdict: `met` when `ok`. */
const verdict = (target: string, ok: boolean) => `${target}: ${ok ? 'MET' : 'MISSED'}`;

export function printResults(r: BenchResults): void {
  const m = r.machine;
  console.log(`\nAgora benchmark — ${m.date.slice(0, 10)} — ${m.cpu}, ${m.cores} cores, ${m.memoryGB} GB, Node ${m.node} — sources ${r.code.sha1}`);
  if (r.buildWorkers.workers !== null) console.log(`NOTE: the default multi-threaded build failed (${r.buildWorkers.reason}); builds ran with workers: ${r.buildWorkers.workers}`);
  if (r.code.changedDuringRun) console.log('NOTE: the product sources changed during this run; figures may mix two versions');
  if (r.contention.gaveUp > 0) console.log(`NOTE: ${r.contention.gaveUp} of ${r.contention.checks} timed steps ran while other processes kept the CPUs busy`);
  const rows: Row[] = [];
  for (const b of r.builds) {
    const n = b.posts.toLocaleString('en-US');
    rows.push(
      [`cold build ${n} posts: wall (process)`, s(b.cold.wallMs), b.posts === 4000 ? '≤ 1.0× Eleventy (bench:compare)' : ''],
      [`cold build ${n}: inside build()`, s(b.cold.buildMs)],
      [`cold build ${n}: CPU user+sys`, s(b.cold.cpuMs)],
      [`cold build ${n}: peak RSS`, mb(b.cold.maxRssMB), b.posts === 10000 ? '≤ 500 MB' : ''],
      [`cold build ${n}: per post`, `${b.cold.msPerPost.toFixed(2)} ms`],
      [`warm build ${n}: wall / build()`, `${s(b.warm.wallMs)} / ${s(b.warm.buildMs)}`, b.posts === 4000 ? '≤ 0.3× Eleventy cold' : ''],
      [`warm build ${n}: files rewritten`, String(b.warm.written), '0'],
      [`one post edited ${n}, new process: wall / build()`, `${s(b.edit.wallMs)} / ${ms(b.edit.buildMs)}`],
      [`one post edited ${n}: files rewritten`, String(b.edit.written)],
      [`one post edited ${n} in agora dev (in-process), median / max`, `${ms(b.devEdit.medianMs)} / ${ms(b.devEdit.maxMs)}, ${b.devEdit.written} files`, '≤ 300 ms'],
      ...devEditRows(n, b.devEdit),
    );
  }
  if ('cold' in r.ramDisk) {
    const d = r.ramDisk;
    const disk = r.builds.find((b) => b.posts === d.posts);
    rows.push([`cold build ${d.posts.toLocaleString('en-US')} on /dev/shm: wall / build()`, `${s(d.cold.wallMs)} / ${s(d.cold.buildMs)}`, disk ? `disk: ${s(disk.cold.wallMs)}` : '']);
    rows.push([`cold build on /dev/shm: CPU / peak RSS`, `${s(d.cold.cpuMs)} / ${mb(d.cold.maxRssMB)}`]);
  }
  rows.push(...writerRows(r.writer));
  const w = r.writer;
  const builds = [...r.builds.flatMap((b) => [b.cold, b.warm, b.edit]), ...('cold' in r.ramDisk ? [r.ramDisk.cold] : [])];
  rows.push([`other processes' CPU: builds (max) / latency empty, full, PUT base, PUT, POST`,
    `${builds.length ? Math.max(...builds.map((b) => b.foreignCpuPct)) : '-'}% / ${w.empty.latency.foreignCpuPct}%, ${w.full.latency.foreignCpuPct}%, ${w.full.baselinePut.foreignCpuPct}%, ${w.full.viewsPut.foreignCpuPct}%, ${w.full.commentsPost.foreignCpuPct}%`, '~0%']);
  printTable('Results', rows);
}

/** Issue 21: each kind of edit in `agora dev` (edit → page in dist/, then every output), and Pagefind. */
function devEditRows(n: string, d: SizeFigures['devEdit']): Row[] {
  const names = { body: 'body edit', frontMatter: 'front-matter edit (title, tags, category)', newPost: 'new post', deletedPost: 'deleted post' } as const;
  const rows: Row[] = (Object.keys(names) as (keyof typeof names)[]).map((k) => {
    const e = d.kinds[k];
    return [`agora dev ${n}, ${names[k]}: edit → page in dist/, median / max (all outputs)`, `${ms(e.pageMedianMs)} / ${ms(e.pageMaxMs)} (${ms(e.medianMs)}, ${e.written} files)`, '≤ 100 ms'];
  });
  const w = d.watched;
  rows.push([`agora dev ${n}, body edit through the watcher: save → page in dist/, median / max`, `${ms(w.pageMedianMs)} / ${ms(w.pageMaxMs)}${w.missed > 0 ? ` (${w.missed} saves never seen)` : ''}`, '≤ 100 ms']);
  const { full, edits } = d.search;
  if (full) rows.push([`search index ${n}: full, ${full.shards} shards: time / peak RSS of one Pagefind process`, `${s(full.ms)} / ${mb(full.peakMB)}`, '≤ 500 MB']);
  if (edits.runs > 0) rows.push([`search index ${n}: background runs after edits: median / shards / caught up within / peak RSS`, `${s(edits.medianMs)} / ${edits.shardsPerRun.join(',')} / ${s(edits.maxLagMs)} / ${mb(edits.peakMB)}`, '≤ 10 s, ≤ 500 MB']);
  return rows;
}

/** The writer-at-scale rows, with the targets of issue 8. */
function writerRows(w: WriterScaleResults): Row[] {
  const n = w.posts.toLocaleString('en-US');
  const k = w.importFile.comments.toLocaleString('en-US');
  const e = w.empty.latency;
  const f = w.full.latency;
  const v = w.full.viewsPut;
  const c = w.full.commentsPost;
  const vis = c.visibility;
  const at = `${w.engine}${w.nodes > 1 ? `, ${w.nodes} nodes` : ''}`;
  const statuses = JSON.stringify(Object.fromEntries(Object.entries(c.statuses).filter(([code]) => code !== '201')));
  const m = w.migration;
  return [
    [`agora build ${n} posts (CLI, cold, empty store): wall / peak RSS`, `${s(w.cliBuild.wallMs)} / ${mb(w.cliBuild.peakRssMB)}`, verdict('≤ 500 MB', w.cliBuild.peakRssMB <= 500)],
    [`agora comments import ${k} comments (${mb(w.importFile.bytes / 1048576)} JSONL; with its rebuild): wall / peak RSS`, `${s(w.import.wallMs)} / ${mb(w.import.peakRssMB)}`],
    [`  import said`, w.import.said.slice(0, 48)],
    [`comment → page+mirror, empty store (${at}), ${e.samples.toLocaleString('en-US')} one at a time: p50 / p99 (max)`, `${ms(e.diskP50Ms)} / ${ms(e.diskP99Ms)} (${ms(e.diskMaxMs)})`, verdict('p99 ≤ 50 ms', e.diskP99Ms <= 50)],
    [`comment → page+mirror, ${w.full.storedComments.toLocaleString('en-US')} stored, ${f.samples.toLocaleString('en-US')} one at a time: p50 / p99 (max)`, `${ms(f.diskP50Ms)} / ${ms(f.diskP99Ms)} (${ms(f.diskMaxMs)})`, verdict('p99 ≤ 50 ms', f.diskP99Ms <= 50)],
    [`p99 full ÷ p99 empty`, x(w.latencyRatio), verdict('≤ 1.5×', w.latencyRatio <= 1.5)],
    [`comment → 201, empty: p50 / p99 (max)`, `${ms(e.ackP50Ms)} / ${ms(e.ackP99Ms)} (${ms(e.ackMaxMs)})`],
    [`comment → 201, full: p50 / p99 (max)`, `${ms(f.ackP50Ms)} / ${ms(f.ackP99Ms)} (${ms(f.ackMaxMs)})`],
    [`comment samples empty / full (failed)`, `${e.samples} (${e.failed}) / ${f.samples} (${f.failed})`],
    [`files rewritten per comment by its 201 (mtime scan)`, f.filesRewritten.join(', ')],
    [`Express baseline PUT: req/s, p99`, `${w.full.baselinePut.requestsPerSec} /s, ${w.full.baselinePut.p99Ms} ms`],
    [`PUT /api/views (full store): req/s, p99`, `${v.requestsPerSec} /s, ${v.p99Ms} ms`],
    [`PUT /api/views ÷ Express baseline`, x(v.ratioToBaseline), verdict('≥ 0.90×', v.ratioToBaseline >= 0.9)],
    [`PUT views acknowledged / lost in store (after shutdown), mirror`, `${v.acknowledged} / ${v.lostInStore}, ${v.lostInMirror}`, verdict('0 lost', v.lostInStore === 0 && v.lostInMirror === 0)],
    [`POST comments, ${c.requests} sent: 201s/s sustained, p99`, `${c.commentsPerSec} /s, ${c.p99Ms} ms`, verdict('≥ 500 /s', c.commentsPerSec >= 500)],
    [`  the comment floor, same load (bench/comment-floor-server.ts): 201s/s, p99`, `${w.full.floorPost.commentsPerSec} /s, ${w.full.floorPost.p99Ms} ms`],
    [`  writer ÷ floor`, x(Math.round((100 * c.commentsPerSec) / w.full.floorPost.commentsPerSec) / 100)],
    [`POST comments: 201s / other statuses / errors`, `${c.acknowledged} / ${statuses} / ${c.errors + c.timeouts}`],
    [`201'd comments on their page (${vis.checked} checked): p99 / worst / > 1 s`, `${ms(vis.pageP99Ms)} / ${ms(vis.pageWorstMs)} / ${vis.pageOver1s + vis.pageNeverSeen}`, verdict('all ≤ 1 s', vis.pageOver1s + vis.pageNeverSeen === 0)],
    [`201'd comments in /api/posts (file in place): p99 / worst / > 2 s`, `${ms(vis.postsP99Ms)} / ${ms(vis.postsWorstMs)} / ${vis.postsOver2s + vis.postsNeverSeen}`, verdict('all ≤ 2 s', vis.postsOver2s + vis.postsNeverSeen === 0)],
    [`  the same, until the bench's watcher had read it: p99`, ms(vis.postsSeenP99Ms)],
    [`all 201'd comments in their mirrors after the load`, c.allInMirrorsAfterMs === null ? 'not within 10 s' : ms(c.allInMirrorsAfterMs)],
    [`writer start, listening: empty / full store`, `${ms(w.empty.rest.listenMs)} / ${ms(w.full.rest.listenMs)}`, verdict('≤ 2 s', w.full.rest.listenMs <= 2000 && w.empty.rest.listenMs <= 2000)],
    [`writer start, caught up (restart, nothing changed): empty / full store`, `${ms(w.empty.rest.startMs)} / ${ms(w.full.rest.startMs)}`, verdict('≤ 10 s', w.full.rest.startMs <= 10_000)],
    [`writer RSS at rest after GC: empty / ${k} comments`, `${mb(w.empty.rest.rssAfterGcMB)} / ${mb(w.full.rest.rssAfterGcMB)}`, verdict('≤ 400 MB', w.full.rest.rssAfterGcMB <= 400)],
    [`writer RSS under the POST load (max sampled)`, mb(c.rss.maxRssMB), verdict('≤ 400 MB', c.rss.maxRssMB <= 400)],
    [`writer RSS at rest ${c.restAfter.seconds} s after the POST load, after GC`, mb(c.restAfter.rssAfterGcMB), verdict('≤ 400 MB', c.restAfter.rssAfterGcMB <= 400)],
    [`writer peak RSS over its life (VmHWM, start-up build included)`, mb(Math.max(c.rss.hwmMB, w.full.atClose.maxRssMB))],
    'skipped' in m
      ? [`migration of comments.json at start`, m.skipped]
      : [`migration of a ${k}-comment comments.json (${m.sourceMB} MB) at start: open / peak RSS`, `${s(m.openMs)} / ${mb(m.maxRssMB)}`, `${m.comments === w.importFile.comments ? 'count checked' : `COUNT MISMATCH ${m.comments}`}`],
  ];
}
