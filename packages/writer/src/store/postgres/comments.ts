/**
 * Comments in PostgreSQL. Concurrent `add`s are group-committed: one multi-row INSERT
 * per batch in one transaction, each caller resolved after COMMIT. Every write records
 * its slugs in the change feed in the same transaction, so other nodes learn of it
 * exactly when it becomes visible.
 */
import type pg from 'pg';
import type { Comment } from '@agora/generator';
import { StoreError, type CommentChange, type CommentRenderingUpdate, type CommentStore, type ImportResult } from '../types.ts';
import { recordChanges } from './changes.ts';
import { COMMENT_COLUMNS, INSERT_COMMENTS, commentColumns, toComment, type CommentRow } from './comment-rows.ts';
import { query, transaction } from './pool.ts';

/** Longest wait for the read-back of a write whose answer was lost. */
const READ_BACK_MS = 2000;

/** Most comments in one group commit or one import statement. */
const BATCH = 500;

interface Pending {
  comment: Comment;
  resolve: () => void;
  reject: (error: unknown) => void;
}

type Apply = (client: pg.PoolClient, id: string, change: CommentChange) => Promise<unknown>;

/** One statement per moderation action. */
const APPLY: { [A in CommentChange['action']]: Apply } = {
  // Hiding again without a reason keeps the reason given before.
  hide: (client, id, change) => client.query('UPDATE comments SET hidden = true, hidden_reason = coalesce($2, hidden_reason) WHERE id = $1', [id, change.action === 'hide' && change.reason ? change.reason : null]),
  unhide: (client, id) => client.query('UPDATE comments SET hidden = false, hidden_reason = NULL WHERE id = $1', [id]),
  delete: (client, id) => client.query('DELETE FROM comments WHERE id = $1', [id]),
};

export class PostgresCommentStore implements CommentStore {
  private pending: Pending[] = [];
  private flushing: Promise<void> | null = null;

  /**
   * @param pool The store's pool.
   * @param node This store's node id, written with every change-feed row.
   */
  constructor(
    private readonly pool: pg.Pool,
    private readonly node: string,
  ) {}

  add(comment: Comment): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ comment, resolve, reject });
      this.flushing ??= this.flushLoop();
    });
  }

  /** Resolves once every `add` made so far has settled. */
  async drain(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  private async flushLoop(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, BATCH);
      try {
        await this.insert(batch.map((p) => p.comment));
        for (const p of batch) p.resolve();
      } catch (error) {
        // A bad comment (duplicate id, broken field) must not fail the others of its batch.
        if (batch.length > 1 && !(error instanceof StoreError)) await this.insertOneByOne(batch);
        else for (const p of batch) p.reject(error);
      }
    }
    this.flushing = null;
  }

  private async insertOneByOne(batch: Pending[]): Promise<void> {
    for (const p of batch) {
      try {
        await this.insert([p.comment]);
        p.resolve();
      } catch (error) {
        p.reject(error);
      }
    }
  }

  private async insert(comments: Comment[]): Promise<void> {
    try {
      await transaction(this.pool, 'store a comment', async (client) => {
        await client.query(INSERT_COMMENTS, commentColumns(comments));
        await recordChanges(client, comments.map((c) => c.slug), this.node);
      });
    } catch (error) {
      // Only a failure once the COMMIT was sent can hide a stored comment (a server down at
      // BEGIN or during the INSERT stored nothing, as its 503 says).
      if (!(error instanceof StoreError && error.code === 'unavailable' && (error.cause as { duringCommit?: boolean } | undefined)?.duringCommit)) throw error;
      // The connection may have failed after the server took the COMMIT: the rows are then
      // stored, and answering 503 "nothing was stored" made the client send a second copy,
      // while this node never showed the first (it skips its own change-feed rows). Asked
      // on another connection: stored means stored.
      const ids = comments.map((c) => c.id);
      // At most 2 s more: a database cut off does not answer this either.
      const found = await Promise.race([
        query<{ n: number }>(this.pool, 'check whether a comment was stored', 'SELECT count(*)::int AS n FROM comments WHERE id = ANY($1)', [ids]).then(
          ({ rows }) => rows[0]?.n ?? 0,
          () => null,
        ),
        new Promise<null>((resolve) => setTimeout(resolve, READ_BACK_MS, null).unref()),
      ]);
      if (found === ids.length) return;
      if (found === null) throw new StoreError('unavailable', `${error.message} (whether it was stored could not be read back)`, { cause: error, outcome: 'unknown' });
      throw error;
    }
  }

  async forSlug(slug: string): Promise<Comment[]> {
    const { rows } = await query<CommentRow>(this.pool, 'read comments', `SELECT ${COMMENT_COLUMNS} FROM comments WHERE slug = $1 ORDER BY created_at, id`, [slug]);
    return rows.map(toComment);
  }

  async get(id: string): Promise<Comment | null> {
    const { rows } = await query<CommentRow>(this.pool, 'read a comment', `SELECT ${COMMENT_COLUMNS} FROM comments WHERE id = $1`, [id]);
    return rows[0] ? toComment(rows[0]) : null;
  }

  /** Pages of `BATCH` rows in (slug, created_at, id) order, each read after the last row of the previous one (keyset). */
  async *scan(): AsyncIterable<Comment[]> {
    let after: CommentRow | undefined;
    for (;;) {
      const { rows }: pg.QueryResult<CommentRow> = after
        ? await query<CommentRow>(this.pool, 'read comments', `SELECT ${COMMENT_COLUMNS} FROM comments WHERE (slug, created_at, id) > ($1, $2, $3) ORDER BY slug, created_at, id LIMIT ${BATCH}`, [after.slug, after.created_at, after.id])
        : await query<CommentRow>(this.pool, 'read comments', `SELECT ${COMMENT_COLUMNS} FROM comments ORDER BY slug, created_at, id LIMIT ${BATCH}`);
      if (rows.length > 0) yield rows.map(toComment);
      if (rows.length < BATCH) return;
      after = rows[rows.length - 1];
    }
  }

  async count(): Promise<number> {
    const { rows } = await query<{ n: number }>(this.pool, 'count comments', 'SELECT count(*)::int AS n FROM comments');
    return rows[0]?.n ?? 0;
  }

  change(id: string, change: CommentChange): Promise<Comment | null> {
    return transaction(this.pool, `${change.action} comment \`${id}\``, async (client) => {
      const { rows } = await client.query<CommentRow>(`SELECT ${COMMENT_COLUMNS} FROM comments WHERE id = $1 FOR UPDATE`, [id]);
      const before = rows[0];
      if (!before) return null;
      await APPLY[change.action](client, id, change);
      await recordChanges(client, [before.slug], this.node);
      return toComment(before);
    });
  }

  async setRenderings(renderings: readonly CommentRenderingUpdate[]): Promise<number> {
    if (renderings.length === 0) return 0;
    // Only where the body is still the one rendered (a moderator may have changed the row meanwhile).
    const { rowCount } = await query(this.pool, 'store comment renderings', `
      UPDATE comments SET html = r.html, html_key = r.html_key
      FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS r(id, body, html, html_key)
      WHERE comments.id = r.id AND comments.body = r.body`,
    [renderings.map((r) => r.id), renderings.map((r) => r.body), renderings.map((r) => r.html), renderings.map((r) => r.html_key)]);
    return rowCount ?? 0;
  }

  importMany(comments: readonly Comment[]): Promise<ImportResult> {
    return transaction(this.pool, 'import comments', async (client) => {
      const slugs = new Set<string>();
      let added = 0;
      for (let start = 0; start < comments.length; start += BATCH) {
        const chunk = comments.slice(start, start + BATCH);
        const { rows } = await client.query<{ slug: string }>(`${INSERT_COMMENTS} ON CONFLICT (id) DO NOTHING RETURNING slug`, commentColumns(chunk)).catch((error: unknown) => {
          throw importError(error, start, chunk.length);
        });
        added += rows.length;
        for (const row of rows) slugs.add(row.slug);
      }
      await recordChanges(client, slugs, this.node);
      return { added, existing: comments.length - added, slugs };
    });
  }
}

/** A constraint violation names the rows it came from; connection failures pass through. */
function importError(error: unknown, start: number, length: number): unknown {
  const code = (error as { code?: string }).code;
  if (!code?.startsWith('23')) return error;
  const detail = (error as { detail?: string }).detail;
  return new Error(`Cannot import comments ${start + 1}–${start + length}: ${(error as Error).message}${detail ? ` (${detail})` : ''}; nothing was imported, fix those comments and import again`, { cause: error });
}
