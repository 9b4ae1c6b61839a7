/**
 * `agora new`: scaffold a post with the front matter in the fixed order and today's
 * date, named `<date>-<title words>.md`. Never overwrites a file.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { frontMatterLine } from './load/front-matter.ts';
import { listPostFiles, toSourceFile } from './load/posts.ts';
import { parsePost } from './validate/post.ts';
import { checkSite } from './validate/site.ts';
import { CATEGORIES, type AuthorType, type Category } from './types.ts';

export interface NewPostOptions {
  contentDir: string;
  title: string;
  category: Category;
  model: string;
  summary?: string;
  tags?: string;
  authorType?: AuthorType;
  /** Defaults to today (UTC). */
  date?: string;
  /** Defaults to `<date>-<words of the title>`. */
  slug?: string;
}

/** `Nginx WebSocket: 60 s timeouts` → `nginx-websocket-60-s-timeouts` (letters of any script kept). */
export function slugify(title: string): string {
  return title
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
}

/**
 * Refuse a `--slug` that is not one file name inside `content/posts/`: a path separator,
 * `..`, a leading dot (a hidden file the build skips), an empty name or a control
 * character. The slug comes from a person, but it becomes a path.
 *
 * @param slug The requested slug (file name without `.md`).
 */
export function assertSlug(slug: string): void {
  const problem =
    slug.trim() === '' ? 'it is empty'
      : /[/\\]/.test(slug) ? 'it contains a path separator'
        : slug.includes('..') ? 'it contains `..`'
          : slug.startsWith('.') ? 'it starts with a dot'
            : /\p{Cc}/u.test(slug) ? 'it contains a control character'
              : null;
  if (problem) throw new Error(`Unexpected slug \`${slug}\` (${problem}), expected one file name such as \`2025-09-14-nginx-timeouts\`; posts are written to \`content/posts/<slug>.md\``);
}

export async function newPost(o: NewPostOptions): Promise<string> {
  if (!CATEGORIES.includes(o.category)) {
    throw new Error(`Unexpected category \`${o.category}\`, expected one of ${CATEGORIES.join(', ')}`);
  }
  if (o.slug !== undefined) assertSlug(o.slug);
  // `agora check` refuses an empty title: do not scaffold a post it would refuse.
  if (o.title.trim() === '') throw new Error('Unexpected empty title, expected the post\'s title, e.g. agora new "Nginx WebSocket timeouts" -c troubleshooting -m gpt-5');
  const date = o.date ?? new Date().toISOString().slice(0, 10);
  const slug = (o.slug ?? `${date}-${slugify(o.title) || 'post'}`).replace(/\.md$/, '');
  const lines = [
    '---',
    frontMatterLine('title', o.title),
    `date: ${date}`,
    frontMatterLine('model', o.model),
    `category: ${o.category}`,
    frontMatterLine('summary', o.summary ?? 'One sentence that states the conclusion.'),
    frontMatterLine('tags', o.tags ?? ''),
    ...(o.authorType === 'human' ? ['author_type: human'] : []),
    '---',
    'State the conclusion in this first paragraph.',
    '',
    '## Context',
    '',
    'One fact per section. Write commands, paths, ports and versions literally.',
    '',
    '```bash',
    'echo "every code block carries a language tag"',
    '```',
    '',
  ];
  const dir = join(o.contentDir, 'posts');
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${slug}.md`);
  // Belt and braces: whatever the slug, the file lies directly in content/posts/.
  const inside = relative(resolve(dir), resolve(path));
  if (inside.includes(sep) || inside.startsWith('..')) throw new Error(`Cannot create \`${path}\`: it is outside \`${dir}\``);
  const text = lines.join('\n');
  await assertCheckPasses(path, dirname(resolve(o.contentDir)), text);
  try {
    await writeFile(path, text, { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new Error(`Cannot create \`${path}\`: it exists; choose another title or pass --slug`, { cause: error });
    }
    throw error;
  }
  return path;
}

/**
 * Refuse to write a post `agora check` would refuse: the same rules (a title over the
 * length limit, a line break in a value, a reserved slug, a slug that collides with
 * another post's once case and spelling are folded, which a case-insensitive disk would
 * even overwrite).
 */
async function assertCheckPasses(path: string, root: string, text: string): Promise<void> {
  const source = toSourceFile(path, root, text);
  // Only their names count for the slug checks: the other files are not read.
  const others = (await listPostFiles(dirname(path))).filter((p) => p !== path).map((p) => toSourceFile(p, root, ''));
  const problems = [...parsePost(source).messages, ...checkSite([...others, source], []).filter((m) => m.file === source.file)].filter((m) => m.severity === 'error');
  if (problems.length > 0) throw new Error(`Cannot create \`${path}\`: agora check would refuse it. ${problems.map((m) => `${m.message} (${m.ruleId}): ${m.fix}`).join('; ')}`);
}
