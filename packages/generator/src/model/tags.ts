/**
 * Tags as pages: every tag key (`paths.ts` `tagKey`) with its posts. Spellings that
 * fold to one key share a page; `agora check` warns about them (validate/site.ts).
 */
import type { Post, SiteModel } from '../types.ts';
import { tagKey } from '../paths.ts';
import { memoised } from './memo.ts';

/** A post's tag names, as authored. */
export function postTags(post: Pick<Post, 'tags'>): string[] {
  return post.tags ? post.tags.split(',').map((t) => t.trim()).filter((t) => t.length > 0) : [];
}

export interface Tag {
  key: string;
  /** The spelling shown: the most used one (ties: code-point order). */
  name: string;
  /** Newest first. */
  posts: Post[];
}

const BY_TAG = Symbol('posts by tag');

/** Every tag with its posts, by key, in key order (memoised with the model). */
export function postsByTag(site: Pick<SiteModel, 'posts' | 'memo'>): Map<string, Tag> {
  return memoised(site, BY_TAG, () => groupByTag(site.posts));
}

function groupByTag(posts: readonly Post[]): Map<string, Tag> {
  const groups = new Map<string, { posts: Post[]; spellings: Map<string, number> }>();
  for (const post of posts) {
    const seen = new Set<string>();
    for (const name of postTags(post)) {
      const key = tagKey(name);
      if (key === '' || seen.has(key)) continue;
      seen.add(key);
      let group = groups.get(key);
      if (!group) groups.set(key, (group = { posts: [], spellings: new Map() }));
      group.posts.push(post);
      group.spellings.set(name, (group.spellings.get(name) ?? 0) + 1);
    }
  }
  const tags = new Map<string, Tag>();
  for (const key of [...groups.keys()].sort()) {
    const { posts, spellings } = groups.get(key)!;
    const name = [...spellings].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]![0];
    tags.set(key, { key, name, posts });
  }
  return tags;
}
