/**
 * Comments of the embedded store: one lowdb file per post, `data/comments/<slug file
 * name>.json` (`{"slug", "comments": [...]}`). A new comment rewrites only its post's
 * file, so a write costs what that post holds, never what the whole store holds.
 *
 * - Concurrent adds are group-committed per post: the comments of a post waiting when
 *   its commit starts are written together, under that post's lock (`runFor`), while
 *   other posts commit side by side; each caller's promise settles when its own post's
 *   file is durable (a failing or slow post never fails or holds another). The file
 *   work of an add runs on one of the store's file threads (`file-thread.ts`), one round trip.
 * - Every write re-reads the post's file under the lock, so a moderator's change made
 *   by another process a moment before is never overwritten.
 * - Nothing is cached here: the writer's site model holds the visible comments once.
 */
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Low } from 'lowdb';
import { toFileName, syncDir, writeFileAtomic, type Comment } from '@agora/generator';
import { DurableJSONFile } from '../durable-adapter.ts';
import { StoreError, type CommentChange, type CommentRenderingUpdate, type CommentStore, type ImportResult } from '../types.ts';
import { commentProblem, postFileCheck, type PostCommentsFile } from './comment-shape.ts';
import { readDataFile, toStoreError } from './data-file.ts';
import type { FileMutex } from './os-lock.ts';
import type { ChangeJournal } from './change-journal.ts';
import { FileThreads } from './file-thread.ts';

const FIX = 'Restore it from a backup (`agora comments import` of an export), or move it away to drop that post\'s comments';

/** Oldest first: created_at, then id. */
export const byCreated = (a: Comment, b: Comment): number =>
  a.created_at !== b.created_at ? (a.created_at < b.created_at ? -1 : 1) : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/** Files read at once by `scan`. */
const SCAN_AHEAD = 32;

interface Pending {
  comment: Comment;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class EmbeddedComments implements CommentStore {
  /** Comments waiting for their post's next commit, by slug. */
  private readonly pending = new Map<string, Pending[]>();
  /** The commit loop of each post with comments waiting or being written. */
  private readonly committing = new Map<string, Promise<void>>();
  private dirMade: Promise<unknown> | null = null;
  /** Where new comments are appended to their post's file (one round trip each). */
  private readonly files = new FileThreads();

  constructor(
    readonly dir: string,
    private readonly mutex: FileMutex,
    /** Where CLI commands announce their changes to a running writer (null in the writer). */
    private readonly journal: ChangeJournal | null,
  ) {}

  /** Load the file threads now (the writer: its first comment does not wait for them; they stop after a calm spell). */
  startThreads(): void {
    this.files.start();
  }

  /** Stop the file threads (after the adds under way). */
  close(): Promise<void> {
    return this.files.close();
  }

  fileOf(slug: string): string {
    return join(this.dir, `${toFileName(slug)}.json`);
  }

  private db(slug: string): Low<PostCommentsFile> {
    return new Low<PostCommentsFile>(new DurableJSONFile(this.fileOf(slug), postFileCheck(slug), FIX), { slug, comments: [] });
  }

  add(comment: Comment): Promise<void> {
    return new Promise((resolve, reject) => {
      const { slug } = comment;
      let waiting = this.pending.get(slug);
      if (!waiting) this.pending.set(slug, (waiting = []));
      waiting.push({ comment, resolve, reject });
      if (!this.committing.has(slug)) this.committing.set(slug, this.commitLoop(slug));
    });
  }

  /** Write the waiting comments of one post, batch after batch, until none are left. */
  private async commitLoop(slug: string): Promise<void> {
    for (let batch = this.take(slug); batch.length > 0; batch = this.take(slug)) {
      try {
        await this.mutex.runFor(slug, async () => {
          await (this.dirMade ??= mkdir(this.dir, { recursive: true }).catch((error: unknown) => {
            this.dirMade = null;
            throw error;
          }));
          await this.files.appendComments(this.fileOf(slug), slug, batch.map((p) => p.comment), FIX);
        });
        for (const p of batch) p.resolve();
      } catch (error) {
        // Nothing of this batch was written (the lock, the read or the write failed).
        for (const p of batch) p.reject(toStoreError(error, this.fileOf(slug)));
      }
    }
    this.committing.delete(slug);
  }

  private take(slug: string): Pending[] {
    const batch = this.pending.get(slug) ?? [];
    this.pending.delete(slug);
    return batch;
  }

  async forSlug(slug: string): Promise<Comment[]> {
    const file = await readDataFile<PostCommentsFile>(this.fileOf(slug), postFileCheck(slug), FIX);
    return (file?.comments ?? []).sort(byCreated);
  }

  async get(id: string): Promise<Comment | null> {
    for await (const list of this.scan()) {
      const found = list.find((c) => c.id === id);
      if (found) return found;
    }
    return null;
  }

  async *scan(): AsyncIterable<Comment[]> {
    let names: string[];
    try {
      names = (await readdir(this.dir)).filter((n) => n.endsWith('.json') && !n.startsWith('.')).sort();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    // Read ahead a few files at a time: a big site has thousands, and the disk works in parallel.
    const read = (name: string) =>
      readDataFile<PostCommentsFile>(join(this.dir, name), (v) => {
        const slug = (v as { slug?: unknown } | null)?.slug;
        if (typeof slug !== 'string') return 'expected {"slug": "…", "comments": [...]}';
        if (`${toFileName(slug)}.json` !== name) return `the file holds the comments of \`${slug}\`, which belong in \`${toFileName(slug)}.json\``;
        return postFileCheck(slug)(v);
      }, FIX);
    for (let i = 0; i < names.length; i += SCAN_AHEAD) {
      const files = await Promise.all(names.slice(i, i + SCAN_AHEAD).map(read));
      for (const file of files) if (file && file.comments.length > 0) yield file.comments.sort(byCreated);
    }
  }

  async count(): Promise<number> {
    let n = 0;
    for await (const list of this.scan()) n += list.length;
    return n;
  }

  async change(id: string, change: CommentChange): Promise<Comment | null> {
    // Found without the lock (files are replaced whole, so every read is whole), then
    // changed under its post's lock only: the search reads every post's file, and under
    // the whole lock it held every other post's comments for that long.
    const found = await this.get(id);
    if (!found) return null;
    return this.mutex.runFor(found.slug, async () => {
      const db = this.db(found.slug);
      await db.read();
      const index = db.data.comments.findIndex((c) => c.id === id);
      if (index === -1) return null;
      const before = { ...db.data.comments[index]! };
      // Announced before it is written, under the post's lock: a command killed between the
      // two leaves a change the writer finds unchanged, never a write it is not told of (the
      // writer reads a journal entry's posts only once their locks are free: `index.ts`).
      await this.announce([found.slug]);
      if (change.action === 'delete') db.data.comments.splice(index, 1);
      else if (change.action === 'hide') db.data.comments[index] = { ...before, hidden: true, ...(change.reason ? { hidden_reason: change.reason } : {}) };
      else {
        const { hidden: _h, hidden_reason: _r, ...rest } = before;
        db.data.comments[index] = rest;
      }
      try {
        await db.write();
      } catch (error) {
        throw toStoreError(error, db.adapter instanceof DurableJSONFile ? db.adapter.path : this.dir);
      }
      return before;
    });
  }

  /** Tell a running writer these posts change (a full disk here is the store's error: nothing was changed). */
  private async announce(slugs: Iterable<string>): Promise<void> {
    try {
      await this.journal?.append(slugs);
    } catch (error) {
      throw toStoreError(error, this.journal!.path);
    }
  }

  async setRenderings(renderings: readonly CommentRenderingUpdate[]): Promise<number> {
    if (renderings.length === 0) return 0;
    const bySlug = new Map<string, CommentRenderingUpdate[]>();
    for (const r of renderings) (bySlug.get(r.slug) ?? bySlug.set(r.slug, []).get(r.slug)!).push(r);
    let stored = 0;
    await Promise.all([...bySlug].map(([slug, list]) => this.mutex.runFor(slug, async () => {
        const db = this.db(slug);
        await db.read();
        const byId = new Map(list.map((r) => [r.id, r]));
        let changed = false;
        db.data.comments = db.data.comments.map((c) => {
          const r = byId.get(c.id);
          // Only where the body is still the one rendered (edited meanwhile: rendered again later).
          if (!r || r.body !== c.body || (c.html === r.html && c.html_key === r.html_key)) return c;
          changed = true;
          stored++;
          return { ...c, html: r.html, html_key: r.html_key };
        });
        if (!changed) return;
        try {
          await db.write();
        } catch (error) {
          throw toStoreError(error, this.fileOf(slug));
        }
    })));
    return stored;
  }

  /**
   * Store many comments: every new file is written and fsynced first, then renamed
   * into place, so a failure before the renames stores nothing. (A crash during the
   * renames leaves some posts imported; importing again completes it, by id.)
   */
  async importMany(comments: readonly Comment[]): Promise<ImportResult> {
    // All or nothing: a record the store could not read back is refused before any write.
    for (const c of comments) {
      const problem = commentProblem(c);
      if (problem || c.id === '') throw new StoreError('corrupt', `Cannot import: ${problem ?? 'a comment has an empty id'}; nothing was imported`);
    }
    return this.mutex.run(async () => {
      const known = new Set<string>();
      for await (const list of this.scan()) for (const c of list) known.add(c.id);
      const bySlug = new Map<string, Comment[]>();
      let existing = 0;
      for (const c of comments) {
        if (known.has(c.id)) {
          existing++;
          continue;
        }
        known.add(c.id);
        (bySlug.get(c.slug) ?? bySlug.set(c.slug, []).get(c.slug)!).push(c);
      }
      await mkdir(this.dir, { recursive: true });
      const staged: [string, string][] = [];
      try {
        for (const [slug, added] of bySlug) {
          const current = await this.forSlug(slug);
          // Named as \`tempPathFor\` names them (\`.<name>.<pid>.<n>.tmp\`): a killed import's
          // staged copies are removed by the writer's store when it opens, as other
          // killed writes' are (\`.import-<pid>-<n>.json.tmp\` stayed for good).
          const tmp = join(this.dir, `.import-${staged.length}.json.${process.pid}.${staged.length}.tmp`);
          staged.push([tmp, this.fileOf(slug)]);
          await writeFileAtomic(tmp, `${JSON.stringify({ slug, comments: [...current, ...added] })}\n`, { durable: true });
        }
      } catch (error) {
        await Promise.all(staged.map(([tmp]) => rm(tmp, { force: true })));
        throw toStoreError(error, this.dir);
      }
      // Announced before the files are swapped in, under the whole lock (as `change`).
      await this.announce(bySlug.keys()).catch(async (error: unknown) => {
        await Promise.all(staged.map(([tmp]) => rm(tmp, { force: true })));
        throw error;
      });
      for (const [tmp, path] of staged) await rename(tmp, path);
      await syncDir(this.dir);
      return { added: comments.length - existing, existing, slugs: new Set(bySlug.keys()) };
    });
  }
}
