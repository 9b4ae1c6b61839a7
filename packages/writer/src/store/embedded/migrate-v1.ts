/**
 * Migration from the first store layout (one `data/comments.json` holding every
 * comment) to one file per post. Run at start, under the store lock:
 *
 * 1. read and check `comments.json` (a wrong shape stops here, nothing changed);
 * 2. write every post's file into `data/comments.migrating/`, fsynced, with a marker
 *    naming the SHA-256 of the source;
 * 3. read the staged files back and compare count and ids with the source;
 * 4. rename the staging folder to `data/comments/`, then `comments.json` to
 *    `comments.json.v1-backup` (kept, never deleted).
 *
 * A failure before step 4 removes the staging folder and leaves `comments.json` as it
 * was. A crash between the two renames is finished on the next start (the marker
 * matches the source).
 */
import { createHash } from 'node:crypto';
import { access, mkdir, open, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { syncDir, type Comment } from '@agora/generator';
import { StoreError } from '../types.ts';
import { commentProblem } from './comment-shape.ts';
import { EmbeddedComments } from './comments.ts';
import { isPlainObject, toStoreError } from './data-file.ts';
import type { FileMutex } from './os-lock.ts';

export const V1_FILE = 'comments.json';
export const V1_BACKUP = 'comments.json.v1-backup';
const MARKER = '.migrated-from-v1';

const exists = (path: string) => access(path).then(() => true, () => false);

/** What the migration did, for the start-up log. */
export interface MigrationReport {
  comments: number;
  posts: number;
  backup: string;
}

/** Migrate `dataDir/comments.json` if it is there; null when there was nothing to do. */
export async function migrateV1(dataDir: string, commentsDir: string, mutex: FileMutex): Promise<MigrationReport | null> {
  const source = join(dataDir, V1_FILE);
  if (!(await exists(source))) return null;
  return mutex.run(async () => {
    if (!(await exists(source))) return null;
    const bytes = await readFile(source);
    const sha = createHash('sha256').update(bytes).digest('hex');
    const backup = join(dataDir, V1_BACKUP);
    if (await exists(commentsDir)) {
      const marker = await readFile(join(commentsDir, MARKER), 'utf8').catch(() => '');
      if (marker.trim() !== sha) {
        throw new StoreError('corrupt', `Cannot start: both \`${source}\` (the old single-file store) and \`${commentsDir}\` exist, and the folder was not made from that file. Move \`${V1_FILE}\` away, then bring its comments in with \`agora comments import\` (convert with \`agora comments export\` on a copy), or remove the folder to migrate again.`);
      }
      await rename(source, backup);
      await syncDir(dataDir);
      return { comments: -1, posts: -1, backup };
    }
    const comments = parseV1(source, bytes);
    const staging = `${commentsDir}.migrating`;
    await rm(staging, { recursive: true, force: true });
    try {
      await mkdir(staging, { recursive: true });
      const bySlug = new Map<string, Comment[]>();
      for (const c of comments) (bySlug.get(c.slug) ?? bySlug.set(c.slug, []).get(c.slug)!).push(c);
      const staged = new EmbeddedComments(staging, mutex, null);
      for (const [slug, list] of bySlug) await writeFile(staged.fileOf(slug), `${JSON.stringify({ slug, comments: list })}\n`);
      await writeFile(join(staging, MARKER), `${sha}\n`);
      await syncEach(staging);
      // Verify by reading back through the store's own reader.
      const ids = new Set<string>();
      for await (const list of staged.scan()) for (const c of list) ids.add(c.id);
      const missing = comments.filter((c) => !ids.has(c.id));
      if (ids.size !== comments.length || missing.length > 0) {
        throw new StoreError('corrupt', `Cannot migrate \`${source}\`: read back ${ids.size} comments of ${comments.length}${missing[0] ? ` (missing \`${missing[0].id}\`)` : ''}; nothing was changed`);
      }
      await rename(staging, commentsDir);
      await syncDir(dirname(commentsDir));
    } catch (error) {
      await rm(staging, { recursive: true, force: true }).catch(() => {});
      throw toStoreError(error, staging);
    }
    await rename(source, backup);
    await syncDir(dataDir);
    return { comments: comments.length, posts: new Set(comments.map((c) => c.slug)).size, backup };
  });
}

function parseV1(path: string, bytes: Buffer): Comment[] {
  const fail = (problem: string) =>
    new StoreError('corrupt', `Cannot migrate \`${path}\`: ${problem}. Nothing was changed; restore the file from a backup, or move it away to start without those comments`);
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw fail(`not valid JSON (${(error as Error).message})`);
  }
  if (!isPlainObject(value) || !Array.isArray(value.comments)) throw fail('expected {"comments": [...]}');
  const ids = new Set<string>();
  for (const c of value.comments) {
    const problem = commentProblem(c);
    if (problem) throw fail(problem);
    if (ids.has((c as Comment).id)) throw fail(`comment id \`${(c as Comment).id}\` appears twice`);
    ids.add((c as Comment).id);
  }
  return value.comments as Comment[];
}

async function syncEach(dir: string): Promise<void> {
  for (const name of await readdir(dir)) {
    const handle = await open(join(dir, name), 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }
  await syncDir(dir);
}
