/** The shape of bench/results.json and its printed table. */
import type { BuildRun, SizeFigures } from './builds.ts';
import type { CommentLatency } from './comments.ts';
import type { LoadFigures } from './load.ts';
import type { ServerUsage } from './server-child.ts';
import { machine, codeFingerprint, printTable, ms, s, x, type Row } from './report.ts';

export interface BenchResults {
  machine: ReturnType<typeof machine>;
  code: ReturnType<typeof codeFingerprint> & { changedDuringRun: boolean };
  options: Record<string, unknown>;
  builds: SizeFigures[];
  ramDisk: { posts: number; path: string; cold: BuildRun } | { skipped: string };
  buildWorkers: { workers: number | null; reason: string | null };
  contention: { checks: number; waitedMs: number; gaveUp: number; lastBusy: number };
  commentLatency: CommentLatency & { posts: number; foreignCpuPct: number };
  writer: {
    baselinePut: LoadFigures & { foreignCpuPct: number };
    viewsPut: LoadFigures & { acknowledged: number; lostInStore: number; lostInMirror: number; settledMs: number; ratioToBaseline: number; foreignCpuPct: number };
    commentsPost: LoadFigures & { statuses: Record<string, number>; acknowledged: number; visibleAt1s: number; allVisibleAfterMs: number | null; foreignCpuPct: number };
    serving: { posts: number; startMs: number; atStart: ServerUsage; idleAfterGc: ServerUsage; afterComments: ServerUsage; afterViews: ServerUsage; afterCommentLoad: ServerUsage; atClose: ServerUsage };
  };
}

const mb = (n: number) => `${Math.round(n)} MB`;

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
    );
  }
  if ('cold' in r.ramDisk) {
    const d = r.ramDisk;
    const disk = r.builds.find((b) => b.posts === d.posts);
    rows.push([`cold build ${d.posts.toLocaleString('en-US')} on /dev/shm: wall / build()`, `${s(d.cold.wallMs)} / ${s(d.cold.buildMs)}`, disk ? `disk: ${s(disk.cold.wallMs)}` : '']);
    rows.push([`cold build on /dev/shm: CPU / peak RSS`, `${s(d.cold.cpuMs)} / ${mb(d.cold.maxRssMB)}`]);
  }
  const c = r.commentLatency;
  const w = r.writer;
  const sv = w.serving;
  const maxRss = Math.max(sv.atClose.maxRssMB, sv.afterCommentLoad.maxRssMB);
  rows.push(
    [`comment → page+mirror on disk (${c.posts} posts): p50`, ms(c.diskP50Ms), '≤ 30 ms'],
    [`comment → page+mirror on disk: p99 (max)`, `${ms(c.diskP99Ms)} (${ms(c.diskMaxMs)})`, '≤ 100 ms'],
    [`comment → 201: p50 / p99`, `${ms(c.ackP50Ms)} / ${ms(c.ackP99Ms)}`],
    [`comment samples (failed)`, `${c.samples} (${c.failed})`],
    [`files rewritten per comment (mtime scan)`, c.filesRewritten.join(', '), '≤ 12'],
    [`Express baseline PUT: req/s, p99`, `${w.baselinePut.requestsPerSec} /s, ${w.baselinePut.p99Ms} ms`],
    [`PUT /api/views: req/s, p99`, `${w.viewsPut.requestsPerSec} /s, ${w.viewsPut.p99Ms} ms`],
    [`PUT /api/views ÷ Express baseline`, x(w.viewsPut.ratioToBaseline), '≥ 0.90×'],
    [`PUT views acknowledged / lost (store, mirror)`, `${w.viewsPut.acknowledged} / ${w.viewsPut.lostInStore}, ${w.viewsPut.lostInMirror}`, '0 lost'],
    [`POST comments: req/s, p99`, `${w.commentsPost.requestsPerSec} /s, ${w.commentsPost.p99Ms} ms`, '≥ 300 /s'],
    [`POST comments: 201s / other statuses`, `${w.commentsPost.acknowledged} / ${JSON.stringify(Object.fromEntries(Object.entries(w.commentsPost.statuses).filter(([k]) => k !== '201')))}`],
    [`acknowledged comments in mirrors at 1 s`, `${w.commentsPost.visibleAt1s} of ${w.commentsPost.acknowledged}`, 'all'],
    [`all acknowledged comments in mirrors after`, w.commentsPost.allVisibleAfterMs === null ? 'not within 10 s' : ms(w.commentsPost.allVisibleAfterMs), '≤ 1 s'],
    [`view counts settled in store+mirror after load`, ms(w.viewsPut.settledMs)],
    [`writer RSS serving ${sv.posts} posts: after start / after GC`, `${mb(sv.atStart.rssMB)} / ${mb(sv.idleAfterGc.rssMB)}`, '≤ 300 MB'],
    [`writer RSS: after all load / peak (maxRSS)`, `${mb(sv.afterCommentLoad.rssMB)} / ${mb(maxRss)}`, '≤ 300 MB'],
    [`writer startup (warm build + listen)`, ms(sv.startMs)],
  );
  const builds = [...r.builds.flatMap((b) => [b.cold, b.warm, b.edit]), ...('cold' in r.ramDisk ? [r.ramDisk.cold] : [])];
  rows.push([`other processes' CPU: builds (max) / latency, PUT base, PUT, POST`,
    `${Math.max(...builds.map((b) => b.foreignCpuPct))}% / ${c.foreignCpuPct}%, ${w.baselinePut.foreignCpuPct}%, ${w.viewsPut.foreignCpuPct}%, ${w.commentsPost.foreignCpuPct}%`, '~0%']);
  printTable('Results', rows);
}
