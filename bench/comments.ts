/**
 * Comment-to-page latency on a running server: POST one comment at a time to a random
 * post and time from send until the post's page and `dist/api/comments/<slug>` on disk
 * both contain it. Then, for a few more comments, count the dist files rewritten by
 * scanning `dist/` for files whose mtime is after the send.
 */
import { readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { CorpusPost } from './corpus.ts';
import { percentile, median, round, sleep } from './stats.ts';

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

async function contains(path: string, text: string): Promise<boolean> {
  try {
    return (await readFile(path, 'utf8')).includes(text);
  } catch {
    return false;
  }
}

interface Sample {
  diskMs: number;
  ackMs: number;
  status: number;
}

/** Send one comment; resolves when the 201 came and both files show it (or after `timeoutMs`). */
async function one(url: string, dist: string, post: CorpusPost, text: string, timeoutMs = 30_000): Promise<Sample> {
  const page = join(dist, post.category, post.slug, 'index.html');
  const mirror = join(dist, 'api', 'comments', post.slug);
  const t0 = performance.now();
  let ackMs = NaN;
  let status = 0;
  const ack = postComment(url, post.slug, text).then(async (res) => {
    status = res.status;
    ackMs = performance.now() - t0;
    await res.arrayBuffer();
  });
  let diskMs = NaN;
  while (performance.now() - t0 < timeoutMs) {
    const [a, b] = await Promise.all([contains(page, text), contains(mirror, text)]);
    if (a && b) {
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
  /** Files rewritten in dist/ per comment (mtime scan), one entry per probe. */
  filesRewritten: number[];
  filesRewrittenExample: string[];
}

export async function measureCommentLatency(url: string, root: string, posts: readonly CorpusPost[], count: number, probes: number, rand: () => number): Promise<CommentLatency> {
  const dist = join(root, 'dist');
  const pick = () => posts[Math.floor(rand() * posts.length)] as CorpusPost;
  const disk: number[] = [];
  const acks: number[] = [];
  const statuses: Record<string, number> = {};
  let failed = 0;
  for (let i = 0; i < count; i++) {
    const s = await one(url, dist, pick(), `Benchmark comment number ${i} with enough text.`);
    statuses[s.status] = (statuses[s.status] ?? 0) + 1;
    if (s.status !== 201 || Number.isNaN(s.diskMs)) failed++;
    else {
      disk.push(s.diskMs);
      acks.push(s.ackMs);
    }
  }
  const filesRewritten: number[] = [];
  let example: string[] = [];
  for (let i = 0; i < probes; i++) {
    const since = Date.now();
    await sleep(25); // file times come from a coarse clock: keep them clear of `since`
    const s = await one(url, dist, pick(), `Benchmark probe comment number ${i} with enough text.`);
    if (s.status !== 201) continue;
    await sleep(25);
    const changed = await changedSince(dist, since);
    filesRewritten.push(changed.length);
    if (i === 0) example = changed.sort();
  }
  return {
    samples: count, failed, statuses,
    diskP50Ms: round(median(disk)), diskP99Ms: round(percentile(disk, 99)), diskMaxMs: round(Math.max(...disk)),
    ackP50Ms: round(median(acks)), ackP99Ms: round(percentile(acks, 99)),
    filesRewritten, filesRewrittenExample: example,
  };
}
