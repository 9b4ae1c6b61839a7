/**
 * Input keys of jobs: a job whose key is unchanged since the last build is skipped
 * without emitting anything. Per-post jobs depend on their post's source, comments
 * and views; aggregates depend on the whole site (one key for all of them). Every key
 * includes a fingerprint of the generator's own code, so a template change re-emits
 * everything.
 */
import { commentIdentity } from './records.ts';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import type { Comment, Post, SiteModel } from '../types.ts';
import { memoised } from './memo.ts';
import { changeLogOf, type ChangeLog } from './change-log.ts';
import type { Job } from './jobs.ts';
import { postTags } from './tags.ts';
import { tagKey } from '../paths.ts';

let fingerprint: string | undefined;

/** SHA-1 over the generator's source files (templates, emitters, renderer). */
export function codeFingerprint(): string {
  if (fingerprint) return fingerprint;
  const root = fileURLToPath(new URL('..', import.meta.url));
  const hash = createHash('sha1');
  const files = readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
  for (const file of files) hash.update(file.slice(root.length)).update(readFileSync(file));
  return (fingerprint = hash.digest('hex').slice(0, 16));
}

/** Stable id of a job in the manifest. */
export function jobId(job: Job): string {
  if ('slug' in job) return `${job.kind}:${job.slug}`;
  if ('category' in job) return `${job.kind}:${job.category}`;
  if ('model' in job) return `${job.kind}:${job.model}`;
  if ('tag' in job) return `${job.kind}:${job.tag}`;
  return job.kind;
}

/** The parts of a key, in order: a key is these four joined by `|` (a part may be empty). */
export const KEY_PARTS = ['template', 'source', 'comments', 'views'] as const;
export type KeyPart = (typeof KEY_PARTS)[number];

/** The first part in which two keys of one job differ (a key of another shape: `template`), or null when equal. */
export function changedPart(before: string, after: string): KeyPart | null {
  if (before === after) return null;
  const a = before.split('|');
  const b = after.split('|');
  if (a.length !== KEY_PARTS.length || b.length !== KEY_PARTS.length) return 'template';
  return KEY_PARTS.find((_, i) => a[i] !== b[i]) ?? 'template';
}

const digest = (text: string) => (text === '' ? '' : createHash('sha1').update(text).digest('base64url').slice(0, 22));

const DIGESTS = Symbol('comment list digests');
const GROUPS = Symbol('job key groups');
const GROUP_PARTS = Symbol('job key group parts');
const LIST_HASHES = Symbol('comment list hashes');
const VIEW_HASHES = Symbol('view count hashes');

/**
 * The posts of each group a list job's key covers (the site, each category, model and
 * tag; `content:` groups for post feeds, which show content only), and each group's
 * sources part, kept with the model.
 */
function groupsOf(site: SiteModel): { members: Map<string, Post[]>; sources: Map<string, string> } {
  return memoised(site, GROUPS, () => {
    // The site's group exists on an empty site too (its key covers the catalog).
    const members = new Map<string, Post[]>([['site', []], ['content:all', []]]);
    const join = (id: string, p: Post) => {
      const list = members.get(id);
      if (list) list.push(p);
      else members.set(id, [p]);
    };
    for (const p of site.posts) {
      join('site', p);
      join(`category:${p.category}`, p);
      join(`model:${p.model}`, p);
      join('content:site', p);
      join('content:all', p);
      join(`content:category:${p.category}`, p);
      join(`content:model:${p.model}`, p);
      for (const k of new Set(postTags(p).map(tagKey))) {
        join(`tag:${k}`, p);
        join(`content:tag:${k}`, p);
      }
    }
    const sources = new Map<string, string>();
    for (const [id, posts] of members) {
      const hash = createHash('sha1');
      if (id === 'site' || id === 'content:all') hash.update(JSON.stringify(site.catalog));
      hash.update(posts.map((p) => `${p.slug}\u0000${p.hash}\n`).join(''));
      sources.set(id, hash.digest('hex'));
    }
    return { members, sources };
  });
}

/**
 * The digest of a post's visible comments: everything each shows, not only its id (a
 * comment edited in `data/` while the writer was stopped is published by the next
 * start). Kept per list for the model's life: a list is replaced, never changed in
 * place, when a post's comments change, so a plan costs the lists that changed.
 */
function commentsDigest(site: SiteModel, slug: string): string {
  const list = site.comments.get(slug);
  return list ? listDigest(site, list) : '';
}

function listDigest(site: SiteModel, list: readonly Comment[]): string {
  const digests = memoised(site, DIGESTS, () => new WeakMap<readonly Comment[], string>());
  let d = digests.get(list);
  if (d === undefined) digests.set(list, (d = digest(list.map(commentIdentity).join('\n'))));
  return d;
}

/**
 * A group's comments and views parts, kept as sums of its members' hashes (two 32-bit
 * halves, each mod 2^32) with the lists and counts they were made from: a plan adds and
 * takes out the members that changed, so a flush after one comment does not hash every
 * post six times (40–55 ms at 10,000 posts). The members that changed are those the
 * model's change log names since `seen` (`model/change-log.ts`); without a log, every
 * member is compared. The sums do not depend on the members' order; the sources part does.
 */
interface GroupParts {
  comments: KeptSum<readonly Comment[] | undefined>;
  views: KeptSum<number>;
  /** The change log's `end` when the parts were last brought up to date. */
  seen: number;
  /** Each member's place, by slug (made when first needed). */
  index: Map<string, number> | null;
}

/**
 * A sum of members' hashes, with the value each member had when it was added and the
 * hash it added (taken out again as it was, never hashed a second time).
 */
interface KeptSum<V> {
  values: V[];
  hashes: [number, number][];
  sum: [number, number];
}

/** 64 bits of SHA-1, as two 32-bit halves. */
function hash64(text: string): [number, number] {
  const d = createHash('sha1').update(text).digest();
  return [d.readUInt32BE(0), d.readUInt32BE(4)];
}

function addTo(sum: [number, number], h: [number, number], sign: 1 | -1): void {
  sum[0] = (sum[0] + sign * h[0]) >>> 0;
  sum[1] = (sum[1] + sign * h[1]) >>> 0;
}

const hex = ([a, b]: [number, number]) => a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');

/** A member's comments hash: its slug and its list's digest (kept per list). */
function commentsHash(site: SiteModel, slug: string, list: readonly Comment[] | undefined): [number, number] {
  const hashes = memoised(site, LIST_HASHES, () => ({ byList: new WeakMap<readonly Comment[], [number, number]>(), none: new Map<string, [number, number]>() }));
  if (!list) {
    let h = hashes.none.get(slug);
    if (!h) hashes.none.set(slug, (h = hash64(`${slug}\u0000`)));
    return h;
  }
  let h = hashes.byList.get(list);
  if (!h) hashes.byList.set(list, (h = hash64(`${slug}\u0000${listDigest(site, list)}`)));
  return h;
}

/** A member's views hash (the last one kept per post: the post's other groups ask for the same). */
function viewsHashOf(site: SiteModel, slug: string, n: number): [number, number] {
  const kept = memoised(site, VIEW_HASHES, () => new Map<string, { n: number; h: [number, number] }>());
  const k = kept.get(slug);
  if (k?.n === n) return k.h;
  const h = hash64(`${slug}\u0000${n}`);
  kept.set(slug, { n, h });
  return h;
}

/**
 * Make a post's part of the list jobs' keys ahead (its comments digest and hashes), so
 * the first plan that needs every group adds sums instead of hashing 10,000 posts at once.
 */
export function preparePostKeys(site: SiteModel, slug: string): void {
  commentsHash(site, slug, site.comments.get(slug));
  viewsHashOf(site, slug, site.views.get(slug) ?? 0);
}

/** What a group part is made of: a member's value (comment list, view count) and its hash. */
interface Part<V> {
  valueOf: (p: Post) => V;
  hashOf: (p: Post, value: V) => [number, number];
}

/** A group part's sum made from all its members. */
function sumAll<V>(posts: readonly Post[], kept: KeptSum<V>, part: Part<V>): void {
  kept.values = posts.map(part.valueOf);
  kept.hashes = posts.map((p, i) => part.hashOf(p, kept.values[i] as V));
  kept.sum = [0, 0];
  for (const h of kept.hashes) addTo(kept.sum, h, 1);
}

/** Update a group part's sum for the member at `i`, if its value is another than when it was added. */
function updateAt<V>(posts: readonly Post[], i: number, kept: KeptSum<V>, part: Part<V>): void {
  const p = posts[i] as Post;
  const value = part.valueOf(p);
  if (value === kept.values[i]) return;
  const h = part.hashOf(p, value);
  addTo(kept.sum, kept.hashes[i] as [number, number], -1);
  addTo(kept.sum, h, 1);
  kept.values[i] = value;
  kept.hashes[i] = h;
}

/** Bring a group's parts up to date: from scratch, by the changed members the log names, or by comparing every member. */
function updateGroup(posts: readonly Post[], kept: GroupParts, log: ChangeLog | null, comments: Part<readonly Comment[] | undefined>, views: Part<number>): void {
  const changed = log && kept.comments.values.length === posts.length ? log.since(kept.seen) : null;
  if (kept.comments.values.length !== posts.length) {
    sumAll(posts, kept.comments, comments);
    sumAll(posts, kept.views, views);
  } else if (changed) {
    kept.index ??= new Map(posts.map((p, i) => [p.slug, i]));
    for (const slug of changed) {
      const i = kept.index.get(slug);
      if (i === undefined) continue;
      updateAt(posts, i, kept.comments, comments);
      updateAt(posts, i, kept.views, views);
    }
  } else {
    for (let i = 0; i < posts.length; i++) {
      updateAt(posts, i, kept.comments, comments);
      updateAt(posts, i, kept.views, views);
    }
  }
  kept.seen = log?.end ?? 0;
}

/**
 * A function giving each job of this site its input key. `fingerprint` stands for the
 * generator's code (tests pass their own to play a template change).
 */
export function createJobKeyer(site: SiteModel, fingerprint = codeFingerprint(), fileStamp?: (slug: string) => string): (job: Job) => string {
  // Every page's nav links to the data catalog only where the site has one: adding or removing it re-emits them.
  const base = createHash('sha1').update(fingerprint).update(JSON.stringify(site.config)).update(site.catalog ? 'catalog' : '').digest('hex').slice(0, 16);
  const key = (source: string, comments: string, views: string) => `${base}|${source}|${comments}|${views}`;
  const comments = (slug: string) => commentsDigest(site, slug);
  const hashOf = (slug: string) => site.bySlug.get(slug)?.hash ?? '';
  const parts = memoised(site, GROUP_PARTS, () => new Map<string, GroupParts>());
  // Each group hashes sources, comments and views apart, so a key says which of them
  // changed; the sources part and who belongs to which group are kept with the model
  // (content does not change under a writer). The comments and views parts are kept
  // too, with what they were made from: a plan hashes a group again only where one of
  // its posts got another comment list or view count, and finds those posts in the
  // model's change log, so a site-wide flush after one comment costs that comment's post.
  const log = changeLogOf(site);
  const commentsPart: Part<readonly Comment[] | undefined> = { valueOf: (p) => site.comments.get(p.slug), hashOf: (p, list) => commentsHash(site, p.slug, list) };
  const viewsPart: Part<number> = { valueOf: (p) => site.views.get(p.slug) ?? 0, hashOf: (p, n) => viewsHashOf(site, p.slug, n) };
  const groups = new Map<string, string>();
  const group = (name: string) => {
    let k = groups.get(name);
    if (k !== undefined) return k;
    // Only when a group key is asked for: an edit's own jobs (`post-sources`) need none,
    // and the groups of a model derived by an edit are hashed anew (every post, ~70 ms
    // at 10,000 posts), which would put the whole site on the edit's first half.
    const { members, sources } = groupsOf(site);
    const posts = members.get(name);
    const source = sources.get(name);
    if (!posts || source === undefined) k = key('empty', '', '');
    else if (name.startsWith('content:')) k = key(source, '', '');
    else {
      const kept = parts.get(name) ?? { comments: { values: [], hashes: [], sum: [0, 0] }, views: { values: [], hashes: [], sum: [0, 0] }, seen: 0, index: null };
      parts.set(name, kept);
      updateGroup(posts, kept, log, commentsPart, viewsPart);
      k = key(source, hex(kept.comments.sum), hex(kept.views.sum));
    }
    groups.set(name, k);
    return k;
  };
  return (job) => {
    switch (job.kind) {
      case 'post-page':
      case 'post-comments-feed':
        return key(hashOf(job.slug), comments(job.slug), '');
      case 'post-md':
        return key(hashOf(job.slug), '', '');
      // The post (its references) and what each published file was when looked at: an edited file is copied again.
      case 'post-files':
        return key(`${hashOf(job.slug)}:${digest(fileStamp?.(job.slug) ?? '')}`, '', '');
      case 'api-post':
        return key(hashOf(job.slug), String(site.comments.get(job.slug)?.length ?? 0), String(site.views.get(job.slug) ?? 0));
      case 'api-comments':
        return key('', comments(job.slug), '');
      case 'api-category':
        return group(`category:${job.category}`);
      case 'api-model':
        return group(`model:${job.model}`);
      case 'api-tag':
        return group(`tag:${job.tag}`);
      // HTML lists and the site-wide documents below show neither comments nor views
      // (comment and views flushes never list them): keyed by content alone, so
      // comments taken since the last full build do not make a restarted writer's
      // catch-up remake them (llms.txt, llms-full.txt, _headers, every list page:
      // ~1 s of its main thread at 10,000 posts, for the same bytes).
      case 'category-page':
        return group(`content:category:${job.category}`);
      case 'model-page':
        return group(`content:model:${job.model}`);
      case 'tag-page':
        return group(`content:tag:${job.tag}`);
      case 'home':
      case 'llms-txt':
      case 'llms-full-txt':
      case 'agents-md':
      case 'markdown-twins':
      case 'sitemap':
      case 'robots':
      case 'headers':
      case 'assets':
      case 'openapi':
      case 'catalog':
      case 'tags-page':
      case 'search-page':
      case 'not-found-page':
        return group('content:all');
      case 'site-feed':
        return group('content:site');
      case 'category-feed':
        return group(`content:category:${job.category}`);
      case 'tag-feed':
        return group(`content:tag:${job.tag}`);
      default:
        return group('site');
    }
  };
}
