/**
 * Writer throughput with autocannon on loopback: PUT /api/views/{slug} (and the same
 * requests against a bare Express route, the baseline), and POST comments with a
 * fresh valid document per request. Checks afterwards that every acknowledged view
 * reached the mirror and every acknowledged comment its post's mirror.
 */
import autocannon from 'autocannon';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CorpusPost } from './corpus.ts';
import { API_KEY, commentDoc } from './comments.ts';
import { round, sleep } from './stats.ts';

export interface LoadFigures {
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

function figures(r: autocannon.Result): LoadFigures {
  return {
    requestsPerSec: round(r.requests.average), p50Ms: round(r.latency.p50, 2), p99Ms: round(r.latency.p99, 2),
    requests: r.requests.total, ok: r['2xx'], non2xx: r.non2xx, errors: r.errors, timeouts: r.timeouts,
  };
}

interface SlugContext { slug?: string }

/** PUT views to random posts; returns the figures and the acknowledged count per slug. */
export async function loadViews(url: string, slugs: readonly string[], seconds: number, connections: number, rand: () => number) {
  const acked = new Map<string, number>();
  const result = await autocannon({
    url, connections, duration: seconds,
    requests: [{
      method: 'PUT',
      setupRequest: (req, ctx) => {
        const slug = slugs[Math.floor(rand() * slugs.length)] as string;
        (ctx as SlugContext).slug = slug;
        return { ...req, path: `/api/views/${encodeURIComponent(slug)}` };
      },
      onResponse: (status, _body, ctx) => {
        const slug = (ctx as SlugContext).slug;
        if (status === 200 && slug) acked.set(slug, (acked.get(slug) ?? 0) + 1);
      },
    }],
  });
  return { figures: figures(result), acked };
}

async function readJson<T>(path: string): Promise<T | null> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch {
    return null;
  }
}

/**
 * Acknowledged PUTs not yet counted in a local node's `dist/api/views`, polled until
 * none or `waitMs` (the stored counts are checked after shutdown, through the store).
 */
export async function checkViewsMirror(root: string, before: Record<string, number>, acked: Map<string, number>, waitMs = 10_000) {
  const started = performance.now();
  let mirror = Infinity;
  while (performance.now() - started < waitMs) {
    const now = await readJson<Record<string, number>>(join(root, 'dist', 'api', 'views'));
    mirror = 0;
    for (const [slug, k] of acked) mirror += Math.max(0, k - ((now?.[slug] ?? 0) - (before[slug] ?? 0)));
    if (mirror === 0) break;
    await sleep(50);
  }
  const acknowledged = [...acked.values()].reduce((a, b) => a + b, 0);
  return { acknowledged, lostInMirror: mirror, settledMs: round(performance.now() - started, 0) };
}

/** `dist/api/views` of a local node (the counts before a load). */
export async function viewsMirror(root: string): Promise<Record<string, number>> {
  return (await readJson<Record<string, number>>(join(root, 'dist', 'api', 'views'))) ?? {};
}

export interface Ack { id: string; slug: string }

/**
 * POST a valid, distinct comment per request to random posts, from `connections`
 * clients (distinct `X-Forwarded-For` addresses); `onAck` hears each 201
 * as it arrives (the visibility watch). The sustained rate is 201s ÷ seconds.
 */
export async function loadComments(url: string, posts: readonly CorpusPost[], seconds: number, connections: number, rand: () => number, onAck: (ack: Ack, post: CorpusPost) => void = () => {}) {
  const acks: Ack[] = [];
  const statuses: Record<string, number> = {};
  const bySlug = new Map(posts.map((p) => [p.slug, p]));
  let n = 0;
  const tag = Date.now().toString(36);
  const result = await autocannon({
    url, connections, duration: seconds, method: 'POST',
    headers: { 'x-api-key': API_KEY, 'content-type': 'text/plain; charset=utf-8' },
    requests: [{
      setupRequest: (req) => {
        const post = posts[Math.floor(rand() * posts.length)] as CorpusPost;
        // One client per connection's worth of requests: the writer counts budgets and
        // render turns per client (`X-Forwarded-For`, trusted from loopback by the corpus config).
        const client = n % connections;
        const headers = { ...req.headers, 'x-forwarded-for': `10.77.${client >> 8}.${client & 255}` };
        return { ...req, headers, path: `/api/comments/${encodeURIComponent(post.slug)}`, body: commentDoc(`Load comment ${tag} number ${n++} with enough text.`) };
      },
      onResponse: (status, body) => {
        statuses[status] = (statuses[status] ?? 0) + 1;
        if (status !== 201) return;
        const ack = JSON.parse(body) as Ack;
        acks.push(ack);
        onAck(ack, bySlug.get(ack.slug) as CorpusPost);
      },
    }],
  });
  return { figures: figures(result), acks, statuses, commentsPerSec: round(acks.length / seconds, 0) };
}

/** How many acknowledged comments are in `dist/api/comments/<slug>` by 1 s after the load, and how soon all were (first check is at once). */
export async function checkComments(root: string, acks: readonly Ack[], stoppedAt: number, waitMs = 10_000) {
  const bySlug = new Map<string, string[]>();
  for (const a of acks) bySlug.set(a.slug, [...(bySlug.get(a.slug) ?? []), a.id]);
  const visible = async () => {
    let n = 0;
    await Promise.all([...bySlug].map(async ([slug, ids]) => {
      const list = (await readJson<{ id: string }[]>(join(root, 'dist', 'api', 'comments', slug))) ?? [];
      const have = new Set(list.map((c) => c.id));
      n += ids.filter((id) => have.has(id)).length;
    }));
    return n;
  };
  let visibleAt1s: number | null = null;
  let allVisibleAfterMs: number | null = null;
  while (performance.now() - stoppedAt < waitMs) {
    const n = await visible();
    const elapsed = performance.now() - stoppedAt;
    if (visibleAt1s === null && (elapsed >= 1000 || n === acks.length)) visibleAt1s = n;
    if (n === acks.length) {
      allVisibleAfterMs = round(elapsed, 0);
      break;
    }
    await sleep(Math.min(100, Math.max(0, stoppedAt + 1000 - performance.now())) || 100);
  }
  return { acknowledged: acks.length, visibleAt1s: visibleAt1s ?? 0, allVisibleAfterMs };
}
