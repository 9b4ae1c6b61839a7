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
  /**
   * The post's HTML page as served (empty when missing), as bytes: the bench looks for
   * an ASCII anchor in it, and decoding each poll's page as UTF-8 only cost CPU the
   * writer under measurement shares.
   */
  page(post: CorpusPost): Promise<Buffer>;
  /** `/api/comments/{slug}` as served (empty when missing), as bytes. */
  mirror(slug: string): Promise<Buffer>;
  /**
   * `/api/posts` when it changed since the last call, else null; read from disk, with
   * when the file was put in place (its inode's change time: the writer renames a new
   * file over it), which an HTTP probe cannot know.
   */
  postsIfChanged(): Promise<{ bytes: Buffer; replacedAt?: number } | null>;
}

const EMPTY = Buffer.alloc(0);
const bytes = (path: string) => readFile(path).catch(() => EMPTY);

function diskProbe(root: string): Probe {
  const dist = join(root, 'dist');
  let stamp = '';
  return {
    page: (post) => bytes(join(dist, post.category, post.slug, 'index.html')),
    mirror: (slug) => bytes(join(dist, 'api', 'comments', slug)),
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
        return { bytes: await file.readFile(), replacedAt: s.ctimeMs };
      } finally {
        await file.close();
      }
    },
  };
}

function httpProbe(url: string): Probe {
  const get = async (path: string) => {
    const res = await fetch(`${url}${path}`).catch(() => null);
    return res?.ok ? Buffer.from(await res.arrayBuffer()) : EMPTY;
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
      return { bytes: Buffer.from(await res.arrayBuffer()) };
    },
  };
}

export function probeOf(node: WriterNode): Probe {
  return node.root ? diskProbe(node.root) : httpProbe(node.url);
}

/** Comment count per slug in an `/api/posts` body. */
export function commentCounts(posts: Buffer): Map<string, number> {
  const counts = new Map<string, number>();
  for (const p of JSON.parse(posts.toString('utf8')) as { slug: string; comment_count: number }[]) counts.set(p.slug, p.comment_count);
  return counts;
}

const SLUG = Buffer.from(',"slug":"');
const COUNT = Buffer.from('","comment_count":');

/**
 * The same counts, found by scanning the bytes for each record's `,"slug":"…","comment_count":N`
 * instead of parsing 25+ MB into 10,000 objects (~100–200 ms of a core the writer under
 * measurement shares, each time the list changes). Outside a string a `"` is never
 * escaped and inside one it always is, so `,"slug":"` matches only a record's own key.
 * Returns null when the scan does not find `expected` records: the caller parses instead.
 */
export function commentCountsScanned(posts: Buffer, expected: number): Map<string, number> | null {
  const counts = new Map<string, number>();
  for (let at = posts.indexOf(SLUG); at !== -1; at = posts.indexOf(SLUG, at)) {
    const start = at + SLUG.length;
    const end = posts.indexOf(COUNT, start);
    if (end === -1) return null;
    let n = 0;
    let i = end + COUNT.length;
    for (; posts[i]! >= 0x30 && posts[i]! <= 0x39; i++) n = n * 10 + posts[i]! - 0x30;
    if (i === end + COUNT.length) return null;
    counts.set(posts.toString('utf8', start, end), n);
    at = i;
  }
  return counts.size === expected ? counts : null;
}
