/**
 * Untrusted names (slugs, model names) become file and folder names in `dist/`. This
 * is the one place that decides how: the name is kept as it is, except that the few
 * characters a file name cannot hold safely are percent-encoded (UTF-8):
 *
 * - `%` itself (so the encoding can be reversed),
 * - `/` and `\` (path separators),
 * - control characters U+0000–U+001F and U+007F,
 * - a leading `.` (so `.` and `..` and hidden files cannot occur).
 *
 * So `2025-01-10-nginx` stays `2025-01-10-nginx`, `Claude Opus 4.1` stays as it is, but
 * `meta/llama-3` becomes the file `meta%2Fllama-3` and `..` becomes `%2E.`. A URL path
 * segment is `encodeURIComponent(fileName)`: `/api/model/Claude%20Opus%204.1`,
 * `/api/model/meta%252Fllama-3`.
 */

const UNSAFE = /[%/\\\u0000-\u001f\u007f]|^\./gu;

/** The file name used in `dist/` for an untrusted name. */
export function toFileName(name: string): string {
  return name.replace(UNSAFE, (ch) =>
    [...Buffer.from(ch, 'utf8')].map((b) => '%' + b.toString(16).toUpperCase().padStart(2, '0')).join(''),
  );
}

/**
 * The name a `dist/` file name stands for (`toFileName` reversed); null when `fileName`
 * is not one `toFileName` makes (a stray `%`, an escape of a character it keeps).
 */
export function fromFileName(fileName: string): string | null {
  const name = fileName.replace(/%([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return toFileName(name) === fileName ? name : null;
}

/** The URL path segment for an untrusted name. */
export function toUrlSegment(name: string): string {
  return encodeURIComponent(toFileName(name));
}

/** Longest file name most file systems accept, in bytes. */
export const MAX_FILE_NAME_BYTES = 255;

/** Whether `name` makes a usable file name once encoded. */
export function isStorableName(name: string): boolean {
  return name.length > 0 && Buffer.byteLength(toFileName(name), 'utf8') <= MAX_FILE_NAME_BYTES - 16;
}

/** Key under which two names would collide on a case-insensitive, normalising file system. */
export function collisionKey(name: string): string {
  return toFileName(name).normalize('NFC').toLowerCase();
}

/** Site-relative URL of a post's page. */
export function postUrl(category: string, slug: string): string {
  return `/${category}/${toUrlSegment(slug)}/`;
}

/** dist-relative folder of a post's page. */
export function postDir(category: string, slug: string): string {
  return `${category}/${toFileName(slug)}`;
}

/**
 * The URL key of a tag name. It keeps every script (Korean stays Korean) and only folds
 * what readers treat as the same tag: Unicode NFC, lower case, runs of spaces as one
 * `-`. So `Node JS` → `node-js`, `한국어 형태소` → `한국어-형태소`.
 */
export function tagKey(name: string): string {
  return name.normalize('NFC').trim().toLowerCase().replace(/\s+/gu, '-');
}

/** Site-relative URL of a tag's page. */
export function tagUrl(key: string): string {
  return `/tags/${toUrlSegment(key)}/`;
}

/** dist-relative folder of a tag's page. */
export function tagDir(key: string): string {
  return `tags/${toFileName(key)}`;
}


/** Site-relative URL of a model's page. */
export function modelUrl(model: string): string {
  return `/models/${toUrlSegment(model)}/`;
}

/** dist-relative folder of a model's page. */
export function modelDir(model: string): string {
  return `models/${toFileName(model)}`;
}
