/**
 * The comment store: lowdb over `data/comments.json` with the durable adapter.
 * Adds are group-committed: comments arriving together are appended and fsynced in
 * one write, and each caller's promise settles only once its comment is on disk. A
 * failed write removes the batch again, so nothing half-stored survives.
 * Moderation commands in another process change the same file under the same lock;
 * before each write the store reloads the file if it changed on disk.
 */
import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Low } from 'lowdb';
import { COMMENTS_FILE, type Comment, type CommentsFile } from '@agora/generator';
import { DurableJSONFile } from './durable-adapter.ts';
import { withFileLock } from './file-lock.ts';

interface Pending {
  comment: Comment;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class CommentStore {
  private readonly db: Low<CommentsFile>;
  private bySlugIndex = new Map<string, Comment[]>();
  private pending: Pending[] = [];
  private flushing: Promise<void> | null = null;
  private diskStamp = '';
  /** Called with the slugs whose comments changed on disk behind our back. */
  onExternalChange: (slugs: Set<string>) => void = () => {};

  private constructor(readonly path: string) {
    this.db = new Low<CommentsFile>(new DurableJSONFile<CommentsFile>(path), { comments: [] });
  }

  static async open(dataDir: string): Promise<CommentStore> {
    await mkdir(dataDir, { recursive: true });
    const store = new CommentStore(join(dataDir, COMMENTS_FILE));
    await store.reload();
    return store;
  }

  /** Every comment, hidden ones included, in stored order. */
  all(): readonly Comment[] {
    return this.db.data.comments;
  }

  /** Comments of one post (hidden included), in stored order. */
  forSlug(slug: string): readonly Comment[] {
    return this.bySlugIndex.get(slug) ?? [];
  }

  /** Store a comment durably; resolves once it is fsynced. */
  add(comment: Comment): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ comment, resolve, reject });
      this.flushing ??= this.flushLoop();
    });
  }

  /** Apply a change to stored comments under the lock (moderation). Returns the affected slugs. */
  async modify(change: (comments: Comment[]) => Set<string>): Promise<Set<string>> {
    return withFileLock(this.path, async () => {
      await this.reloadIfChanged();
      const before = structuredClone(this.db.data.comments);
      const slugs = change(this.db.data.comments);
      if (slugs.size === 0) return slugs;
      try {
        await this.db.write();
      } catch (error) {
        this.db.data.comments = before;
        throw error;
      } finally {
        this.reindex();
      }
      this.diskStamp = await this.stamp();
      return slugs;
    });
  }

  private async flushLoop(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      try {
        await withFileLock(this.path, async () => {
          await this.reloadIfChanged();
          const comments = this.db.data.comments;
          const length = comments.length;
          comments.push(...batch.map((p) => p.comment));
          try {
            await this.db.write();
          } catch (error) {
            comments.length = length;
            throw error;
          }
          this.diskStamp = await this.stamp();
        });
        this.reindex();
        for (const p of batch) p.resolve();
      } catch (error) {
        for (const p of batch) p.reject(error);
      }
    }
    this.flushing = null;
  }

  /**
   * Check the file every `ms` for changes made by another process (moderation), so
   * they reach the pages within about that time. Returns a stop function.
   */
  watchExternal(ms = 1000): () => void {
    const timer = setInterval(() => {
      if (this.flushing) return;
      void this.stamp().then((stamp) => {
        if (stamp !== this.diskStamp && !this.flushing) return withFileLock(this.path, () => this.reloadIfChanged(), 2000);
      }).catch(() => {});
    }, ms);
    timer.unref();
    return () => clearInterval(timer);
  }

  /** Re-read the file; reports slugs whose comments differ from memory. */
  async reload(): Promise<Set<string>> {
    const before = this.bySlugIndex;
    await this.db.read();
    if (!Array.isArray(this.db.data?.comments)) this.db.data = { comments: [] };
    this.reindex();
    this.diskStamp = await this.stamp();
    const changed = new Set<string>();
    for (const slug of new Set([...before.keys(), ...this.bySlugIndex.keys()])) {
      if (JSON.stringify(before.get(slug) ?? []) !== JSON.stringify(this.bySlugIndex.get(slug) ?? [])) changed.add(slug);
    }
    return changed;
  }

  private async reloadIfChanged(): Promise<void> {
    if ((await this.stamp()) === this.diskStamp) return;
    const changed = await this.reload();
    if (changed.size > 0) this.onExternalChange(changed);
  }

  private async stamp(): Promise<string> {
    try {
      const s = await stat(this.path);
      return `${s.ino}:${s.size}:${s.mtimeMs}`;
    } catch {
      return 'missing';
    }
  }

  private reindex(): void {
    const index = new Map<string, Comment[]>();
    for (const c of this.db.data.comments) {
      const list = index.get(c.slug);
      if (list) list.push(c);
      else index.set(c.slug, [c]);
    }
    this.bySlugIndex = index;
  }
}
