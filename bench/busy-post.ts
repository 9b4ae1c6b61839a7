/**
 * A comment costs what it changed, not what its post already holds:
 * `node --import tsx --conditions=agora-source bench/busy-post.ts [--heavy 0,25] [--comments 60]`
 * starts the writer (compiled, as `npm start` runs it) on a scratch copy of the sample
 * posts, gives one post `--heavy` of the heaviest bodies the work limits accept, then
 * sends `--comments` ordinary comments to that post one after another, and prints
 * their latency to the 201 (stored and on the post's page) and the size of the post's
 * page and comment mirror. Each count of heavy comments runs on its own fresh copy.
 */
import { cp, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from './child.ts';
import { startServerChild } from './server-handle.ts';
import { WORST_CASES } from './comment-limits.ts';
import { API_KEY, commentDoc } from './comments.ts';
import { flag } from './report.ts';
import { percentile } from './stats.ts';

const heavyCounts = (flag('heavy') ?? '0,25').split(',').map(Number);
const count = Number(flag('comments') ?? 60);

async function run(heavy: number): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'agora-busy-post-'));
  try {
    await cp(join(REPO_ROOT, 'content'), join(dir, 'content'), { recursive: true });
    await writeFile(join(dir, 'agora.config.json'), JSON.stringify({ searchIndex: false, limits: { trustProxy: true, commentsPerIpPerMinute: 0, commentsPerPostPerHour: 0, commentsPerSitePerHour: 0, duplicateWindowSeconds: 0 } }));
    const server = await startServerChild('agora', dir);
    try {
      const [post] = (await (await fetch(`${server.url}/api/posts`)).json()) as { slug: string; url: string }[];
      if (!post) throw new Error('no sample post');
      const send = async (body: string, address: string) => {
        const started = performance.now();
        const res = await fetch(`${server.url}/api/comments/${encodeURIComponent(post.slug)}`, {
          method: 'POST',
          headers: { 'X-API-Key': API_KEY, 'Content-Type': 'text/plain; charset=utf-8', 'X-Forwarded-For': address },
          body: commentDoc(body),
        });
        await res.arrayBuffer();
        if (res.status !== 201) throw new Error(`answered ${res.status}`);
        return performance.now() - started;
      };
      const bodies = Object.values(WORST_CASES);
      for (let i = 0; i < heavy; i++) await send(bodies[i % bodies.length]!, '203.0.113.1');
      await new Promise((r) => setTimeout(r, 1500)); // the site-wide flush after them
      const times: number[] = [];
      for (let i = 0; i < count; i++) {
        times.push(await send(`An ordinary comment, number ${i}, on a busy post.`, '198.51.100.1'));
        await new Promise((r) => setTimeout(r, 30));
      }
      const size = async (path: string) => Math.round((await stat(join(dir, 'dist', path))).size / 1024);
      const page = await size(`${post.url.slice(1)}index.html`);
      const mirror = await size(`api/comments/${post.slug}`);
      return `| ${heavy} | ${page} KB / ${mirror} KB | ${percentile(times, 50).toFixed(1)} ms | ${percentile(times, 90).toFixed(1)} ms | ${Math.max(...times).toFixed(1)} ms |`;
    } finally {
      await server.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const rows: string[] = [];
for (const heavy of heavyCounts) rows.push(await run(heavy));
console.log(`${count} ordinary comments, one after another, on a post holding N of the heaviest bodies\n`);
console.log('| heavy comments on the post | page / comment mirror | p50 | p90 | max |\n| --- | --- | --- | --- | --- |');
for (const row of rows) console.log(row);
