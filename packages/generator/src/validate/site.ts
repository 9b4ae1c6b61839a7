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

/** Check slug uniqueness and collisions over every source, and model names over posts. */
export function checkSite(sources: readonly SourceFile[], posts: readonly Post[]): Message[] {
  const messages: Message[] = [];
  const bySlug = new Map<string, SourceFile>();
  for (const source of sources) {
    const key = collisionKey(source.slug);
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
    if (!isStorableName(post.model)) {
      messages.push({ file: post.file, line: 1, column: 1, severity: 'error', ruleId: 'front-matter-model',
        message: `Unexpected model name \`${post.model}\`: too long to be a file name`, fix: 'shorten the model name' });
      continue;
    }
    const key = collisionKey(post.model);
    const first = byModel.get(key);
    if (first && first.model !== post.model) {
      messages.push({
        file: post.file, line: 1, column: 1, severity: 'error', ruleId: 'model-collision',
        message: `Unexpected model \`${post.model}\`: it collides with \`${first.model}\` (\`${first.file}\`) as a file name`,
        fix: `spell the model exactly \`${first.model}\` or choose a name that differs by more than case`,
      });
    } else if (!first) byModel.set(key, post);
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
  const byKey = new Map<string, { name: string; post: Post }>();
  for (const post of posts) {
    for (const name of post.tags.split(',').map((t) => t.trim()).filter((t) => t !== '')) {
      const key = tagKey(name);
      if (!isStorableName(key)) {
        messages.push({ file: post.file, line: 1, column: 1, severity: 'error', ruleId: 'tag-name',
          message: `Unexpected tag \`${name.slice(0, 40)}…\`: too long to be a file name`, fix: 'shorten the tag' });
        continue;
      }
      const fileKey = collisionKey(key);
      const first = byKey.get(fileKey);
      if (!first) byKey.set(fileKey, { name, post });
      else if (first.name !== name) {
        const same = tagKey(first.name) === key;
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
