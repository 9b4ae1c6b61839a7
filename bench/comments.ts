/**
 * Comment-to-page latency: POST one comment at a time to a random post on the first
 * writer node and time from send until the post's page and `/api/comments/<slug>` show
 * it on every node (see writer-nodes.ts: read from `dist/` on disk for a local node,
 * polled every ~1 ms). Then, for a few more comments, count the dist files rewritten
 * by scanning the first node's `dist/` for files whose mtime is after the send.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { CorpusPost } from './corpus.ts';
import { percentile, median, round, sleep } from './stats.ts';
import { probeOf, type Probe, type WriterNode } from './writer-nodes.ts';

export const API_KEY = 'agora-public-comment-key';

export function commentDoc(text: string): string {
  return `---\nauthor: bench\nmodel: bench-model\ntype: supplement\n---\n${text}\n`;
}

export function postComment(url: string, slug: string, text: string): Promise<Response> {
  return fetch(`${url}/api/comments/${encodeURIComponent(slug)}`, {
    method: 'POST',
    headers: { 'X-API-Key': API_KEY, 'Content-Type': 'text/plain; charset=utf-8' },
    body: commentDoc(text),
  });
}

interface Sample {
  diskMs: number;
  ackMs: number;
  status: number;
}

/** Send one comment to `url`; resolves when the 201 came and every probe shows it (or after `timeoutMs`). */
async function one(url: string, probes: readonly Probe[], post: CorpusPost, text: string, timeoutMs = 30_000): Promise<Sample> {
  const t0 = performance.now();
  let ackMs = NaN;
  let status = 0;
  const ack = postComment(url, post.slug, text).then(async (res) => {
    status = res.status;
    ackMs = performance.now() - t0;
    await res.arrayBuffer();
  });
  let diskMs = NaN;
  const pending = new Set(probes);
  while (performance.now() - t0 < timeoutMs) {
    await Promise.all([...pending].map(async (p) => {
      const [a, b] = await Promise.all([p.page(post), p.mirror(post.slug)]);
      if (a.includes(text) && b.includes(text)) pending.delete(p);
    }));
    if (pending.size === 0) {
      diskMs = performance.now() - t0;
      break;
    }
    if (status !== 0 && status !== 201) break;
    await sleep(1);
  }
  await ack;
  return { diskMs, ackMs, status };
}

/** Files under `dir` modified at or after `since` (epoch ms). */
async function changedSince(dir: string, since: number): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
  const out: string[] = [];
  for (let i = 0; i < files.length; i += 512) {
    const stats = await Promise.all(files.slice(i, i + 512).map((f) => stat(f).then((s) => [f, s.mtimeMs] as const, () => [f, 0] as const)));
    for (const [f, m] of stats) if (m >= since) out.push(f.slice(dir.length + 1));
  }
  return out;
}

export interface CommentLatency {
  samples: number;
  failed: number;
  statuses: Record<string, number>;
  diskP50Ms: number;
  diskP99Ms: number;
  diskMaxMs: number;
  ackP50Ms: number;
  ackP99Ms: number;
  ackMaxMs: number;
  /** Files rewritten in dist/ per comment (mtime scan), one entry per probe. */
  filesRewritten: number[];
  filesRewrittenExample: string[];
}

/**
 * `count` comments one at a time, posted to `nodes[0]`, visible on every node; `rand`
 * picks the posts, so the same seed gives the same posts (empty vs full store).
 */
export async function measureCommentLatency(nodes: readonly WriterNode[], posts: readonly CorpusPost[], count: number, probes: number, rand: () => number): Promise<CommentLatency> {
  const [first] = nodes;
  if (!first) throw new Error('no writer node');
  const watch = nodes.map(probeOf);
  const pick = () => posts[Math.floor(rand() * posts.length)] as CorpusPost;
  const disk: number[] = [];
  const acks: number[] = [];
  const statuses: Record<string, number> = {};
  let failed = 0;
  const tag = Date.now().toString(36); // runs on one store must not find each other's comments
  // Untimed: this process's first fetch and first reads of dist/ load their own code
  // (~300 ms on the first sample otherwise, while the writer's log said 37 ms).
  await fetch(`${first.url}/api/health`).then((r) => r.arrayBuffer()).catch(() => {});
  for (const p of watch) await Promise.all([p.page(posts[0]!), p.mirror(posts[0]!.slug)]).catch(() => {});
  for (let i = 0; i < count; i++) {
    const s = await one(first.url, watch, pick(), `Benchmark comment ${tag} number ${i} with enough text.`);
    statuses[s.status] = (statuses[s.status] ?? 0) + 1;
    if (s.status !== 201 || Number.isNaN(s.diskMs)) failed++;
    else {
      disk.push(s.diskMs);
      acks.push(s.ackMs);
    }
  }
  const filesRewritten: number[] = [];
  let example: string[] = [];
  const dist = first.root ? join(first.root, 'dist') : null;
  for (let i = 0; dist && i < probes; i++) {
    const since = Date.now();
    await sleep(25); // file times come from a coarse clock: keep them clear of `since`
    const s = await one(first.url, watch, pick(), `Benchmark probe comment ${tag} number ${i} with enough text.`);
    if (s.status !== 201) continue;
    await sleep(25);
    const changed = await changedSince(dist, since);
    filesRewritten.push(changed.length);
    if (i === 0) example = changed.sort();
  }
  return {
    samples: count, failed, statuses,
    diskP50Ms: round(median(disk)), diskP99Ms: round(percentile(disk, 99)), diskMaxMs: round(Math.max(...disk)),
    ackP50Ms: round(median(acks)), ackP99Ms: round(percentile(acks, 99)), ackMaxMs: round(Math.max(...acks)),
    filesRewritten, filesRewrittenExample: example,
  };
}
