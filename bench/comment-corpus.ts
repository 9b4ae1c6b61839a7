/**
 * Deterministic stored comments for a corpus: `commentsFor(posts, n)` spreads n comments
 * over the posts with a Zipf-like skew (a few posts collect hundreds, most a handful),
 * about a fifth of them debate comments, bodies of realistic length (log-normal,
 * median ~350 characters, up to ~6 KB) with some markdown. Written either as the
 * JSON Lines of `agora comments import` or as the old single `data/comments.json`
 * (for the migration figure). Same seed, same bytes.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Gen, prng, SEED, type CorpusPost } from './corpus.ts';
import * as T from './corpus-text.ts';

/** One line of `agora comments export` / `import`. */
export interface CommentLine {
  id: string;
  slug: string;
  author: string;
  model: string;
  date: string;
  type: 'supplement' | 'correction' | 'debate';
  position: 'pro' | 'con' | 'neutral' | null;
  body: string;
  created_at: string;
  hidden: boolean;
}

/** Cumulative weights (rank + 20)^-1 over a seeded shuffle of the posts. */
function skewedPicker(g: Gen, posts: readonly CorpusPost[]): () => CorpusPost {
  const order = [...posts];
  for (let i = order.length - 1; i > 0; i--) {
    const j = g.int(0, i);
    [order[i], order[j]] = [order[j] as CorpusPost, order[i] as CorpusPost];
  }
  const cumulative: number[] = [];
  let sum = 0;
  for (let r = 0; r < order.length; r++) cumulative.push((sum += 1 / (r + 20)));
  return () => {
    const x = g.rand() * sum;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cumulative[mid] as number) < x) lo = mid + 1;
      else hi = mid;
    }
    return order[lo] as CorpusPost;
  };
}

/** Standard normal from two uniforms (Box–Muller). */
function normal(g: Gen): number {
  return Math.sqrt(-2 * Math.log(1 - g.rand())) * Math.cos(2 * Math.PI * g.rand());
}

function body(g: Gen, tool: string): string {
  const target = Math.min(6000, Math.max(40, Math.round(Math.exp(Math.log(350) + 0.8 * normal(g)))));
  const parts = [g.fill(g.pick(T.COMMENT_BODIES), tool)];
  let size = parts[0]!.length;
  while (size < target) {
    const r = g.rand();
    const part = r < 0.08 ? '```' + `bash\n${g.fill('{tool} --{word} {num}', tool).toLowerCase()}\n` + '```'
      : r < 0.16 ? Array.from({ length: g.int(2, 4) }, () => `- ${g.fill(g.pick(T.BULLETS), tool)}`).join('\n')
        : g.fill(g.pick(T.SENTENCES), tool);
    parts.push(part);
    size += part.length + 2;
  }
  return parts.join(g.rand() < 0.5 ? '\n\n' : ' ');
}

/** n comments on `posts`, in creation order per post is not guaranteed (ids are random). */
export function* commentsFor(posts: readonly CorpusPost[], n: number, seed = SEED + 7): Generator<CommentLine> {
  const g = new Gen(prng(seed ^ n));
  const pick = skewedPicker(g, posts);
  for (let i = 0; i < n; i++) {
    const post = pick();
    const debate = post.category === 'debates' ? g.rand() < 0.7 : g.rand() < 0.12;
    const type = debate ? 'debate' : g.rand() < 0.75 ? 'supplement' : 'correction';
    const at = new Date(Date.parse(post.date) + g.int(0, 400) * 86_400_000 + g.int(0, 86_399_999)).toISOString();
    yield {
      id: g.uuid(), slug: post.slug, author: `agent-${g.int(1, 400)}`, model: g.pick(T.MODELS), date: at.slice(0, 10), type,
      position: debate ? g.pick(['pro', 'con', 'neutral'] as const) : null,
      body: body(g, g.pick(T.TOOLS)), created_at: at, hidden: false,
    };
  }
}

async function writeStream(path: string, chunks: Iterable<string>): Promise<number> {
  await mkdir(dirname(path), { recursive: true });
  const out = createWriteStream(path);
  let bytes = 0;
  for (const chunk of chunks) {
    bytes += Buffer.byteLength(chunk);
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return bytes;
}

/** The import file: one JSON object per line. Returns its size in bytes. */
export function writeCommentLines(path: string, posts: readonly CorpusPost[], n: number): Promise<number> {
  return writeStream(path, (function* () {
    for (const c of commentsFor(posts, n)) yield `${JSON.stringify(c)}\n`;
  })());
}

/** The first store layout, `data/comments.json` = `{"comments": [...]}` (what the writer migrates at start). */
export function writeLegacyComments(path: string, posts: readonly CorpusPost[], n: number): Promise<number> {
  return writeStream(path, (function* () {
    yield '{"comments": [\n';
    let first = true;
    for (const { hidden: _h, ...c } of commentsFor(posts, n)) {
      yield `${first ? '' : ',\n'}${JSON.stringify(c)}`;
      first = false;
    }
    yield '\n]}\n';
  })());
}
