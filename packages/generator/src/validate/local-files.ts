/**
 * Rule `local-file`: the files a post refers to by a relative path (`![diagram](./diagram.png)`,
 * `[slides](talk.pdf)`), and which of them are published beside its page.
 *
 * A post's page is `/{category}/{slug}/` and its source `/{category}/{slug}/post.md`, so a
 * relative `./img/a.png` in `content/posts/x.md` is asked for at `/{category}/{slug}/img/a.png`
 * from both. A file below the post's own folder, of a type in `PUBLISHED_TYPES` and at most
 * `MAX_LOCAL_FILE_BYTES`, is copied there (the `post-files` job); every other reference to a
 * local file is a message of `agora check` (and of every build):
 *
 * - a file that is not there: a warning (the page shows a broken image or link);
 * - a path that leaves `content/`: an error (it is never published, and a build refuses);
 * - a file over the size bound: an error (a build refuses, naming it);
 * - a path that leaves the post's folder (`../x.png`), a symbolic link on the way, a hidden
 *   or unsafe name, an SVG (served from the site's origin, it could run script) or another
 *   type: a warning saying why it is not published.
 *
 * An image is always a file. A link counts only when it names a file: its last segment has
 * an extension and the file is there (or its type is one that is published); `../other/`
 * and `../other/post.md` are links to the site's pages, not to files (`dead-link` looks at
 * those).
 */
import { lstatSync, type Stats } from 'node:fs';
import { dirname, isAbsolute, join, posix, relative, resolve, sep } from 'node:path';
import type { Message } from '../messages.ts';
import type { LocalRef, Post } from '../types.ts';
import { toFileName } from '../paths.ts';
import { linkUses, parseCommonMark } from './markdown-links.ts';

export const LOCAL_FILE = 'local-file';

/** Largest file published beside a post. */
export const MAX_LOCAL_FILE_BYTES = 10 * 1024 * 1024;

/** Extensions of the files published beside a post (images and PDF; never SVG, see above). */
export const PUBLISHED_TYPES = ['png', 'jpg', 'jpeg', 'gif', 'webp', 'avif', 'pdf'] as const;

const PUBLISHED = new Set<string>(PUBLISHED_TYPES);
const TYPES_TEXT = PUBLISHED_TYPES.map((t) => `.${t}`).join(', ');

/** A URL with a scheme (`https:`, `mailto:`, `data:`), rooted (`/x`, `//host/x`), a fragment or a query alone. */
const NOT_RELATIVE = /^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|[/#?\\])/;

/**
 * Markdown that may refer to a local file: an image with a relative source, or a link or a
 * definition whose relative destination ends in an extension. Most bodies have none (their
 * links are absolute or to pages), and only the others are parsed here: a parse of every
 * body on the main thread, beside the render workers', would slow a cold build by seconds.
 */
const MAY_REFER = [
  /!\[[^\]]*\]\(\s*<?(?![a-zA-Z][a-zA-Z0-9+.-]*:|[/#?\\])/,
  /\]\(\s*<?(?![a-zA-Z][a-zA-Z0-9+.-]*:|[/#?\\])[^\s)>]*\.[a-zA-Z0-9]+(?=[\s)>?#])/,
  /^ {0,3}\[[^\]\n]+\]:\s*<?(?![a-zA-Z][a-zA-Z0-9+.-]*:|[/#?\\])[^\s>]*\.[a-zA-Z0-9]+(?=[\s>?#]|$)/m,
];

/** The relative references of a post body to files (positions in the post's file). */
export function localRefs(body: string, bodyLine: number): LocalRef[] {
  if (!MAY_REFER.some((re) => re.test(body))) return [];
  const refs: LocalRef[] = [];
  // A reference used by an image and a link is judged as an image: an image is always a file.
  for (const { url, image, line, column } of linkUses(parseCommonMark(body))) {
    if (url === '' || NOT_RELATIVE.test(url)) continue;
    // A link to a page (`../other/`, `../other`) is not a file.
    if (!image && !/\.[a-zA-Z0-9]+$/.test(url.split(/[?#]/, 1)[0]!)) continue;
    refs.push({ url, image, line: bodyLine + line - 1, column });
  }
  return refs.sort((a, b) => a.line - b.line || a.column - b.column);
}

/** A file to publish beside a post: where it is, where it goes in the post's folder, and what it was when looked at. */
export interface PublishedFile {
  /** Absolute path of the file in content/. */
  abs: string;
  /** Path below the post's output folder, `/`-separated (decoded, as the server looks it up). */
  out: string;
  size: number;
  /** Size, modification time and inode: a file changed or replaced has another. */
  stamp: string;
}

type Verdict =
  | { kind: 'skip' }
  | { kind: 'publish'; file: PublishedFile }
  | { kind: 'problem'; severity: Message['severity']; message: string; fix: string };

const lstat = (path: string): Stats | undefined => lstatSync(path, { throwIfNoEntry: false });

function decode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * What becomes of one reference of the post in `postAbs` (content/ is `contentDir`; the
 * project root `root` names files in messages).
 */
function judge(ref: LocalRef, postAbs: string, contentDir: string, root: string): Verdict {
  const path = decode(ref.url.split(/[?#]/, 1)[0]!);
  const postDir = dirname(postAbs);
  const target = resolve(postDir, ...path.split('/'));
  const name = relative(root, target).split(sep).join('/');
  const ext = /\.([^./]+)$/.exec(path)?.[1]?.toLowerCase() ?? '';
  const found = lstat(target);
  const what = ref.image ? 'image' : 'file';
  const inContent = (() => {
    const r = relative(contentDir, target);
    return r !== '' && !r.startsWith('..') && !isAbsolute(r);
  })();
  if (!inContent) {
    // A link that names nothing on disk is a link to the site (`../../llms.txt` from a post page).
    if (!ref.image && !found && !PUBLISHED.has(ext)) return { kind: 'skip' };
    return { kind: 'problem', severity: 'error', message: `Refused ${what} \`${ref.url}\`: it resolves to \`${name}\`, outside content/, and nothing outside content/ is ever published`, fix: 'copy the file beside the post (or into a folder below it) and refer to it as `./name.ext`, or link to it by an absolute URL' };
  }
  if (!found) {
    if (!ref.image && !PUBLISHED.has(ext) && ext !== 'svg') return { kind: 'skip' };
    return { kind: 'problem', severity: 'warning', message: `Missing ${what} \`${ref.url}\`: there is no \`${name}\`, so the page's ${ref.image ? 'image is broken' : 'link is a 404'}`, fix: `put the file at \`${name}\`, or correct the path (it is relative to the post's file)` };
  }
  const normal = posix.normalize(path);
  if (normal === '..' || normal.startsWith('../')) {
    // Up and back down into the post's own folder (`../posts/img/a.png`): the file is in
    // place, the path is not (the copy beside the page follows the path as written).
    const below = relative(postDir, target);
    if (below !== '' && !below.startsWith('..') && !isAbsolute(below)) {
      return { kind: 'problem', severity: 'warning', message: `Unpublished ${what} \`${ref.url}\`: the path goes up out of the post's folder before it comes back to \`${name}\`, and only a path that stays in the post's folder is copied next to its page`, fix: `refer to it as \`./${below.split(sep).join('/')}\`` };
    }
    return { kind: 'problem', severity: 'warning', message: `Unpublished ${what} \`${ref.url}\`: \`${name}\` is outside the post's folder, and only files beside the post or below its folder are copied next to its page`, fix: 'move the file beside the post (or into a folder below it) and refer to it as `./name.ext`' };
  }
  // Every folder on the way and the file itself: a symbolic link is never followed (posts are not read through one either).
  const segments = normal.split('/').filter((s) => s !== '' && s !== '.');
  for (let i = 1; i <= segments.length; i++) {
    const step = lstat(join(postDir, ...segments.slice(0, i)));
    if (step?.isSymbolicLink()) {
      return { kind: 'problem', severity: 'warning', message: `Unpublished ${what} \`${ref.url}\`: \`${relative(root, join(postDir, ...segments.slice(0, i))).split(sep).join('/')}\` is a symbolic link, and files are never published through a link`, fix: 'put the file itself there in place of the link (copy or move it)' };
    }
  }
  if (segments.some((s) => toFileName(s) !== s)) {
    return { kind: 'problem', severity: 'warning', message: `Unpublished ${what} \`${ref.url}\`: a name that is hidden (starts with \`.\`) or holds \`%\`, \`\\\` or a control character is never published`, fix: 'rename the file (and the reference) without them' };
  }
  if (!found.isFile()) {
    return { kind: 'problem', severity: 'warning', message: `Unpublished ${what} \`${ref.url}\`: \`${name}\` is not a file`, fix: 'refer to a file' };
  }
  if (ext === 'svg') {
    return { kind: 'problem', severity: 'warning', message: `Unpublished ${what} \`${ref.url}\`: SVG is not published, because an SVG served from the site's own origin can run script there`, fix: `convert it to .png or .webp, or host it elsewhere and use its absolute URL` };
  }
  if (!PUBLISHED.has(ext)) {
    const md = ext === 'md';
    return { kind: 'problem', severity: 'warning', message: `Unpublished ${what} \`${ref.url}\`: only ${TYPES_TEXT} files are copied beside a post, so ${ext ? `a .${ext} file` : 'a file without an extension'} is not, and the ${ref.image ? 'image is broken' : 'link is a 404'}`, fix: md ? 'to link another post, link its page (`../<slug>/`)' : `convert it to one of ${TYPES_TEXT}, or link to it by an absolute URL` };
  }
  if (found.size > MAX_LOCAL_FILE_BYTES) {
    return { kind: 'problem', severity: 'error', message: `Unexpected ${what} \`${ref.url}\` of ${megabytes(found.size)} (${found.size} bytes): a file published beside a post may be at most 10 MB (${MAX_LOCAL_FILE_BYTES} bytes)`, fix: 'make it smaller (compress or resize it), or host it elsewhere and use its absolute URL' };
  }
  return { kind: 'publish', file: { abs: join(postDir, ...segments), out: segments.join('/'), size: found.size, stamp: `${found.size}:${found.mtimeMs}:${found.ino}` } };
}

/** Where a post's file is, for the rule: its absolute path and the folders it is judged against. */
export interface PostPlace {
  post: Post;
  abs: string;
}

/** The `local-file` messages of these posts. */
export function localFileMessages(posts: Iterable<PostPlace>, contentDir: string, root: string): Message[] {
  const out: Message[] = [];
  for (const { post, abs } of posts) {
    for (const ref of post.files ?? []) {
      const verdict = judge(ref, abs, contentDir, root);
      if (verdict.kind === 'problem') out.push({ file: post.file, line: ref.line, column: ref.column, severity: verdict.severity, ruleId: LOCAL_FILE, message: verdict.message, fix: verdict.fix });
    }
  }
  return out;
}

/** The files published beside one post (each output path once). */
export function publishedFiles(post: Post, abs: string, contentDir: string, root: string): PublishedFile[] {
  const out = new Map<string, PublishedFile>();
  for (const ref of post.files ?? []) {
    const verdict = judge(ref, abs, contentDir, root);
    if (verdict.kind === 'publish' && !out.has(verdict.file.out)) out.set(verdict.file.out, verdict.file);
  }
  return [...out.values()].sort((a, b) => (a.out < b.out ? -1 : a.out > b.out ? 1 : 0));
}
