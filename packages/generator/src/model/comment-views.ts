/**
 * What `/comments/` and `/debates/` show, bounded so neither page (nor the comment
 * HTML it needs) grows with every comment ever stored: the newest comments of each
 * model, and the most recently debated topics with their newest answers per side.
 * One pass over the visible comments; every comment stays on its post's page.
 */
import type { Comment, Position, Post, SiteModel } from '../types.ts';
import { POSITIONS } from '../types.ts';
import { compareComments } from './site.ts';
import { forget, memoised } from './memo.ts';

/** Comments shown per model on `/comments/`. */
export const COMMENTS_PER_MODEL = 50;
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

const newer = (a: Comment, b: Comment) => compareComments(b, a);

/** Keep the `k` newest of a list as it grows (cheap when comments arrive mostly in order). */
function pushNewest(list: Comment[], c: Comment, k: number): void {
  if (list.length >= k && newer(c, list[list.length - 1]!) >= 0) return;
  let i = list.length;
  while (i > 0 && newer(c, list[i - 1]!) < 0) i--;
  list.splice(i, 0, c);
  if (list.length > k) list.pop();
}

const SELECTION = Symbol('comment selection');

/** Forget the memoised selection (call when the model's comments change in place). */
export function commentsChanged(site: SiteModel): void {
  forget(site, SELECTION);
}

function select(site: SiteModel): { groups: ModelGroup[]; topics: DebateTopic[]; totalTopics: number } {
  return memoised(site, SELECTION, () => selectNow(site));
}

function selectNow(site: SiteModel) {
  const groups = new Map<string, ModelGroup>();
  const topics: (DebateTopic & { latest: string })[] = [];
  for (const post of site.posts) {
    const list = site.comments.get(post.slug) ?? [];
    let topic: (DebateTopic & { latest: string }) | null = null;
    for (const c of list) {
      let group = groups.get(c.model);
      if (!group) groups.set(c.model, (group = { model: c.model, total: 0, newest: [] }));
      group.total++;
      pushNewest(group.newest, c, COMMENTS_PER_MODEL);
      if (c.type !== 'debate' || !c.position) continue;
      topic ??= { post, latest: '', sides: Object.fromEntries(POSITIONS.map((p) => [p, { total: 0, newest: [] as Comment[] }])) as DebateTopic['sides'] };
      const side = topic.sides[c.position];
      side.total++;
      pushNewest(side.newest, c, ANSWERS_PER_SIDE);
      if (c.created_at > topic.latest) topic.latest = c.created_at;
    }
    if (!topic && post.category === 'debates') topic = { post, latest: '', sides: Object.fromEntries(POSITIONS.map((p) => [p, { total: 0, newest: [] as Comment[] }])) as DebateTopic['sides'] };
    if (topic) topics.push(topic);
  }
  // Most recently debated first; topics without answers keep the post order after them.
  const ordered = topics.map((t, i) => ({ t, i })).sort((a, b) => (a.t.latest !== b.t.latest ? (a.t.latest < b.t.latest ? 1 : -1) : a.i - b.i));
  return {
    groups: [...groups.values()].sort((a, b) => newer(a.newest[0]!, b.newest[0]!)),
    topics: ordered.slice(0, DEBATE_TOPICS).map(({ t }) => ({ post: t.post, sides: t.sides })),
    totalTopics: topics.length,
  };
}

/** `/comments/`: model groups, most recently active first. */
export function commentGroups(site: SiteModel): ModelGroup[] {
  return select(site).groups;
}

/** `/debates/`: the topics shown, and how many there are in all. */
export function debateSelection(site: SiteModel): { topics: DebateTopic[]; total: number } {
  const s = select(site);
  return { topics: s.topics, total: s.totalTopics };
}

/** Every comment the two pages show (their HTML must be ready before they are emitted). */
export function commentsOnSitePages(site: SiteModel): Comment[] {
  const s = select(site);
  const out = new Set<Comment>();
  for (const g of s.groups) for (const c of g.newest) out.add(c);
  for (const t of s.topics) for (const p of POSITIONS) for (const c of t.sides[p].newest) out.add(c);
  return [...out];
}
