/**
 * Rules across posts: a slug or model name must map to exactly one output. Each
 * message on a later file points back at the first one.
 *
 * Two implementations of the same rules: `checkSite` checks a whole read at once (`agora
 * check`, every build); `SiteChecks` keeps its indexes from edit to edit (`agora dev`), so
 * re-checking after an edit costs the files that changed and the groups they are in
 * (everything with the same slug, model or tag key), not the whole site. Both give the
 * same messages (after `sortMessages`; a test checks it after random edits).
 */
import type { Message } from '../messages.ts';
import type { Post } from '../types.ts';
import type { SourceFile } from '../load/posts.ts';
import type { ParsedPost } from './post.ts';
import { collisionKey, isStorableName, tagKey } from '../paths.ts';
import { sortedIndex } from '../sorted.ts';

/**
 * Slugs that would collide with a fixed output: `count` under `/api/comments/`, the
 * category's own files beside its posts' folders (`/{category}/index.html` …).
 */
export const RESERVED_SLUGS: ReadonlyMap<string, string> = new Map([
  ['count', '`/api/comments/count`'],
  ['index.html', 'the category page `/{category}/index.html`'],
  ['index.md', 'the category page\'s markdown `/{category}/index.md`'],
  ['feed.atom', 'the category feed `/{category}/feed.atom`'],
  ['feed.json', 'the category feed `/{category}/feed.json`'],
]);

/** Tag keys that would collide with the tag index's own files beside the tags' folders. */
export const RESERVED_TAG_KEYS: ReadonlyMap<string, string> = new Map([
  ['index.html', 'the tag index `/tags/index.html`'],
  ['index.md', 'the tag index\'s markdown `/tags/index.md`'],
]);

/** A tag of a post as the checks need it: its name, page key, whether that makes a file name, and its collision key. */
interface TagKeys {
  name: string;
  key: string;
  storable: boolean;
  /** The fixed output its page would collide with (then not `storable`). */
  reserved: string | undefined;
  fileKey: string;
}

function modelKeys(model: string): { storable: boolean; key: string } {
  const storable = isStorableName(model);
  return { storable, key: storable ? collisionKey(model) : '' };
}

function tagKeys(tags: string): TagKeys[] {
  return tags.split(',').map((t) => t.trim()).filter((t) => t !== '').map((name) => {
    const key = tagKey(name);
    const reserved = RESERVED_TAG_KEYS.get(key);
    const storable = isStorableName(key) && reserved === undefined;
    return { name, key, storable, reserved, fileKey: storable ? collisionKey(key) : '' };
  });
}

// The messages, shared by both implementations so that their words never drift apart.

/** Why two slugs that differ collide: the same letters in another Unicode form prints the same, and reads as nothing else. */
function collisionReason(a: string, b: string): string {
  if (a.normalize('NFC') === b.normalize('NFC')) return `: the same name in another Unicode normalization (${a === a.normalize('NFC') ? 'NFC' : 'decomposed, NFD'} against ${b === b.normalize('NFC') ? 'NFC' : 'decomposed, NFD'}; some tools write names decomposed), one name to normalizing file systems and to URLs`;
  return ' on case-insensitive file systems';
}

function slugTaken(source: Pick<SourceFile, 'file' | 'slug'>, first: Pick<SourceFile, 'file' | 'slug'>): Message {
  const same = first.slug === source.slug;
  return {
    file: source.file, line: 1, column: 1, severity: 'error',
    ruleId: same ? 'duplicate-slug' : 'slug-collision',
    message: same
      ? `Unexpected duplicate slug \`${source.slug}\`, already used by \`${first.file}\``
      : `Unexpected slug \`${source.slug}\`: it collides with \`${first.slug}\` (\`${first.file}\`)${collisionReason(source.slug, first.slug)}`,
    fix: 'rename one of the two files; slugs are file names and must be unique',
  };
}

function slugReserved(source: Pick<SourceFile, 'file' | 'slug'>, reserved: string): Message {
  return {
    file: source.file, line: 1, column: 1, severity: 'error', ruleId: 'slug-reserved',
    message: `Unexpected slug \`${source.slug}\`: it collides with ${reserved}`,
    fix: 'rename the file to another slug',
  };
}

function modelTooLong(file: string, model: string): Message {
  return { file, line: 1, column: 1, severity: 'error', ruleId: 'front-matter-model',
    message: `Unexpected model name \`${model}\`: too long to be a file name`, fix: 'shorten the model name' };
}

function modelCollision(file: string, model: string, first: { file: string; model: string }): Message {
  return {
    file, line: 1, column: 1, severity: 'error', ruleId: 'model-collision',
    message: `Unexpected model \`${model}\`: it collides with \`${first.model}\` (\`${first.file}\`) as a file name`,
    fix: `spell the model exactly \`${first.model}\` or choose a name that differs by more than case`,
  };
}

/** A tag that cannot have a page: too long for a file name, or its page collides with a fixed output. */
function tagUnusable(file: string, tag: Pick<TagKeys, 'name' | 'reserved'>): Message {
  return tag.reserved
    ? { file, line: 1, column: 1, severity: 'error', ruleId: 'tag-name', message: `Unexpected tag \`${tag.name}\`: its page collides with ${tag.reserved}`, fix: 'choose another tag' }
    : { file, line: 1, column: 1, severity: 'error', ruleId: 'tag-name', message: `Unexpected tag \`${tag.name.slice(0, 40)}…\`: too long to be a file name`, fix: 'shorten the tag' };
}

function tagCollision(file: string, tag: Pick<TagKeys, 'name' | 'key'>, first: { name: string; key: string; file: string }): Message {
  const same = first.key === tag.key;
  return {
    file, line: 1, column: 1, severity: same ? 'warning' : 'error', ruleId: 'tag-collision',
    message: `Unexpected tag \`${tag.name}\`: it collides with \`${first.name}\` (\`${first.file}\`) as the page \`/tags/${tag.key}/\``,
    fix: `spell the tag exactly \`${first.name}\`, or choose a name that differs by more than case and spacing`,
  };
}

/**
 * Check slug uniqueness and collisions over every source, and model names over posts.
 */
export function checkSite(sources: readonly SourceFile[], posts: readonly Post[]): Message[] {
  const messages: Message[] = [];
  const bySlug = new Map<string, SourceFile>();
  for (const source of sources) {
    const key = collisionKey(source.slug);
    const first = bySlug.get(key);
    if (first) messages.push(slugTaken(source, first));
    else bySlug.set(key, source);
    const reserved = RESERVED_SLUGS.get(key);
    if (reserved) messages.push(slugReserved(source, reserved));
  }
  const byModel = new Map<string, Post>();
  for (const post of posts) {
    const model = modelKeys(post.model);
    if (!model.storable) {
      messages.push(modelTooLong(post.file, post.model));
      continue;
    }
    const key = model.key;
    const first = byModel.get(key);
    if (first && first.model !== post.model) messages.push(modelCollision(post.file, post.model, first));
    else if (!first) byModel.set(key, post);
  }
  messages.push(...checkTags(posts));
  return messages;
}

/**
 * Tags: each key must make a file name, and two spellings that share a page (`Nginx`,
 * `nginx`) are reported, since the page can show only one of them.
 */
function checkTags(posts: readonly Post[]): Message[] {
  const messages: Message[] = [];
  const byKey = new Map<string, { name: string; key: string; file: string }>();
  for (const post of posts) {
    for (const tag of tagKeys(post.tags)) {
      if (!tag.storable) {
        messages.push(tagUnusable(post.file, tag));
        continue;
      }
      const first = byKey.get(tag.fileKey);
      if (!first) byKey.set(tag.fileKey, { name: tag.name, key: tag.key, file: post.file });
      else if (first.name !== tag.name) messages.push(tagCollision(post.file, tag, first));
    }
  }
  return messages;
}

/** One post file as the kept checks see it: its names, derived once. */
interface CheckedFile {
  /** Absolute path: files are checked in this order (the order of `listPostFiles`). */
  path: string;
  /** Relative path, as messages name it. */
  file: string;
  slug: string;
  slugKey: string;
  /** The names of a valid post (null: the file has errors of its own). */
  post: { model: string; modelStorable: boolean; modelKey: string; tags: string; tagKeys: TagKeys[] } | null;
  /** The file's own messages (front matter, body). */
  messages: readonly Message[];
}

/** A file in a group (slug, model or tag key); `at` is the tag's position in the post. */
interface Member {
  file: CheckedFile;
  at: number;
}

/**
 * A site message with what orders it among one file's messages as `checkSite` lists them:
 * slug (0), reserved slug (1), model (2), then tags in the post's order (3 + position).
 */
interface Ranked {
  path: string;
  rank: number;
  message: Message;
}

const RANK_SLUG = 0;
const RANK_RESERVED = 1;
const RANK_MODEL = 2;
const RANK_TAG = 3;

function compareMembers(a: Member, b: Member): number {
  if (a.file.path !== b.file.path) return a.file.path < b.file.path ? -1 : 1;
  return a.at - b.at;
}


/**
 * The site checks of a long-lived process (`agora dev`), kept from edit to edit: every
 * file's names, the files of each slug, model and tag key in path order, and the messages
 * of each group. `set` replaces one file; `messages` re-checks only the groups whose
 * members changed. An edit that keeps a file's slug, model and tags (a body edit)
 * re-checks nothing.
 */
export class SiteChecks {
  private readonly files = new Map<string, CheckedFile>();
  /** Group id (`s:`, `m:`, `t:` + key) → members in path order. */
  private readonly groups = new Map<string, Member[]>();
  private readonly dirty = new Set<string>();
  /** Messages of groups that have any, by group id. */
  private readonly groupMessages = new Map<string, Ranked[]>();
  /** Messages that depend on one file alone (reserved slug, names too long), by path. */
  private readonly ownMessages = new Map<string, Ranked[]>();
  /** Files whose own messages are not empty. */
  private readonly withMessages = new Set<CheckedFile>();

  /** Checks of every file of a read (`path` → its source and parse). */
  static of(parsed: Iterable<[string, { source: SourceFile; result: ParsedPost }]>): SiteChecks {
    const checks = new SiteChecks();
    // In path order, so every member is appended at the end of its group.
    for (const [path, entry] of [...parsed].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) checks.set(path, entry);
    return checks;
  }

  /** How many files are checked. */
  get size(): number {
    return this.files.size;
  }

  /** Replace what the checks know of the file at `path` (undefined: it is gone). */
  set(path: string, entry: { source: SourceFile; result: ParsedPost } | undefined): void {
    const before = this.files.get(path);
    const after = entry ? toChecked(path, entry) : undefined;
    if (before && after && sameNames(before, after)) {
      // Same names: no group changes; only the file's own messages may differ.
      before.messages = after.messages;
      if (after.messages.length > 0) this.withMessages.add(before);
      else this.withMessages.delete(before);
      return;
    }
    if (before) this.leave(before);
    if (after) this.join(after);
  }

  /** Every message of the checked files: their own, then the site's (sort with `sortMessages`). */
  messages(): Message[] {
    for (const id of this.dirty) this.recheck(id);
    this.dirty.clear();
    const out: Message[] = [];
    for (const file of this.withMessages) out.push(...file.messages);
    const ranked: Ranked[] = [];
    for (const list of this.ownMessages.values()) ranked.push(...list);
    for (const list of this.groupMessages.values()) ranked.push(...list);
    // One file's site messages in `checkSite`'s order, so a stable sort of the whole
    // list gives what a full check gives.
    ranked.sort((a, b) => (a.path !== b.path ? (a.path < b.path ? -1 : 1) : a.rank - b.rank));
    for (const r of ranked) out.push(r.message);
    return out;
  }

  private join(file: CheckedFile): void {
    this.files.set(file.path, file);
    if (file.messages.length > 0) this.withMessages.add(file);
    const own: Ranked[] = [];
    this.add(`s:${file.slugKey}`, { file, at: 0 });
    const reserved = RESERVED_SLUGS.get(file.slugKey);
    if (reserved) own.push({ path: file.path, rank: RANK_RESERVED, message: slugReserved(file, reserved) });
    if (file.post) {
      if (file.post.modelStorable) this.add(`m:${file.post.modelKey}`, { file, at: 0 });
      else own.push({ path: file.path, rank: RANK_MODEL, message: modelTooLong(file.file, file.post.model) });
      file.post.tagKeys.forEach((tag, at) => {
        if (tag.storable) this.add(`t:${tag.fileKey}`, { file, at });
        else own.push({ path: file.path, rank: RANK_TAG + at, message: tagUnusable(file.file, tag) });
      });
    }
    if (own.length > 0) this.ownMessages.set(file.path, own);
  }

  private leave(file: CheckedFile): void {
    this.files.delete(file.path);
    this.withMessages.delete(file);
    this.ownMessages.delete(file.path);
    this.remove(`s:${file.slugKey}`, { file, at: 0 });
    if (file.post) {
      if (file.post.modelStorable) this.remove(`m:${file.post.modelKey}`, { file, at: 0 });
      file.post.tagKeys.forEach((tag, at) => {
        if (tag.storable) this.remove(`t:${tag.fileKey}`, { file, at });
      });
    }
  }

  private add(id: string, member: Member): void {
    let list = this.groups.get(id);
    if (!list) this.groups.set(id, (list = []));
    const last = list.at(-1);
    if (!last || compareMembers(last, member) < 0) list.push(member);
    else list.splice(sortedIndex(list, member, compareMembers), 0, member);
    this.dirty.add(id);
  }

  private remove(id: string, member: Member): void {
    const list = this.groups.get(id);
    if (!list) return;
    const at = sortedIndex(list, member, compareMembers);
    if (list[at]?.file !== member.file || list[at]?.at !== member.at) return;
    list.splice(at, 1);
    if (list.length === 0) this.groups.delete(id);
    this.dirty.add(id);
  }

  /** The messages of one group, from its members in path order (as `checkSite` finds them). */
  private recheck(id: string): void {
    const list = this.groups.get(id);
    const out: Ranked[] = [];
    if (list && list.length > 1) {
      const first = list[0]!;
      for (const member of list.slice(1)) {
        const { file, at } = member;
        if (id.startsWith('s:')) out.push({ path: file.path, rank: RANK_SLUG, message: slugTaken(file, first.file) });
        else if (id.startsWith('m:')) {
          const model = file.post!.model;
          const firstModel = first.file.post!.model;
          if (model !== firstModel) out.push({ path: file.path, rank: RANK_MODEL, message: modelCollision(file.file, model, { file: first.file.file, model: firstModel }) });
        } else {
          const tag = file.post!.tagKeys[at]!;
          const firstTag = first.file.post!.tagKeys[first.at]!;
          if (tag.name !== firstTag.name) out.push({ path: file.path, rank: RANK_TAG + at, message: tagCollision(file.file, tag, { name: firstTag.name, key: firstTag.key, file: first.file.file }) });
        }
      }
    }
    if (out.length > 0) this.groupMessages.set(id, out);
    else this.groupMessages.delete(id);
  }
}

function toChecked(path: string, { source, result }: { source: SourceFile; result: ParsedPost }): CheckedFile {
  const post = result.post;
  return {
    path,
    file: source.file,
    slug: source.slug,
    slugKey: collisionKey(source.slug),
    post: post ? { model: post.model, ...prefix(modelKeys(post.model)), tags: post.tags, tagKeys: tagKeys(post.tags) } : null,
    messages: result.messages,
  };
}

function prefix(keys: { storable: boolean; key: string }): { modelStorable: boolean; modelKey: string } {
  return { modelStorable: keys.storable, modelKey: keys.key };
}

/** Whether two versions of a file give the checks the same names (so the same groups). */
function sameNames(a: CheckedFile, b: CheckedFile): boolean {
  if (a.file !== b.file || a.slug !== b.slug) return false;
  if (!a.post || !b.post) return a.post === b.post;
  return a.post.model === b.post.model && a.post.tags === b.post.tags;
}
