/**
 * Read every post source under `content/posts/` (any depth). The slug is the file name
 * without `.md`; the folder is only for the author's order.
 */
import { readdir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { createHash } from 'node:crypto';
import { findInvalidUtf8, type InvalidByte } from './utf8.ts';

export interface SourceFile {
  /** Path relative to the project root, `/`-separated, for messages. */
  file: string;
  absPath: string;
  slug: string;
  text: string;
  /** sha1 of the file's bytes (of the text, for a file that is UTF-8): the key of every cache. */
  hash: string;
  /** The first byte that is not UTF-8 (the text then holds U+FFFD in its place): an error of the file. */
  invalidUtf8?: InvalidByte;
}

/** Hash used for caches and change detection. */
export function hashText(text: string | Uint8Array): string {
  return createHash('sha1').update(text).digest('hex');
}

/**
 * Whether a path below `postsDir` is hidden: a file or folder name on the way starts
 * with `.` (`.hidden.md`, a `.drafts/` folder). Such a `.md` file is a post like any
 * other (a slug may start with a dot; it is encoded, `/guide/%2Ehidden/`), but most
 * tools hide it from its author: `agora check` says so.
 */
export function isHiddenBelow(postsDir: string, path: string): boolean {
  return relative(postsDir, path).split(sep).some((name) => name.startsWith('.'));
}

/** List `*.md` files below `postsDir`, sorted for a deterministic build. */
export async function listPostFiles(postsDir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(postsDir, { recursive: true, withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.md'))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/**
 * Files below `postsDir` named like markdown whose fate surprises an author, and of which
 * `agora check` said nothing: not `*.md` (`x.MD`, `x.markdown`, `x.mdx`: never read as
 * posts), or hidden (`isHiddenBelow`: published, though most tools hide them). Relative
 * to `root`, sorted.
 */
export async function misnamedPostFiles(postsDir: string, root: string): Promise<{ file: string; hidden: boolean; link?: 'file' | 'folder' }[]> {
  const entries = await readdir(postsDir, { recursive: true, withFileTypes: true }).catch(() => []);
  const toFile = (path: string) => relative(root, path).split(sep).join('/');
  const misnamed = entries
    .filter((e) => e.isFile() && /\.(md|markdown|mdown|mkdn?|mdx)$/i.test(e.name))
    .map((e) => join(e.parentPath, e.name))
    .map((path) => ({ path, hidden: isHiddenBelow(postsDir, path) }))
    .filter(({ path, hidden }) => hidden || !path.endsWith('.md'))
    .map(({ path, hidden }) => ({ file: toFile(path), hidden }));
  // A symbolic link is never followed (readdir lists it as neither file nor folder): a linked post, or a
  // linked folder of posts, was left out of the site without a word.
  const links = [];
  for (const e of entries.filter((entry) => entry.isSymbolicLink())) {
    const path = join(e.parentPath, e.name);
    const folder = (await stat(path).catch(() => null))?.isDirectory() === true;
    if (folder || /\.(md|markdown|mdown|mkdn?|mdx)$/i.test(e.name)) links.push({ file: toFile(path), hidden: false, link: folder ? ('folder' as const) : ('file' as const) });
  }
  return [...misnamed, ...links].sort((a, b) => (a.file < b.file ? -1 : 1));
}

export function toSourceFile(absPath: string, root: string, text: string): SourceFile {
  return { ...sourceName(absPath, root), absPath, text, hash: hashText(text) };
}

/** A post file as read: its text, and where it is not UTF-8 (hashed by its bytes, so a cached parse of another text never stands in). */
export function sourceFromBytes(absPath: string, root: string, bytes: Uint8Array): SourceFile {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  // Only a text holding U+FFFD can have come from a byte that is not UTF-8.
  const invalid = text.includes('\uFFFD') ? findInvalidUtf8(bytes) : null;
  return { ...sourceName(absPath, root), absPath, text, hash: hashText(bytes), ...(invalid ? { invalidUtf8: invalid } : {}) };
}

/** The names of a post file (whether or not it exists): its path for messages and its slug. */
export function sourceName(absPath: string, root: string): Pick<SourceFile, 'file' | 'slug'> {
  const name = absPath.slice(absPath.lastIndexOf(sep) + 1);
  return { file: relative(root, absPath).split(sep).join('/'), slug: name.slice(0, -'.md'.length) };
}
