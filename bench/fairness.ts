/**
 * `npm run bench:fairness [-- --rounds 25] [--heavy 10]`: one client never slows another (issue 19,
 * point 3). On the 16 sample posts (a scratch copy, no rate limits, clients told apart
 * by X-Forwarded-For), with two busy loops taking the machine's cores, each round one
 * client sends 10 of the heaviest bodies the work limits accept at once (its whole
 * default per-minute budget) and, 20 ms later, four other clients send one ordinary
 * comment each. Prints the answers and the latency of each group (to the 201: stored
 * and on its page). 25 rounds give the ordinary comments 100 samples, so their p99 is
 * not simply the slowest (5 rounds, the default until the ninth session, gave 20).
 * `--heavy 0` leaves the heavy client out: what the busy loops alone
 * cost the ordinary comments. `--server floor` sends the same rounds to the comment floor
 * (comment-floor-server.ts: a bare route doing the least a published 201 needs) instead
 * of the writer: what the busy loops cost a server that does almost nothing.
 */
import { spawn } from 'node:child_process';
import { cp, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from './child.ts';
import { startServerChild } from './server-handle.ts';
import { WORST_CASES } from './comment-limits.ts';
import { API_KEY, commentDoc } from './comments.ts';
import { flag } from './report.ts';
import { percentile } from './stats.ts';

export interface FairnessFigures {
  rounds: number;
  statuses: Record<string, number>;
  ordinary: { p50Ms: number; p99Ms: number; maxMs: number };
  heavy: { p50Ms: number; p99Ms: number; maxMs: number };
}

const summary = (ms: number[]) => ({ p50Ms: Math.round(percentile(ms, 50)), p99Ms: Math.round(percentile(ms, 99)), maxMs: Math.round(Math.max(...ms)) });

export async function runFairness(rounds: number, log: (line: string) => void = () => {}, heavyPerRound = 10, mode: 'agora' | 'floor' = 'agora'): Promise<FairnessFigures> {
  const dir = await mkdtemp(join(tmpdir(), 'agora-fair-'));
  const burners = [0, 1].map(() => spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
  try {
    await cp(join(REPO_ROOT, 'content'), join(dir, 'content'), { recursive: true });
    await writeFile(join(dir, 'agora.config.json'), JSON.stringify({ searchIndex: false, limits: { trustProxy: true, commentsPerIpPerMinute: 0, commentsPerPostPerHour: 0, commentsPerSitePerHour: 0, duplicateWindowSeconds: 0 } }));
    const server = await startServerChild(mode, dir);
    const posts = mode === 'agora'
      ? ((await (await fetch(`${server.url}/api/posts`)).json()) as { slug: string }[])
      : (await readdir(join(dir, 'content', 'posts'))).filter((f) => f.endsWith('.md')).sort().map((f) => ({ slug: f.slice(0, -3) }));
    const heavyBodies = Object.values(WORST_CASES);
    const statuses: Record<string, number> = {};
    const ordinary: number[] = [];
    const heavy: number[] = [];
    const post = async (who: string, address: string, slug: string, body: string, into: number[]) => {
      const started = performance.now();
      const res = await fetch(`${server.url}/api/comments/${encodeURIComponent(slug)}`, {
        method: 'POST',
        headers: { 'X-API-Key': API_KEY, 'Content-Type': 'text/plain; charset=utf-8', 'X-Forwarded-For': address },
        body: commentDoc(body).replace('author: bench', `author: ${who}`),
      });
      await res.arrayBuffer();
      into.push(performance.now() - started);
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    };
    for (let round = 0; round < rounds; round++) {
      log(`round ${round + 1} of ${rounds}`);
      const sends = Array.from({ length: heavyPerRound }, (_, i) => post(`heavy-${round}-${i}`, '203.0.113.1', posts[i % posts.length]!.slug, heavyBodies[(round * 10 + i) % heavyBodies.length]!, heavy));
      await new Promise((r) => setTimeout(r, 20));
      sends.push(...[1, 2, 3, 4].map((c) => post(`other-${round}-${c}`, `198.51.100.${c}`, posts[(c + 8) % posts.length]!.slug, `An ordinary comment from client ${c}, round ${round}.`, ordinary)));
      await Promise.all(sends);
    }
    await server.close();
    return { rounds, statuses, ordinary: summary(ordinary), heavy: summary(heavy) };
  } finally {
    for (const b of burners) b.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const mode = flag('server') === 'floor' ? 'floor' : 'agora';
  const f = await runFairness(Number(flag('rounds', 'BENCH_FAIRNESS_ROUNDS') ?? 25), (line) => console.error(`[bench] ${line}`), Number(flag('heavy') ?? 10), mode);
  console.log(`fairness under CPU load (2 busy loops), ${mode === 'floor' ? 'the comment floor' : 'the writer'}, ${f.rounds} rounds; answers ${JSON.stringify(f.statuses)}`);
  console.log(`ordinary comments of 4 other clients: p50 ${f.ordinary.p50Ms} ms, p99 ${f.ordinary.p99Ms} ms, max ${f.ordinary.maxMs} ms (target: all ≤ 1 s, p99 ≤ 100 ms)`);
  if (f.heavy.p50Ms >= 0) console.log(`the heavy client's ${flag('heavy') ?? 10} at once: p50 ${f.heavy.p50Ms} ms, p99 ${f.heavy.p99Ms} ms, max ${f.heavy.maxMs} ms`);
}
