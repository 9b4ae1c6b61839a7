/**
 * The writer nodes a scenario talks to, and how it sees what a node serves. One node
 * for the embedded store; with `AGORA_STORE=postgres` several nodes (each its own port
 * and root) share one database: a scenario posts to the first and checks visibility on
 * every node.
 *
 * A node with a `root` on this machine is read from its `dist/` on disk (costs the
 * server nothing, so polling every millisecond does not slow what is measured); a
 * node known only by URL is read over HTTP (conditional GET for the big `/api/posts`).
 */
import { open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CorpusPost } from './corpus.ts';

export interface WriterNode {
  url: string;
  /** Project root of this node, when it runs here: its `dist/` is read from disk. */
  root?: string;
}

export interface Probe {
  /** The post's HTML page as served ('' when missing). */
  page(post: CorpusPost): Promise<string>;
  /** `/api/comments/{slug}` as served ('' when missing). */
  mirror(slug: string): Promise<string>;
  /**
   * `/api/posts` when it changed since the last call, else null; read from disk, with
   * when the file was put in place (its inode's change time: the writer renames a new
   * file over it), which an HTTP probe cannot know.
   */
  postsIfChanged(): Promise<{ text: string; replacedAt?: number } | null>;
}

const text = (path: string) => readFile(path, 'utf8').catch(() => '');

function diskProbe(root: string): Probe {
  const dist = join(root, 'dist');
  let stamp = '';
  return {
    page: (post) => text(join(dist, post.category, post.slug, 'index.html')),
    mirror: (slug) => text(join(dist, 'api', 'comments', slug)),
    async postsIfChanged() {
      // Stat and read through one open file: a rename between them cannot pair the newer
      // text with the older file's change time.
      const file = await open(join(dist, 'api', 'posts'), 'r').catch(() => null);
      if (!file) return null;
      try {
        const s = await file.stat();
        const now = `${s.ino}:${s.mtimeMs}:${s.size}`;
        if (now === stamp) return null;
        stamp = now;
        return { text: await file.readFile('utf8'), replacedAt: s.ctimeMs };
      } finally {
        await file.close();
      }
    },
  };
}

function httpProbe(url: string): Probe {
  const get = async (path: string) => {
    const res = await fetch(`${url}${path}`).catch(() => null);
    return res?.ok ? res.text() : '';
  };
  let etag = '';
  return {
    page: (post) => get(`/${post.category}/${encodeURIComponent(post.slug)}/`),
    mirror: (slug) => get(`/api/comments/${encodeURIComponent(slug)}`),
    async postsIfChanged() {
      const res = await fetch(`${url}/api/posts`, { headers: etag ? { 'If-None-Match': etag } : {} }).catch(() => null);
      if (!res || res.status === 304 || !res.ok) {
        await res?.arrayBuffer().catch(() => {});
        return null;
      }
      etag = res.headers.get('etag') ?? '';
      return { text: await res.text() };
    },
  };
}

export function probeOf(node: WriterNode): Probe {
  return node.root ? diskProbe(node.root) : httpProbe(node.url);
}

/** Comment count per slug in an `/api/posts` body. */
export function commentCounts(postsJson: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const p of JSON.parse(postsJson) as { slug: string; comment_count: number }[]) counts.set(p.slug, p.comment_count);
  return counts;
}
