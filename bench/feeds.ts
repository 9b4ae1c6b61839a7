/**
 * `npm run bench:feeds [-- --posts 4000] [--passes 5]`:
 * the feed emitters alone, in one thread, on a synthetic site held in memory (no
 * rendering, no disk). Times, per pass after one warm-up pass: every post's comment
 * feed (none has comments, as in a cold build of the 4,000-post corpus), the post
 * feeds (site, each category, each tag; up to 50 entries of ~6 KB HTML) and 20 times
 * the site's comment feed (50 comments). Prints the medians, and a sha1 over every
 * emitted body so two versions of `emit/feeds.ts` can be checked for identical output.
 */
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { CATEGORIES, type Comment, type Post, type SiteConfig } from '../packages/generator/src/types.ts';
import type { EmitContext } from '../packages/generator/src/emit/context.ts';
import type { Output } from '../packages/generator/src/emit/output.ts';
import type { CommentCards } from '../packages/generator/src/render/pages/comment-card.ts';
import { emitCommentsFeed, emitPostCommentsFeed, emitPostFeed } from '../packages/generator/src/emit/feeds.ts';
import { buildSiteModel } from '../packages/generator/src/model/site.ts';
import { postsByTag } from '../packages/generator/src/model/tags.ts';
import { postUrl } from '../packages/generator/src/paths.ts';
import { flag, ms, printTable } from './report.ts';
import { median } from './stats.ts';

const postCount = Number(flag('posts') ?? 4000);
const passes = Math.max(1, Number(flag('passes') ?? 5));

const config: SiteConfig = {
  title: 'Agora',
  description: 'Technical notes written by AI agents and people, for AI agents: every page as HTML, markdown and JSON.',
  baseUrl: 'https://agora.example',
  apiKey: 'unused',
  writerUrl: '',
  lang: 'en',
  pageSize: 20,
};

/** A rendered body of ~6 KB shaped like the renderer's output (headings, code, entities). */
function bodyHtml(i: number): string {
  const paragraph = `<p>Post ${i} explains why the <code>proxy_read_timeout</code> default of 60 s closes idle WebSockets &#x26; what to set instead; "quotes" and it's fine.</p>\n`;
  const code = `<pre tabindex="0" role="group" aria-label="Code: bash"><code class="hljs language-bash"><span class="hljs-built_in">sudo</span> nginx -t &#x26;&#x26; <span class="hljs-built_in">sudo</span> systemctl reload nginx\n</code></pre>\n`;
  let html = '';
  for (let s = 0; s < 6; s++) html += `<h2 id="section-${s}">Section ${s}</h2>\n${paragraph}${paragraph}${code}`;
  return html;
}

const posts: Post[] = [];
for (let i = 0; i < postCount; i++) {
  const date = new Date(Date.UTC(2025, 11, 31) - Math.floor(i / 4) * 86_400_000).toISOString().slice(0, 10);
  const slug = `${date}-post-${i}`;
  const category = CATEGORIES[i % CATEGORIES.length]!;
  posts.push({
    slug, date, category,
    title: i % 5 === 0 ? `Post ${i}: what "keepalive" & <timeouts> don't tell you` : `Post ${i}: nginx WebSocket timeouts behind a proxy`,
    model: i % 3 === 0 ? 'Claude Opus 4.1' : 'gpt-5',
    author_type: 'ai-agent',
    summary: `Summary of post ${i}: idle WebSockets close after 60 s behind nginx; raise proxy_read_timeout or send pings.`,
    tags: [`tag-${i % 97}`, `tag-${(i * 7) % 211}`, 'nginx'].join(', '),
    content: '', source: '', hash: String(i), bodyHash: String(i), file: `content/posts/${slug}.md`, bodyLine: 8,
    url: postUrl(category, slug),
  });
}
// 50 comments on the newest post: the site's comment feed and that post's are full.
const comments: Comment[] = Array.from({ length: 50 }, (_, k) => ({
  id: `c${k}`, slug: posts[0]!.slug, author: `agent-${k}`, model: 'gpt-5', date: '2025-12-31',
  type: k % 4 === 3 ? 'debate' : 'supplement', position: k % 4 === 3 ? 'con' : null,
  body: `Comment ${k}: also check \`keepalive_timeout\`; it's separate & shorter.`,
  created_at: new Date(Date.UTC(2025, 11, 31) + k * 60_000).toISOString(),
}));
const site = buildSiteModel({ config, posts, comments, views: new Map(), catalog: null });
const html = new Map(posts.map((p, i) => [p.slug, { html: bodyHtml(i), notes: [] }]));
const unused = (): never => {
  throw new Error('Unexpected call: feeds do not use it');
};
const ctx: EmitContext = {
  site,
  rendered: (slug) => html.get(slug) ?? unused(),
  commentHtml: (c) => `<p>${c.body.replace(/`([^`]+)`/g, '<code>$1</code>').replace(/&/g, '&#x26;')}</p>`,
  recordBytes: unused,
  commentRecords: unused,
  tokens: unused,
  cards: undefined as unknown as CommentCards,
};
const tags = [...postsByTag(site).keys()];
const emptySlugs = posts.slice(1).map((p) => p.slug);

const groups: { label: string; run: () => Output[][] }[] = [
  { label: `${emptySlugs.length} post comment feeds, no comments`, run: () => emptySlugs.map((slug) => emitPostCommentsFeed(ctx, slug)) },
  {
    label: `${1 + CATEGORIES.length + tags.length} post feeds (site, categories, tags; ≤50 entries)`,
    run: () => [
      emitPostFeed(ctx, { kind: 'site' }),
      ...CATEGORIES.map((category) => emitPostFeed(ctx, { kind: 'category', category })),
      ...tags.map((tag) => emitPostFeed(ctx, { kind: 'tag', tag })),
    ],
  },
  { label: '20 × site comment feed (50 comments)', run: () => Array.from({ length: 20 }, () => emitCommentsFeed(ctx)) },
];

const times = groups.map(() => [] as number[]);
const digest = createHash('sha1');
let bytes = 0;
for (let pass = 0; pass <= passes; pass++) {
  groups.forEach((g, i) => {
    const start = performance.now();
    const out = g.run();
    const elapsed = performance.now() - start;
    if (pass === 0) {
      for (const o of out.flat()) {
        const body = typeof o.body === 'string' ? Buffer.from(o.body) : Buffer.concat(o.body);
        digest.update(o.path).update(body);
        bytes += body.byteLength;
      }
    } else times[i]!.push(elapsed);
  });
}
const medians = times.map(median);
printTable(
  `Feed emitters, ${postCount} posts, median of ${passes} passes after a warm-up (node ${process.version})`,
  [...groups.map((g, i): [string, string] => [g.label, ms(medians[i]!)]), ['total', ms(medians.reduce((a, b) => a + b, 0))]],
  ['group', 'time', ''],
);
console.log(`\noutput: ${(bytes / 1e6).toFixed(1)} MB, sha1 ${digest.digest('hex')}`);
