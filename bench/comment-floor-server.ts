/**
 * The comment floor: the least a server must do to answer a comment 201 under issue
 * 19's promise, with nothing of Agora's around it, so `bench/comment-floor.ts` can
 * tell how many comments per second this machine allows at all. Per POST on a bare
 * Express 5 route:
 *
 * 1. read the text/plain body (64 KB at most) and parse its front matter (yaml);
 * 2. render the body's markdown to sanitized HTML in-process (remark-parse, remark-rehype,
 *    rehype-sanitize, rehype-stringify);
 * 3. store it durably: append one JSON line to the post's own file and fsync it (cheaper
 *    than the real store's replace: no read, no parse, no rename);
 * 4. publish it: the post's page (the site's own `index.html`, found through its record
 *    `dist/api/post/{slug}` and held in memory after the first read) with the card
 *    inserted, and its comment list as JSON (the site's `/api/comments/{slug}` with the
 *    new ones after it), each written to a temporary file and renamed, as `dist/` files are;
 * 5. answer `201 {"id","slug"}`.
 *
 * Nothing else: no validation of fields, no rate limits, no site-wide outputs (the
 * post's list in `/api/posts`, feeds), no second store file, no render worker. A real
 * writer does more, so its rate is at most this one's. The files go to a temporary
 * folder in the site's root (`.floor-*`, removed at the end), never into `data/` or `dist/`.
 */
import express from 'express';
import { randomUUID } from 'node:crypto';
import { mkdtemp, open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { toFileName } from '@agora/generator';
import rehypeSanitize from 'rehype-sanitize';
import rehypeStringify from 'rehype-stringify';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { parse as parseYaml } from 'yaml';

const markdown = unified().use(remarkParse).use(remarkRehype).use(rehypeSanitize).use(rehypeStringify);

interface FloorComment {
  id: string;
  author: string;
  html: string;
  created: string;
}

interface PostState {
  page: Buffer;
  /** The post's comment records: those the site shows, then the floor's. */
  comments: unknown[];
  /** The floor's comments (their cards go into the page, which shows the others already). */
  added: FloorComment[];
  /** One publish at a time per post, so two never race on its files. */
  chain: Promise<void>;
}

/** Start the floor server for the site at `root` (its pages are read, never written). */
export async function startCommentFloor(root: string): Promise<{ url: string; close: () => Promise<void> }> {
  // Beside the site's own `data/` and `dist/`: the same file system as the writer's writes.
  const out = await mkdtemp(join(root, '.floor-'));
  // Promises, so two first comments on one post share one state.
  const posts = new Map<string, Promise<PostState>>();
  /** A post's page and comment records as the site publishes them (a post it lacks: an empty page and list). */
  const published = async (slug: string): Promise<PostState> => {
    const dist = join(root, 'dist');
    const json = async (path: string) => JSON.parse(await readFile(join(dist, path), 'utf8')) as unknown;
    const record = (await json(`api/post/${toFileName(slug)}`).catch(() => null)) as { url?: string } | null;
    const page = record?.url ? await readFile(join(dist, record.url, 'index.html')).catch(() => null) : null;
    const comments = await json(`api/comments/${toFileName(slug)}`).catch(() => []);
    return { page: page ?? Buffer.from(`<!doctype html><title>${slug}</title><body></body>`), comments: Array.isArray(comments) ? comments : [], added: [], chain: Promise.resolve() };
  };
  const replace = async (path: string, bytes: string | Buffer) => {
    const tmp = `${path}.${randomUUID()}.tmp`;
    await writeFile(tmp, bytes);
    await rename(tmp, path);
  };

  const app = express();
  app.post('/api/comments/:slug', express.text({ type: 'text/plain', limit: '64kb' }), async (req, res) => {
    const slug = req.params.slug as string;
    const doc = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(typeof req.body === 'string' ? req.body : '');
    const data = (doc ? parseYaml(doc[1] as string) : {}) as { author?: unknown };
    const html = String(await markdown.process(doc?.[2] ?? ''));
    const comment: FloorComment = { id: randomUUID(), author: String(data.author ?? ''), html, created: new Date().toISOString() };
    let post = posts.get(slug);
    if (!post) posts.set(slug, (post = published(slug)));
    const state = await post;
    const work = state.chain.then(async () => {
      const file = await open(join(out, `${slug}.jsonl`), 'a');
      try {
        await file.write(`${JSON.stringify({ slug, ...comment })}\n`);
        await file.sync();
      } finally {
        await file.close();
      }
      state.comments.push(comment);
      state.added.push(comment);
      const cards = state.added.map((c) => `<article id="c-${c.id}"><p>${c.author}</p>${c.html}</article>`).join('');
      const at = state.page.lastIndexOf('</body>');
      const page = at < 0 ? Buffer.concat([state.page, Buffer.from(cards)]) : Buffer.concat([state.page.subarray(0, at), Buffer.from(cards), state.page.subarray(at)]);
      await Promise.all([replace(join(out, `${slug}.html`), page), replace(join(out, `${slug}.json`), JSON.stringify(state.comments))]);
    });
    state.chain = work.catch(() => {});
    try {
      await work;
      res.status(201).json({ id: comment.id, slug });
    } catch (error) {
      res.status(500).json({ error: String(error) });
    }
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      await new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      });
      // Comments under way when the load stopped finish first.
      await Promise.all([...posts.values()].map(async (p) => (await p).chain));
      await rm(out, { recursive: true, force: true });
    },
  };
}
