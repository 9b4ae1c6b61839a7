/**
 * `/llms-full.txt`: every post in full with a metadata header. A site larger than
 * `llmsFullMaxTokens` (agora.config.json, default 100,000) is split into
 * `llms-full-1.txt`, `llms-full-2.txt`, … of at most that many tokens each, and
 * `llms-full.txt` becomes their index, so an agent fetches only what fits its context.
 * A single post larger than the limit gets a part of its own.
 */
import { frontMatterLine } from '../load/front-matter.ts';
import type { Post, SiteModel } from '../types.ts';
import type { EmitContext } from './context.ts';
import type { Output } from './output.ts';
import { countTextTokens, DEFAULT_LLMS_FULL_MAX_TOKENS, TOKEN_ENCODING } from './token-count.ts';

/** One part: its posts and size. */
export interface LlmsFullPart {
  posts: Post[];
  tokens: number;
}

/** The split of the site into parts (one part when it fits). */
export interface LlmsFullPlan {
  parts: LlmsFullPart[];
  /** Sum over every entry and header. */
  tokens: number;
}

function header(site: SiteModel, what: string): string {
  return [`# ${site.config.title}: ${what}`, '', `> ${site.config.description.replace(/\s+/g, ' ')}`, '', ''].join('\n');
}

/** The entry's metadata as YAML front matter an agent can parse (titles hold `: `, summaries `#`). */
function entryHead(site: SiteModel, p: Post): string {
  return [
    '---',
    frontMatterLine('title', p.title),
    // As the post writes it (YYYY-MM-DD, checked): a date to YAML 1.1 readers, a string to 1.2's core schema.
    `date: ${p.date}`,
    ...([
      ['model', p.model],
      ['author_type', p.author_type],
      ['category', p.category],
      ['summary', p.summary],
      ['tags', p.tags],
      ['slug', p.slug],
      ['url', `${site.config.baseUrl}${p.url}`],
      ['markdown', `${site.config.baseUrl}${p.url}post.md`],
    ] as [string, string][]).map(([key, value]) => frontMatterLine(key, value)),
    '---',
    '',
    '',
  ].join('\n');
}

function entry(site: SiteModel, p: Post): string {
  return `${entryHead(site, p)}${p.content.trim()}\n\n`;
}

/**
 * Split the posts into parts, with exact sizes. An entry's size is the tokens of its
 * own text (head, body and the blank lines after it); every entry starts with `---`
 * after a line break, where o200k_base's pre-tokenizer always splits, so the tokens of
 * a part are its header's plus its entries' — the very count of the file (a test
 * checks it against the emitted files).
 */
export function planLlmsFull(ctx: EmitContext): LlmsFullPlan {
  const site = ctx.site;
  const max = site.config.llmsFullMaxTokens ?? DEFAULT_LLMS_FULL_MAX_TOKENS;
  const sizes = site.posts.map((p) => ctx.tokens(entry(site, p)));
  const single = ctx.tokens(header(site, 'all posts in full'));
  const total = sizes.reduce((a, b) => a + b, single);
  if (total <= max) return { parts: [{ posts: site.posts, tokens: total }], tokens: total };
  // Split with the longest header a part can have, then count each part's real header.
  const widest = countTextTokens(header(site, 'all posts in full, part 999 of 999'));
  const split: { posts: Post[]; entries: number }[] = [];
  let current = { posts: [] as Post[], entries: 0 };
  site.posts.forEach((p, i) => {
    const size = sizes[i] as number;
    if (current.posts.length > 0 && widest + current.entries + size > max) {
      split.push(current);
      current = { posts: [], entries: 0 };
    }
    current.posts.push(p);
    current.entries += size;
  });
  if (current.posts.length > 0) split.push(current);
  const parts = split.map((part, i) => ({ posts: part.posts, tokens: part.entries + ctx.tokens(partHeader(site, i + 1, split.length)) }));
  return { parts, tokens: parts.reduce((a, part) => a + part.tokens, 0) };
}

function partHeader(site: SiteModel, n: number, of: number): string {
  return header(site, `all posts in full, part ${n} of ${of}`);
}

/** `llms-full.txt`, and its parts when the site is bigger than the limit. */
export function emitLlmsFullTxt(ctx: EmitContext): Output[] {
  const site = ctx.site;
  const plan = planLlmsFull(ctx);
  const body = (posts: Post[]) => posts.map((p) => entry(site, p)).join('');
  if (plan.parts.length === 1) return [{ path: 'llms-full.txt', body: header(site, 'all posts in full') + body(site.posts) }];
  const n = plan.parts.length;
  const index = [
    `# ${site.config.title}: all posts in full`,
    '',
    `> ${site.config.description.replace(/\s+/g, ' ')}`,
    '',
    `The full text of all ${site.posts.length} posts is ${plan.tokens.toLocaleString('en-US')} tokens (${TOKEN_ENCODING}), more than the ${(site.config.llmsFullMaxTokens ?? DEFAULT_LLMS_FULL_MAX_TOKENS).toLocaleString('en-US')} of one file, so it is split into ${n} parts, newest posts first. Fetch the parts you need.`,
    '',
    '## Parts',
    '',
    ...plan.parts.map((part, i) => {
      const first = part.posts[0] as Post;
      const last = part.posts.at(-1) as Post;
      return `- [Part ${i + 1} of ${n}](${site.config.baseUrl}/llms-full-${i + 1}.txt): ${part.posts.length} post${part.posts.length === 1 ? '' : 's'} from ${first.date} back to ${last.date}, ${part.tokens.toLocaleString('en-US')} tokens`;
    }),
    '',
  ].join('\n');
  return [
    { path: 'llms-full.txt', body: index },
    ...plan.parts.map((part, i) => ({ path: `llms-full-${i + 1}.txt`, body: partHeader(site, i + 1, n) + body(part.posts) })),
  ];
}
