/**
 * Watch acknowledged comments become visible during a load, on every writer node:
 * on the post's page (the 201 promises it at once; target ≤ 1 s) and in `/api/posts`
 * (site-wide, follows within AGORA_AGGREGATE_DELAY_MS; target ≤ 2 s). Delays run from
 * the moment the bench received the 201.
 *
 * A comment is in `/api/posts` from the moment the file that counts it is put in place
 * (read from disk: the file's change time, which the writer's rename sets; over HTTP:
 * when the watcher saw it). The watcher reads and parses 25+ MB per version, which
 * under the load takes a few hundred ms; the time it had read it is reported too.
 *
 * `/api/posts` carries a count per post, not the ids, so a comment counts as visible
 * there once its post's `comment_count` reaches the count at the start plus the
 * number of 201s on that post up to and including this one (comments are only added
 * during the load; with random posts two in flight on one post are rare).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { BENCH_DIR, REPO_ROOT } from './child.ts';
import type { CorpusPost } from './corpus.ts';
import type { Ack } from './load.ts';
import type { PostsMessage } from './posts-watch-child.ts';
import { probeOf, type Probe, type WriterNode } from './writer-nodes.ts';
import { percentile, round, sleep } from './stats.ts';

/** Epoch ms with sub-ms precision, comparable across processes. */
const now = () => performance.timeOrigin + performance.now();

interface Pending {
  id: string;
  post: CorpusPost;
  at: number;
  /** /api/posts shows it once the post's count reaches this. */
  expected: number;
  pageSeen: boolean;
  postsSeen: boolean;
}

export interface VisibilityFigures {
  nodes: number;
  /** Acknowledged comments checked (every `sampleEvery`-th 201), per node. */
  checked: number;
  pageP99Ms: number;
  pageWorstMs: number;
  pageOver1s: number;
  postsP99Ms: number;
  postsWorstMs: number;
  postsOver2s: number;
  /** p99 until the bench's watcher had read the new `/api/posts` (25+ MB, its own lag included). */
  postsSeenP99Ms: number;
  /** Still not visible when the watch gave up (`settleMs` after the load). */
  pageNeverSeen: number;
  postsNeverSeen: number;
}

class NodeWatch {
  readonly pending: Pending[] = [];
  readonly pageDelays: number[] = [];
  readonly postsDelays: number[] = [];
  /** The same, until this bench's watcher had read and parsed the file (its own lag included). */
  readonly postsSeenDelays: number[] = [];
  private baseline: Map<string, number> | null = null;
  /** The latest counts (the watcher sends what changed). */
  private counts = new Map<string, number>();
  private readonly probe: Probe;
  private child: ChildProcess | null = null;

  constructor(private readonly node: WriterNode) {
    this.probe = probeOf(node);
  }

  /** Start the `/api/posts` watcher; its first message is the count at the start. */
  async start(): Promise<void> {
    const child = fork(join(BENCH_DIR, 'posts-watch-child.ts'), [JSON.stringify(this.node)], {
      cwd: REPO_ROOT, execArgv: ['--import', 'tsx', '--conditions=agora-source'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child = child;
    await new Promise<void>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`posts watcher exited with ${code}`)));
      child.on('message', (m: PostsMessage) => {
        if (!this.baseline) {
          this.baseline = new Map(m.counts);
          this.counts = new Map(m.counts);
          return resolve();
        }
        for (const [slug, n] of m.counts) this.counts.set(slug, n);
        const counts = this.counts;
        for (const p of this.pending) {
          if (!p.postsSeen && (counts.get(p.post.slug) ?? 0) >= p.expected) {
            p.postsSeen = true;
            this.postsDelays.push(Math.max(0, m.at - p.at));
            this.postsSeenDelays.push(Math.max(0, m.seenAt - p.at));
          }
        }
      });
    });
  }

  base(slug: string): number {
    return this.baseline?.get(slug) ?? 0;
  }

  /** One pass over the pages of pending comments. */
  async poll(): Promise<void> {
    const open = this.pending.filter((p) => !p.pageSeen);
    await Promise.all(open.map(async (p) => {
      if ((await this.probe.page(p.post)).includes(`id="comment-${p.id}"`)) {
        p.pageSeen = true;
        this.pageDelays.push(now() - p.at);
      }
    }));
  }

  tidy(): void {
    for (let i = this.pending.length - 1; i >= 0; i--) if (this.pending[i]!.pageSeen && this.pending[i]!.postsSeen) this.pending.splice(i, 1);
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    child.removeAllListeners('exit');
    const exited = new Promise((r) => child.once('exit', r));
    child.send({ type: 'stop' });
    await exited;
  }
}

export class VisibilityWatch {
  private readonly watches: NodeWatch[];
  private readonly acksOnSlug = new Map<string, number>();
  private acks = 0;
  private stopped = false;
  private loop: Promise<void> | null = null;

  constructor(nodes: readonly WriterNode[], private readonly sampleEvery = 1) {
    this.watches = nodes.map((n) => new NodeWatch(n));
  }

  /** Read each node's `/api/posts` once (the counts before the load), then poll pages every ~20 ms. */
  async start(): Promise<void> {
    await Promise.all(this.watches.map((w) => w.start()));
    this.loop = (async () => {
      while (!this.stopped) {
        await Promise.all(this.watches.map((w) => w.poll()));
        for (const w of this.watches) w.tidy();
        await sleep(20);
      }
    })();
  }

  /** A 201 arrived (call at once: the delay starts now). */
  acked(ack: Ack, post: CorpusPost): void {
    const k = (this.acksOnSlug.get(ack.slug) ?? 0) + 1;
    this.acksOnSlug.set(ack.slug, k);
    if (this.acks++ % this.sampleEvery !== 0) return;
    const at = now();
    for (const w of this.watches) w.pending.push({ id: ack.id, post, at, expected: w.base(ack.slug) + k, pageSeen: false, postsSeen: false });
  }

  /** After the load: keep watching until everything is seen or `settleMs` passed. */
  async finish(settleMs = 5000): Promise<VisibilityFigures> {
    const until = performance.now() + settleMs;
    while (performance.now() < until && this.watches.some((w) => w.pending.length > 0)) await sleep(50);
    this.stopped = true;
    await this.loop;
    await Promise.all(this.watches.map((w) => w.stop()));
    const page = this.watches.flatMap((w) => w.pageDelays);
    const posts = this.watches.flatMap((w) => w.postsDelays);
    const never = (key: 'pageSeen' | 'postsSeen') => this.watches.reduce((n, w) => n + w.pending.filter((p) => !p[key]).length, 0);
    return {
      nodes: this.watches.length,
      checked: Math.ceil(this.acks / this.sampleEvery),
      pageP99Ms: round(percentile(page, 99), 0), pageWorstMs: round(Math.max(0, ...page), 0), pageOver1s: page.filter((d) => d > 1000).length,
      postsP99Ms: round(percentile(posts, 99), 0), postsWorstMs: round(Math.max(0, ...posts), 0), postsOver2s: posts.filter((d) => d > 2000).length,
      postsSeenP99Ms: round(percentile(this.watches.flatMap((w) => w.postsSeenDelays), 99), 0),
      pageNeverSeen: never('pageSeen'), postsNeverSeen: never('postsSeen'),
    };
  }
}
