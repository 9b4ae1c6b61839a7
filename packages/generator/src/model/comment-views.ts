/**
 * What `/comments/`, `/debates/`, the site-wide comment feed and `/api/comments/count`
 * show, bounded so none of them (nor the comment HTML they need) grows with every
 * comment ever stored: the newest comments of each model with each model's total, and
 * the most recently debated topics with their newest answers per side.
 *
 * The tally behind them is made in one pass over the visible comments, memoised on the
 * model, and kept up to date as comments are appended (`commentsAppended`: the writer's
 * common case costs the new comments, not the site); any other change
 * (`commentsChanged`: a hidden, edited or reordered comment) drops it, and the next read
 * makes it again. Every comment stays on its post's page.
 */
import type { Comment, Position, Post, SiteModel } from '../types.ts';
import { POSITIONS } from '../types.ts';
import { compareComments } from './site.ts';
import { forget, memoised } from './memo.ts';

/** Comments shown per model on `/comments/`. */
export const COMMENTS_PER_MODEL = 50;
/** Posts listed on the comments twin (`/comments/index.md`): the most recently commented. */
export const COMMENTED_POSTS = 200;
/** Topics shown on `/debates/`, and answers shown per side of each. */
export const DEBATE_TOPICS = 100;
export const ANSWERS_PER_SIDE = 10;

export interface ModelGroup {
  model: string;
  total: number;
  /** Newest first, at most `COMMENTS_PER_MODEL`. */
  newest: Comment[];
}

export interface DebateTopic {
  post: Post;
  /** Debate answers per side: the total and the newest (newest first). */
  sides: Record<Position, { total: number; newest: Comment[] }>;
}

interface TopicTally extends DebateTopic {
  /** `created_at` of its newest answer ('' when none). */
  latest: string;
  /** The post's place in the site's order (topics without answers keep it). */
  order: number;
}

interface Tally {
  groups: Map<string, ModelGroup>;
  topics: Map<string, TopicTally>;
  order: Map<string, number>;
  /** Posts with at least one visible comment. */
  commented: number;
  /** The `COMMENTED_POSTS` posts commented most recently, newest first, with their newest comment's time. */
  recent: { post: Post; last: string }[];
  /** The sorted views of the tally, made when first read after a change. */
  view: { groups: ModelGroup[]; topics: DebateTopic[] } | null;
}

const newer = (a: Comment, b: Comment) => compareComments(b, a);

/** Keep the `k` newest of a list as it grows (cheap when comments arrive mostly in order). */
function pushNewest(list: Comment[], c: Comment, k: number): void {
  if (list.length >= k && newer(c, list[list.length - 1]!) >= 0) return;
  let i = list.length;
  while (i > 0 && newer(c, list[i - 1]!) < 0) i--;
  list.splice(i, 0, c);
  if (list.length > k) list.pop();
}

const TALLY = Symbol('comment tally');

/** Forget the tally (the model's comments changed in place other than by appending). */
export function commentsChanged(site: SiteModel): void {
  forget(site, TALLY);
}

/**
 * Comments were appended to a post's visible list (its earlier comments unchanged):
 * count them into the tally if one is kept, at the cost of these comments alone.
 */
export function commentsAppended(site: SiteModel, slug: string, added: readonly Comment[]): void {
  const tally = site.memo.get(TALLY) as Tally | undefined;
  const post = site.bySlug.get(slug);
  if (!tally || !post || added.length === 0) return;
  for (const c of added) count(tally, post, c);
  // All of the list is new: the post had no comment before.
  if ((site.comments.get(slug)?.length ?? 0) === added.length) tally.commented++;
  touchRecent(tally, post, added[added.length - 1]!.created_at);
  tally.view = null;
}

/**
 * Put a post where its newest comment's time places it among the most recently
 * commented (a post's time only grows as comments are appended, so the `k` newest stay
 * exact without the others).
 */
function touchRecent(tally: Tally, post: Post, last: string): void {
  const { recent, order } = tally;
  const at = recent.findIndex((r) => r.post === post);
  if (at !== -1) recent.splice(at, 1);
  const mine = order.get(post.slug) ?? 0;
  let i = 0;
  while (i < recent.length && (recent[i]!.last > last || (recent[i]!.last === last && (order.get(recent[i]!.post.slug) ?? 0) < mine))) i++;
  if (i < COMMENTED_POSTS) recent.splice(i, 0, { post, last });
  if (recent.length > COMMENTED_POSTS) recent.pop();
}

function emptySides(): DebateTopic['sides'] {
  return Object.fromEntries(POSITIONS.map((p) => [p, { total: 0, newest: [] as Comment[] }])) as DebateTopic['sides'];
}

function count(tally: Tally, post: Post, c: Comment): void {
  let group = tally.groups.get(c.model);
  if (!group) tally.groups.set(c.model, (group = { model: c.model, total: 0, newest: [] }));
  group.total++;
  pushNewest(group.newest, c, COMMENTS_PER_MODEL);
  if (c.type !== 'debate' || !c.position) return;
  let topic = tally.topics.get(post.slug);
  if (!topic) tally.topics.set(post.slug, (topic = { post, latest: '', order: tally.order.get(post.slug) ?? 0, sides: emptySides() }));
  const side = topic.sides[c.position];
  side.total++;
  pushNewest(side.newest, c, ANSWERS_PER_SIDE);
  if (c.created_at > topic.latest) topic.latest = c.created_at;
}

function tallyNow(site: SiteModel): Tally {
  const tally: Tally = { groups: new Map(), topics: new Map(), order: new Map(site.posts.map((p, i) => [p.slug, i])), commented: 0, recent: [], view: null };
  const commented: Tally['recent'] = [];
  site.posts.forEach((post, order) => {
    const list = site.comments.get(post.slug) ?? [];
    for (const c of list) count(tally, post, c);
    // Lists are oldest first: the last is the newest.
    if (list.length > 0) commented.push({ post, last: list[list.length - 1]!.created_at });
    if (post.category === 'debates' && !tally.topics.has(post.slug)) tally.topics.set(post.slug, { post, latest: '', order, sides: emptySides() });
  });
  tally.commented = commented.length;
  // Newest first; posts with the same time in the site's order (a stable sort).
  tally.recent = commented.sort((a, b) => (a.last < b.last ? 1 : a.last > b.last ? -1 : 0)).slice(0, COMMENTED_POSTS);
  return tally;
}

function view(site: SiteModel): NonNullable<Tally['view']> {
  const tally = memoised(site, TALLY, () => tallyNow(site));
  if (tally.view) return tally.view;
  // Most recently debated first; topics without answers keep the post order after them.
  const topics = [...tally.topics.values()].sort((a, b) => (a.latest !== b.latest ? (a.latest < b.latest ? 1 : -1) : a.order - b.order));
  return (tally.view = {
    groups: [...tally.groups.values()].sort((a, b) => newer(a.newest[0]!, b.newest[0]!)),
    topics: topics.map((t) => ({ post: t.post, sides: t.sides })),
  });
}

/** `/comments/`: model groups, most recently active first. */
export function commentGroups(site: SiteModel): ModelGroup[] {
  return view(site).groups;
}

/** `/debates/`: the topics shown, and how many there are in all. */
export function debateSelection(site: SiteModel): { topics: DebateTopic[]; total: number } {
  const { topics } = view(site);
  return { topics: topics.slice(0, DEBATE_TOPICS), total: topics.length };
}

/** The `k` newest visible comments of the site, newest first (each is among its model's newest). */
export function newestComments(site: SiteModel, k: number): Comment[] {
  const candidates = view(site).groups.flatMap((g) => g.newest.slice(0, k));
  return candidates.sort(newer).slice(0, k);
}

/** The posts most recently commented (at most `COMMENTED_POSTS`, newest first), and how many posts have comments. */
export function recentlyCommented(site: SiteModel): { posts: Post[]; commented: number } {
  const tally = memoised(site, TALLY, () => tallyNow(site));
  return { posts: tally.recent.map((r) => r.post), commented: tally.commented };
}

/** The visible comments per model and in all (models by name). */
export function commentTotals(site: SiteModel): { total: number; by_model: Record<string, number> } {
  // A null-prototype object: a model named `__proto__` is just a key.
  const by_model: Record<string, number> = Object.create(null);
  let total = 0;
  for (const g of [...view(site).groups].sort((a, b) => (a.model < b.model ? -1 : a.model > b.model ? 1 : 0))) {
    by_model[g.model] = g.total;
    total += g.total;
  }
  return { total, by_model };
}

/** Every comment the two pages show (their HTML must be ready before they are emitted). */
export function commentsOnSitePages(site: SiteModel): Comment[] {
  const groups = commentGroups(site);
  const { topics } = debateSelection(site);
  const out = new Set<Comment>();
  for (const g of groups) for (const c of g.newest) out.add(c);
  for (const t of topics) for (const p of POSITIONS) for (const c of t.sides[p].newest) out.add(c);
  return [...out];
}

