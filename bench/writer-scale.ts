/**
 * The writer at scale (issue 8), on one generated site of `posts` posts:
 *
 *  1. `agora build` of the site through the CLI (cold; wall and peak RSS);
 *  2. a bare Express PUT route (the baseline for view PUTs);
 *  3. the writer on an empty store: comment → page + mirror latency;
 *  4. `agora comments import` of `comments` generated comments (JSON Lines);
 *  5. the writer on the full store: the same latency (same posts), view PUTs, then
 *     `connections` clients posting comments for `seconds` while a watch checks each
 *     201 on its page and in `/api/posts`; RSS sampled throughout, and again after
 *     `restAfterLoadSeconds` at rest;
 *  6. the start-up migration of an old `data/comments.json` holding the same comments.
 *
 * Engine-aware: `storeEnv` goes to every product process (e.g. `AGORA_STORE=postgres`,
 * `DATABASE_URL=…`, which must then name an empty database), and with `nodes` > 1 each
 * further writer node serves its own copy of the site on its own port; comments are
 * posted to the first node and checked on all of them.
 */
import { cp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { generateCorpus, prng, SEED, type Corpus } from './corpus.ts';
import { writeCommentLines, writeLegacyComments } from './comment-corpus.ts';
import { runAgora, type CliRun } from './agora-cli.ts';
import { cpuWatch, runChild, syncDisks, waitForQuiet } from './child.ts';
import { startServerChild, type ServerHandle } from './server-handle.ts';
import type { ServerUsage } from './server-child.ts';
import { measureCommentLatency, type CommentLatency } from './comments.ts';
import { checkComments, checkViewsMirror, loadComments, loadViews, viewsMirror, type LoadFigures } from './load.ts';
import { VisibilityWatch, type VisibilityFigures } from './visibility.ts';
import { procMemory, sampleRss, type RssWindow } from './rss.ts';
import { lostViews, readStore } from './store-read.ts';
import type { MigrationFigures } from './migrate-child.ts';
import type { WriterNode } from './writer-nodes.ts';
import { round } from './stats.ts';

export interface WriterScaleOptions {
  dir: string;
  posts: number;
  comments: number;
  samples: number;
  /** Extra comments after the latency run with a scan of dist/ for the files they rewrote. */
  probes: number;
  seconds: number;
  connections: number;
  /** How long the writer rests after the POST load before its RSS is taken again (s). */
  restAfterLoadSeconds: number;
  /** Settings for every product process (store engine). */
  storeEnv: Record<string, string>;
  nodes: number;
  log: (line: string) => void;
}

interface Rest {
  /** Until the port was open. */
  listenMs: number;
  /** Until caught up (start-up build done). */
  startMs: number;
  /** After start-up (which includes its build) and a full GC, MB. */
  rssAfterGcMB: number;
  /** Lifetime peak so far (VmHWM: start-up build included), MB. */
  hwmMB: number;
}

export interface WriterScaleResults {
  posts: number;
  engine: string;
  nodes: number;
  cliBuild: CliRun;
  importFile: { comments: number; bytes: number };
  import: CliRun;
  empty: { rest: Rest; latency: Timed<CommentLatency> };
  full: {
    rest: Rest;
    storedComments: number;
    latency: Timed<CommentLatency>;
    baselinePut: Timed<LoadFigures>;
    /** The comment floor (comment-floor-server.ts) under the same comment load. */
    floorPost: Timed<LoadFigures & { commentsPerSec: number }>;
    viewsPut: Timed<LoadFigures> & { acknowledged: number; lostInStore: number; lostInMirror: number; mirrorSettledMs: number; ratioToBaseline: number };
    commentsPost: Timed<LoadFigures> & {
      statuses: Record<string, number>; acknowledged: number; commentsPerSec: number;
      visibility: VisibilityFigures; allInMirrorsAfterMs: number | null; inMirrorsAt1s: number;
      rss: RssWindow;
      /** `restAfterLoadSeconds` after the load: V8's memory reducer and the writer's calm release have run. */
      restAfter: { seconds: number; rssAfterGcMB: number };
    };
    atClose: ServerUsage;
  };
  /** p99(full) ÷ p99(empty) of comment → page + mirror. */
  latencyRatio: number;
  migration: (MigrationFigures & { wallMs: number; sourceMB: number }) | { skipped: string };
}

type Timed<T> = T & { foreignCpuPct: number };

/** Run after the machine is quiet; adds other processes' CPU share during it (%). */
async function phase<T extends object>(servers: readonly ServerHandle[], fn: () => Promise<T>): Promise<Timed<T>> {
  await waitForQuiet();
  const cpu = async () => (await Promise.all(servers.map((s) => s.usage()))).reduce((n, u) => n + u.userMs + u.sysMs, 0);
  const before = await cpu();
  const stop = await cpuWatch();
  const out = await fn();
  return { ...out, foreignCpuPct: await stop((await cpu()) - before) };
}

/** The roots of the writer nodes: the corpus itself, then copies of its content for further nodes. */
async function nodeRoots(corpus: Corpus, nodes: number): Promise<string[]> {
  const roots = [corpus.dir];
  for (let i = 1; i < nodes; i++) {
    const root = `${corpus.dir}-node${i}`;
    await rm(root, { recursive: true, force: true });
    await cp(join(corpus.dir, 'content'), join(root, 'content'), { recursive: true });
    roots.push(root);
  }
  return roots;
}

async function startNodes(roots: readonly string[], env: Record<string, string>): Promise<ServerHandle[]> {
  const servers: ServerHandle[] = [];
  for (const root of roots) servers.push(await startServerChild('agora', root, { env }));
  return servers;
}

async function rest(server: ServerHandle): Promise<Rest> {
  await server.usage(true);
  const mem = await procMemory(server.pid);
  return { listenMs: round(server.listenMs, 0), startMs: round(server.startMs, 0), rssAfterGcMB: round(mem?.rssMB ?? NaN, 0), hwmMB: round(mem?.hwmMB ?? NaN, 0) };
}

export async function runWriterScale(o: WriterScaleOptions): Promise<WriterScaleResults> {
  const { log } = o;
  const engine = o.storeEnv.AGORA_STORE ?? 'files';
  const corpus = await generateCorpus(o.dir, o.posts, { legacyComments: false });
  const roots = await nodeRoots(corpus, o.nodes);

  log(`agora build of ${o.posts} posts (CLI, cold, empty store)`);
  syncDisks();
  await waitForQuiet();
  const cliBuild = await runAgora(corpus.dir, ['build'], o.storeEnv);
  for (const root of roots.slice(1)) await runAgora(root, ['build'], o.storeEnv);

  const slugs = corpus.posts.map((p) => p.slug);
  log(`Express baseline: PUT for ${o.seconds} s, ${o.connections} connections`);
  const baseline = await startServerChild('express');
  const basePut = await phase([baseline], async () => (await loadViews(baseline.url, slugs, o.seconds, o.connections, prng(SEED + 1))).figures);
  await baseline.close();
  // The least work a durable, published 201 needs, on a bare route (comment-floor-server.ts):
  // what this machine allows at all for the "50 clients" load, with the generator on its cores.
  log(`comment floor: POST for ${o.seconds} s, ${o.connections} connections`);
  const floor = await startServerChild('floor', corpus.dir);
  const floorPost = await phase([floor], async () => {
    const r = await loadComments(floor.url, corpus.posts, o.seconds, o.connections, prng(SEED + 4));
    return { ...r.figures, commentsPerSec: r.commentsPerSec };
  });
  await floor.close();

  // The same seed for both latency runs: the same posts, so only the store differs.
  const latencyRand = () => prng(SEED + 2);
  log(`writer on an empty store: ${o.samples} comments one at a time`);
  let servers = await startNodes(roots, o.storeEnv);
  const nodes = (): WriterNode[] => servers.map((s, i) => ({ url: s.url, root: roots[i] }));
  const emptyRest = await rest(servers[0]!);
  const emptyLatency = await phase(servers, () => measureCommentLatency(nodes(), corpus.posts, o.samples, 0, latencyRand()));
  for (const s of servers) await s.close();

  const file = join(o.dir, 'comments.jsonl');
  log(`${o.comments} comments → ${file}, then agora comments import`);
  const bytes = await writeCommentLines(file, corpus.posts, o.comments);
  syncDisks();
  await waitForQuiet();
  const imported = await runAgora(corpus.dir, ['comments', 'import', file], o.storeEnv);

  log(`writer on the store with ${o.comments} comments`);
  servers = await startNodes(roots, o.storeEnv);
  const first = servers[0]!;
  const fullRest = await rest(first);
  const storedComments = (await readStore(corpus.dir, o.storeEnv)).comments;
  log(`${o.samples} comments one at a time`);
  const fullLatency = await phase(servers, () => measureCommentLatency(nodes(), corpus.posts, o.samples, o.probes, latencyRand()));

  log(`PUT /api/views for ${o.seconds} s`);
  const viewsBefore = (await readStore(corpus.dir, o.storeEnv)).views;
  const mirrorBefore = await viewsMirror(corpus.dir);
  let acked = new Map<string, number>();
  const views = await phase(servers, async () => {
    const r = await loadViews(first.url, slugs, o.seconds, o.connections, prng(SEED + 3));
    acked = r.acked;
    return r.figures;
  });
  const viewsMirrorCheck = await checkViewsMirror(corpus.dir, mirrorBefore, acked);

  log(`POST comments for ${o.seconds} s, ${o.connections} connections, watching visibility`);
  const watch = new VisibilityWatch(nodes());
  await watch.start();
  const loadRss = sampleRss(first.pid);
  let load!: Awaited<ReturnType<typeof loadComments>>;
  const posting = await phase(servers, async () => {
    load = await loadComments(first.url, corpus.posts, o.seconds, o.connections, prng(SEED + 4), (ack, post) => watch.acked(ack, post));
    return load.figures;
  });
  const stoppedAt = performance.now();
  const mirrors = await checkComments(corpus.dir, load.acks, stoppedAt);
  const visibility = await watch.finish();
  const rssUnderLoad = await loadRss();
  log(`${o.restAfterLoadSeconds} s at rest after the load`);
  await new Promise((r) => setTimeout(r, o.restAfterLoadSeconds * 1000));
  const restAfter = { seconds: o.restAfterLoadSeconds, rssAfterGcMB: (await rest(first)).rssAfterGcMB };
  const atClose = await first.close();
  for (const s of servers.slice(1)) await s.close();
  const viewsAfter = (await readStore(corpus.dir, o.storeEnv)).views;

  let migration: WriterScaleResults['migration'] = { skipped: `the ${engine} engine has no old single-file layout` };
  if (engine === 'files') {
    log(`migration of a ${o.comments}-comment data/comments.json at start`);
    const mdir = join(o.dir, '..', `migration-${o.posts}`);
    await rm(mdir, { recursive: true, force: true });
    const sourceBytes = await writeLegacyComments(join(mdir, 'data', 'comments.json'), corpus.posts, o.comments);
    syncDisks();
    await waitForQuiet();
    const run = await runChild<MigrationFigures>('migrate-child.ts', [mdir]);
    if (!run.json?.ok) throw new Error(`migration failed: ${run.json?.error ?? run.stderr}`);
    migration = { ...run.json, openMs: round(run.json.openMs, 0), maxRssMB: round(run.json.maxRssMB, 0), wallMs: round(run.wallMs, 0), sourceMB: round(sourceBytes / 1024 / 1024, 1) };
    await rm(mdir, { recursive: true, force: true });
  }

  return {
    posts: o.posts, engine, nodes: o.nodes, cliBuild,
    importFile: { comments: o.comments, bytes }, import: imported,
    empty: { rest: emptyRest, latency: emptyLatency },
    full: {
      rest: fullRest, storedComments, latency: fullLatency, baselinePut: basePut, floorPost,
      viewsPut: {
        ...views, acknowledged: viewsMirrorCheck.acknowledged, lostInStore: lostViews(viewsBefore, viewsAfter, acked),
        lostInMirror: viewsMirrorCheck.lostInMirror, mirrorSettledMs: viewsMirrorCheck.settledMs,
        ratioToBaseline: round(views.requestsPerSec / basePut.requestsPerSec, 2),
      },
      commentsPost: {
        ...posting, statuses: load.statuses, acknowledged: load.acks.length, commentsPerSec: load.commentsPerSec,
        visibility, allInMirrorsAfterMs: mirrors.allVisibleAfterMs, inMirrorsAt1s: mirrors.visibleAt1s, rss: rssUnderLoad, restAfter,
      },
      atClose,
    },
    latencyRatio: round(fullLatency.diskP99Ms / emptyLatency.diskP99Ms, 2),
    migration,
  };
}
