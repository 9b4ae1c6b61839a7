/**
 * Rules across posts: a slug or model name must map to exactly one output. Each
 * message on a later file points back at the first one.
 */
import type { Message } from '../messages.ts';
import type { Post } from '../types.ts';
import type { SourceFile } from '../load/posts.ts';
import { collisionKey, isStorableName, tagKey } from '../paths.ts';

/**
 * Slugs that would collide with a fixed output: `count` under `/api/comments/`,
 * `index.html` beside a category's own page.
 */
export const RESERVED_SLUGS: ReadonlyMap<string, string> = new Map([
  ['count', '`/api/comments/count`'],
  ['index.html', 'the category page `/{category}/index.html`'],
]);

/** A tag of a post as the checks need it: its name, page key, whether that makes a file name, and its collision key. */
interface TagKeys {
  name: string;
  key: string;
  storable: boolean;
  fileKey: string;
}

/**
 * The names each check derives from a file or post (NFC, lower case, file-name checks),
 * remembered per object: `agora dev` re-checks the whole site on every edit, and at
 * 10,000 posts deriving them again was most of an edit's first half. Unchanged files keep
 * their objects between reads, so only an edited post's names are derived again. Owned by
 * the content of one process (`Content.keys`), never shared at module level.
 */
export class SiteKeys {
  private readonly slugs = new WeakMap<SourceFile, string>();
  private readonly models = new WeakMap<Post, { storable: boolean; key: string }>();
  private readonly tags = new WeakMap<Post, TagKeys[]>();

  slug(source: SourceFile): string {
    let key = this.slugs.get(source);
    if (key === undefined) this.slugs.set(source, (key = collisionKey(source.slug)));
    return key;
  }

  model(post: Post): { storable: boolean; key: string } {
    let keys = this.models.get(post);
    if (!keys) {
      const storable = isStorableName(post.model);
      this.models.set(post, (keys = { storable, key: storable ? collisionKey(post.model) : '' }));
    }
    return keys;
  }

  postTags(post: Post): TagKeys[] {
    let list = this.tags.get(post);
    if (!list) {
      list = post.tags.split(',').map((t) => t.trim()).filter((t) => t !== '').map((name) => {
        const key = tagKey(name);
        const storable = isStorableName(key);
        return { name, key, storable, fileKey: storable ? collisionKey(key) : '' };
      });
      this.tags.set(post, list);
    }
    return list;
  }
}

/**
 * Check slug uniqueness and collisions over every source, and model names over posts.
 *
 * @param keys Names derived before (a long-lived process passes the same object to each check).
 */
export function checkSite(sources: readonly SourceFile[], posts: readonly Post[], keys: SiteKeys = new SiteKeys()): Message[] {
  const messages: Message[] = [];
  const bySlug = new Map<string, SourceFile>();
  for (const source of sources) {
    const key = keys.slug(source);
    const first = bySlug.get(key);
    if (first) {
      const same = first.slug === source.slug;
      messages.push({
        file: source.file, line: 1, column: 1, severity: 'error',
        ruleId: same ? 'duplicate-slug' : 'slug-collision',
        message: same
          ? `Unexpected duplicate slug \`${source.slug}\`, already used by \`${first.file}\``
          : `Unexpected slug \`${source.slug}\`: it collides with \`${first.slug}\` (\`${first.file}\`) on case-insensitive file systems`,
        fix: 'rename one of the two files; slugs are file names and must be unique',
      });
    } else bySlug.set(key, source);
    const reserved = RESERVED_SLUGS.get(key);
    if (reserved) {
      messages.push({
        file: source.file, line: 1, column: 1, severity: 'error', ruleId: 'slug-reserved',
        message: `Unexpected slug \`${source.slug}\`: it collides with ${reserved}`,
        fix: 'rename the file to another slug',
      });
    }
  }
  const byModel = new Map<string, Post>();
  for (const post of posts) {
    const model = keys.model(post);
    if (!model.storable) {
      messages.push({ file: post.file, line: 1, column: 1, severity: 'error', ruleId: 'front-matter-model',
        message: `Unexpected model name \`${post.model}\`: too long to be a file name`, fix: 'shorten the model name' });
      continue;
    }
    const key = model.key;
    const first = byModel.get(key);
    if (first && first.model !== post.model) {
      messages.push({
        file: post.file, line: 1, column: 1, severity: 'error', ruleId: 'model-collision',
        message: `Unexpected model \`${post.model}\`: it collides with \`${first.model}\` (\`${first.file}\`) as a file name`,
        fix: `spell the model exactly \`${first.model}\` or choose a name that differs by more than case`,
      });
    } else if (!first) byModel.set(key, post);
  }
  messages.push(...checkTags(posts, keys));
  return messages;
}

/**
 * Tags: each key must make a file name, and two spellings that share a page (`Nginx`,
 * `nginx`) are reported, since the page can show only one of them.
 */
function checkTags(posts: readonly Post[], keys: SiteKeys): Message[] {
  const messages: Message[] = [];
  const byKey = new Map<string, { name: string; key: string; post: Post }>();
  for (const post of posts) {
    for (const { name, key, storable, fileKey } of keys.postTags(post)) {
      if (!storable) {
        messages.push({ file: post.file, line: 1, column: 1, severity: 'error', ruleId: 'tag-name',
          message: `Unexpected tag \`${name.slice(0, 40)}…\`: too long to be a file name`, fix: 'shorten the tag' });
        continue;
      }
      const first = byKey.get(fileKey);
      if (!first) byKey.set(fileKey, { name, key, post });
      else if (first.name !== name) {
        const same = first.key === key;
        messages.push({
          file: post.file, line: 1, column: 1, severity: same ? 'warning' : 'error', ruleId: 'tag-collision',
          message: `Unexpected tag \`${name}\`: it collides with \`${first.name}\` (\`${first.post.file}\`) as the page \`/tags/${key}/\``,
          fix: `spell the tag exactly \`${first.name}\`, or choose a name that differs by more than case and spacing`,
        });
      }
    }
  }
  return messages;
}
