/**
 * `npm run bench:restart`: the writer's start-up on the 16 sample posts with heavy
 * comments (issue 19, point 4). Copies `content/` to a scratch site with no rate
 * limits, starts the writer, posts `--comments` (default 150) of the heaviest bodies
 * the rendering-work limits accept (cycled over the sample posts), stops it, then
 * starts it twice more: after a restart with nothing changed, and after one comment
 * body was edited in `data/` while it was stopped. Prints when the port was open and
 * when the writer had caught up, each time.
 */
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from './child.ts';
import { startServerChild } from './server-handle.ts';
import { WORST_CASES } from './comment-limits.ts';
import { API_KEY, commentDoc } from './comments.ts';
import { flag } from './report.ts';

export interface RestartFigures {
  comments: number;
  answered: Record<string, number>;
  firstStart: { listenMs: number; startMs: number };
  restart: { listenMs: number; startMs: number };
  afterOfflineEdit: { listenMs: number; startMs: number; edited: boolean };
}

const round = (n: number) => Math.round(n);

export async function runRestartHeavy(comments: number, log: (line: string) => void = () => {}): Promise<RestartFigures> {
  const dir = await mkdtemp(join(tmpdir(), 'agora-restart-'));
  try {
    await cp(join(REPO_ROOT, 'content'), join(dir, 'content'), { recursive: true });
    await writeFile(join(dir, 'agora.config.json'), JSON.stringify({ searchIndex: false, limits: { commentsPerIpPerMinute: 0, commentsPerPostPerHour: 0, commentsPerSitePerHour: 0, duplicateWindowSeconds: 0 } }));
    log('first start (cold build of the 16 sample posts)');
    let server = await startServerChild('agora', dir);
    const firstStart = { listenMs: round(server.listenMs), startMs: round(server.startMs) };
    const posts = (await (await fetch(`${server.url}/api/posts`)).json()) as { slug: string }[];
    const bodies = Object.values(WORST_CASES);
    log(`${comments} heavy comments`);
    const answered: Record<string, number> = {};
    for (let i = 0; i < comments; i += 10) {
      await Promise.all(Array.from({ length: Math.min(10, comments - i) }, async (_, j) => {
        const n = i + j;
        const res = await fetch(`${server.url}/api/comments/${encodeURIComponent(posts[n % posts.length]!.slug)}`, {
          method: 'POST',
          headers: { 'X-API-Key': API_KEY, 'Content-Type': 'text/plain; charset=utf-8' },
          body: commentDoc(bodies[n % bodies.length]!).replace('author: bench', `author: heavy-${n}`),
        });
        await res.arrayBuffer();
        answered[res.status] = (answered[res.status] ?? 0) + 1;
      }));
    }
    await server.close();
    log('restart, nothing changed');
    server = await startServerChild('agora', dir);
    const restart = { listenMs: round(server.listenMs), startMs: round(server.startMs) };
    await server.close();
    // One comment edited in data/ while the writer is stopped: published by the next start.
    const files = (await readdir(join(dir, 'data', 'comments'))).filter((f) => f.endsWith('.json'));
    const file = join(dir, 'data', 'comments', files[0]!);
    const stored = JSON.parse(await readFile(file, 'utf8')) as { slug: string; comments: { id: string; body: string }[] };
    stored.comments[0]!.body = 'Edited in data/ while the writer was stopped.';
    await writeFile(file, JSON.stringify(stored));
    log('restart after an offline edit');
    server = await startServerChild('agora', dir);
    const mirror = await (await fetch(`${server.url}/api/comments/${encodeURIComponent(stored.slug)}`)).text();
    const afterOfflineEdit = { listenMs: round(server.listenMs), startMs: round(server.startMs), edited: mirror.includes('Edited in data/ while the writer was stopped.') };
    await server.close();
    return { comments, answered, firstStart, restart, afterOfflineEdit };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await runRestartHeavy(Number(flag('comments', 'BENCH_HEAVY_COMMENTS') ?? 150), (line) => console.error(`[bench] ${line}`));
  console.log(`heavy comments posted: ${figures.comments} (answers ${JSON.stringify(figures.answered)})`);
  console.log(`first start (cold build): listening ${figures.firstStart.listenMs} ms, caught up ${figures.firstStart.startMs} ms`);
  console.log(`restart, nothing changed: listening ${figures.restart.listenMs} ms, caught up ${figures.restart.startMs} ms (target: listening ≤ 2 s, caught up ≤ 10 s)`);
  console.log(`restart after an offline edit: listening ${figures.afterOfflineEdit.listenMs} ms, caught up ${figures.afterOfflineEdit.startMs} ms, edit published: ${figures.afterOfflineEdit.edited}`);
}
