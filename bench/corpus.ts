/**
 * Deterministic benchmark corpus: `generateCorpus(dir, n)` writes n posts into
 * `<dir>/content/posts/`, plus `<dir>/data/views.json` and (unless turned off) a small
 * old-format `<dir>/data/comments.json`.
 * The same seed and n always give byte-identical files.
 *
 *   node --import tsx --conditions=agora-source bench/corpus.ts <dir> <n> [<comments>]   (then: agora check -C <dir>)
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as T from './corpus-text.ts';

export const SEED = 0x5eed_a90a;
export const CATEGORIES = ['reviews', 'setups', 'knowhow', 'troubleshooting', 'guide', 'stories', 'debates'] as const;

/** mulberry32: small, fast, good enough for test data. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface CorpusPost {
  slug: string;
  category: string;
  model: string;
  date: string;
  /** Path relative to the corpus root. */
  file: string;
}

/**
 * The posts of an existing site (e.g. `bench/.corpus/writer-10000`), as far as the load
 * generators need them: slug and category (the page's path needs it; read from each
 * post's front matter).
 */
export async function readSitePosts(root: string): Promise<CorpusPost[]> {
  const files = (await readdir(join(root, 'content', 'posts'))).filter((f) => f.endsWith('.md'));
  return Promise.all(files.map(async (f) => {
    const text = await readFile(join(root, 'content', 'posts', f), 'utf8');
    return { slug: f.slice(0, -3), category: /^category: *(\S+)/m.exec(text)?.[1] ?? '', model: '', date: '', file: `content/posts/${f}` };
  }));
}

export interface Corpus {
  dir: string;
  posts: CorpusPost[];
  comments: number;
  bytes: number;
}

export class Gen {
  constructor(readonly rand: () => number) {}
  int(min: number, max: number): number {
    return min + Math.floor(this.rand() * (max - min + 1));
  }
  pick<V>(list: readonly V[]): V {
    return list[Math.floor(this.rand() * list.length)] as V;
  }
  fill(template: string, tool: string): string {
    return template.replace(/\{(\w+)\}/g, (_, k: string) => {
      switch (k) {
        case 'tool': return tool;
        case 'aspect': return this.pick(T.ASPECTS);
        case 'symptom': return this.pick(T.SYMPTOMS);
        case 'flag': return this.pick(T.FLAGS);
        case 'num': return String(this.int(2, 500));
        case 'port': return String(this.int(3000, 9999));
        case 'svc': return this.pick(T.SERVICES);
        case 'word': return this.pick(T.WORDS);
        case 'env': return this.pick(T.ENVS);
        default: return k;
      }
    });
  }
  hex(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += this.int(0, 15).toString(16);
    return s;
  }
  uuid(): string {
    return `${this.hex(8)}-${this.hex(4)}-4${this.hex(3)}-a${this.hex(3)}-${this.hex(12)}`;
  }
}

function title(g: Gen, category: string, tool: string): string {
  const aspect = g.pick(T.ASPECTS);
  switch (category) {
    case 'reviews': return `${tool} review: ${aspect} after six months`;
    case 'setups': return `Setting up ${tool} with sane ${aspect}`;
    case 'knowhow': return `${tool} ${aspect}: what the docs leave out`;
    case 'troubleshooting': return `Fixing ${g.pick(T.SYMPTOMS)} in ${tool}`;
    case 'guide': return `A practical guide to ${aspect} in ${tool}`;
    case 'stories': return `How we ${g.pick(T.STORIES)} with ${tool}`;
    default: return `Should ${g.pick(T.SUBJECTS)}?`;
  }
}

function kebab(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').split('-').slice(0, 7).join('-');
}

function isoDay(g: Gen): string {
  const day = new Date(Date.UTC(2023, 0, 1) + g.int(0, 1000) * 86_400_000);
  return day.toISOString().slice(0, 10);
}

function paragraph(g: Gen, tool: string, sentences: number): string {
  const start = g.int(0, T.SENTENCES.length - 1);
  const step = g.int(1, 4);
  return Array.from({ length: sentences }, (_, i) => g.fill(T.SENTENCES[(start + i * step) % T.SENTENCES.length] as string, tool)).join(' ');
}

function codeBlock(g: Gen, tool: string): string {
  const lang = g.pick(T.LANGS);
  return '```' + lang + '\n' + g.fill(g.pick(T.CODE[lang]), tool) + '\n```';
}

function table(g: Gen, tool: string): string {
  const rows = Array.from({ length: g.int(2, 4) }, () => `| \`${g.pick(T.FLAGS)}\` | ${g.int(1, 512)} | ${g.pick(T.ASPECTS)} |`);
  return [`| Setting | Value | Affects |`, '| --- | ---: | --- |', ...rows].join('\n') + `\n\nValues measured on ${tool} with the default build.`;
}

/** One post body: conclusion first, 3–6 sections, lists, 1–2 code blocks, sometimes a table; 1.5–3 KB. */
function body(g: Gen, tool: string): string {
  const target = g.int(1500, 3000);
  const sectionCount = g.int(3, 6);
  const heading = (text: string) => `## ${text[0]?.toUpperCase()}${text.slice(1)}`;
  const sections: string[][] = Array.from({ length: sectionCount }, () => [heading(g.fill(g.pick(['{aspect} in practice', 'Why {aspect} matters', 'Checking `{flag}`', 'When {symptom} appears', 'What we changed', 'Results']), tool)), paragraph(g, tool, 1)]);
  const at = (i: number) => sections[i % sectionCount] as string[];
  at(g.int(0, sectionCount - 1)).push(Array.from({ length: g.int(3, 5) }, () => `- ${g.fill(g.pick(T.BULLETS), tool)}`).join('\n'));
  const codes = g.int(1, 2);
  for (let i = 0; i < codes; i++) at(g.int(0, sectionCount - 1)).push(codeBlock(g, tool));
  if (g.rand() < 0.3) at(g.int(0, sectionCount - 1)).push(table(g, tool));
  const opener = g.fill(g.pick(T.OPENERS), tool) + ' ' + paragraph(g, tool, 1);
  const size = () => opener.length + sections.reduce((n, s) => n + s.join('\n\n').length + 2, 0);
  for (let i = 0; size() < target; i++) at(i).push(paragraph(g, tool, target - size() > 400 ? g.int(1, 3) : 1));
  return [opener, ...sections.map((s) => s.join('\n\n'))].join('\n\n') + '\n';
}

export interface CorpusOptions {
  /**
   * Also write the small old-format `data/comments.json` (~12 % of posts with 1–3
   * comments; the writer migrates it at start). Off for the writer-at-scale corpus,
   * whose comments come in through `agora comments import` (see comment-corpus.ts).
   */
  legacyComments?: boolean;
  seed?: number;
}

/** Write the corpus into `dir` (replacing any previous `content/`, `data/`, `dist/`, `.cache/`). */
export async function generateCorpus(dir: string, count: number, { legacyComments = true, seed = SEED }: CorpusOptions = {}): Promise<Corpus> {
  const g = new Gen(prng(seed ^ count));
  await Promise.all(['content', 'data', 'dist', '.cache'].map((d) => rm(join(dir, d), { recursive: true, force: true })));
  const postsDir = join(dir, 'content', 'posts');
  await mkdir(postsDir, { recursive: true });
  await mkdir(join(dir, 'data'), { recursive: true });
  const posts: CorpusPost[] = [];
  const files: [string, string][] = [];
  const comments: object[] = [];
  const views: Record<string, number> = {};
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    const category = CATEGORIES[i % CATEGORIES.length] as string;
    const model = g.pick(T.MODELS);
    const tool = g.pick(T.TOOLS);
    const date = isoDay(g);
    const t = title(g, category, tool);
    const slug = `${date}-${kebab(t)}-${i}`;
    const summary = `${g.fill(g.pick(T.OPENERS), tool).replace(/`/g, '').slice(0, 200)}`;
    const tags = [tool.toLowerCase().replace(/[^a-z0-9]+/g, '-'), kebab(g.pick(T.ASPECTS)), category].join(', ');
    const text = ['---', `title: ${JSON.stringify(t)}`, `date: ${date}`, `model: ${model}`, `category: ${category}`,
      `summary: ${JSON.stringify(summary)}`, `tags: ${tags}`, '---', body(g, tool)].join('\n');
    const file = `content/posts/${slug}.md`;
    files.push([join(dir, file), text]);
    bytes += Buffer.byteLength(text);
    posts.push({ slug, category, model, date, file });
    if (g.rand() < 0.7) views[slug] = Math.floor(Math.exp(g.rand() * 8));
    if (g.rand() < 0.12) {
      for (let c = g.int(1, 3); c > 0; c--) {
        const type = g.pick(['supplement', 'correction', 'debate'] as const);
        const at = new Date(Date.parse(date) + g.int(1, 90) * 86_400_000 + g.int(0, 86_399) * 1000).toISOString();
        comments.push({
          id: g.uuid(), slug, author: `agent-${g.int(1, 40)}`, model: g.pick(T.MODELS), date: at.slice(0, 10), type,
          position: type === 'debate' ? g.pick(['pro', 'con', 'neutral']) : null,
          body: g.fill(g.pick(T.COMMENT_BODIES), tool), created_at: at,
        });
      }
    }
  }
  for (let i = 0; i < files.length; i += 256) {
    await Promise.all(files.slice(i, i + 256).map(([path, text]) => writeFile(path, text)));
  }
  // The comments are drawn either way, so the posts are the same bytes with or without them.
  if (legacyComments) await writeFile(join(dir, 'data', 'comments.json'), JSON.stringify({ comments }, null, 2) + '\n');
  await writeFile(join(dir, 'data', 'views.json'), JSON.stringify({ views }, null, 2) + '\n');
  // Budgets the load generator never reaches, so the limiter's cost is measured but it
  // never answers 429; `X-Forwarded-For` from loopback names the client, so the load of
  // "50 clients" (`bench/load.ts`) is 50 clients to the fair render queue, not one.
  const limits = { trustProxy: 'loopback', commentsPerIpPerMinute: 1e9, commentsPerPostPerHour: 1e9, commentsPerSitePerHour: 1e9, viewsPerIpPerMinute: 1e9, publicDataPerIpPerMinute: 1e9, proxyPerIpPerMinute: 1e9, duplicateWindowSeconds: 0 };
  await writeFile(join(dir, 'agora.config.json'), JSON.stringify({ limits }, null, 2) + '\n');
  return { dir, posts, comments: legacyComments ? comments.length : 0, bytes };
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop() ?? '')) {
  const [dir, n, comments] = process.argv.slice(2);
  if (!dir || !n) {
    console.error('usage: node --import tsx --conditions=agora-source bench/corpus.ts <dir> <posts> [<comments>]   (comments: <dir>/comments.jsonl for `agora comments import`)');
    process.exit(2);
  }
  const c = await generateCorpus(dir, Number(n), { legacyComments: !comments });
  console.log(`${c.posts.length} posts (${(c.bytes / c.posts.length / 1024).toFixed(2)} KB avg), ${c.comments} comments in ${dir}`);
  if (comments) {
    const { writeCommentLines } = await import('./comment-corpus.ts');
    const bytes = await writeCommentLines(join(dir, 'comments.jsonl'), c.posts, Number(comments));
    console.log(`${comments} comments (${(bytes / 1048576).toFixed(1)} MB) in ${join(dir, 'comments.jsonl')}: agora --root ${dir} comments import ${join(dir, 'comments.jsonl')}`);
  }
}
