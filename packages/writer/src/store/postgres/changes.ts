/**
 * The comment change feed between writer nodes.
 *
 * Every comment write records the slugs it touched in `comment_changes`, in the same
 * transaction, and sends `NOTIFY agora_comments` with `{node, changes: [[seq, slug]…]}`
 * (split to stay under PostgreSQL's 8000-byte payload limit). Notifications are the fast
 * path; the table is the truth: a node reads it after every (re)connect of its LISTEN
 * connection and every few seconds, so a notification lost while it was disconnected
 * never leaves it stale.
 *
 * Sequence numbers are taken at INSERT but become visible at COMMIT, so a row can appear
 * below a `seq` already read. The catch-up read therefore also takes every row written in
 * the last `window` before the previous read, and skips the seqs it has already seen.
 * Rows are written as the last statement of their transaction, so `window` only has to
 * cover the time from that statement to COMMIT.
 */
import type pg from 'pg';

/** The NOTIFY channel. */
export const CHANNEL = 'agora_comments';

/** Room left for the JSON envelope under PostgreSQL's 8000-byte payload limit. */
const PAYLOAD_BYTES = 7000;

/** A notification payload. */
export interface ChangeNotice {
  node: string;
  changes: [seq: number, slug: string][];
}

/**
 * Record that `slugs` changed, and notify the other nodes at COMMIT. Call as the last
 * statement of the write's transaction.
 *
 * @param client The client inside the write's transaction.
 * @param slugs Slugs the write touched.
 * @param node This process's node id (so it can skip its own writes).
 */
export async function recordChanges(client: pg.PoolClient, slugs: Iterable<string>, node: string): Promise<void> {
  const list = [...new Set(slugs)];
  if (list.length === 0) return;
  const { rows } = await client.query<{ seq: string; slug: string }>(
    'INSERT INTO comment_changes (slug, node) SELECT unnest($1::text[]), $2 RETURNING seq, slug',
    [list, node],
  );
  const payloads: string[] = [];
  let changes: ChangeNotice['changes'] = [];
  let bytes = 0;
  for (const row of rows) {
    const entry: [number, string] = [Number(row.seq), row.slug];
    const size = Buffer.byteLength(JSON.stringify(entry)) + 1;
    // A slug too long for any payload is left to the catch-up reads.
    if (size > PAYLOAD_BYTES) continue;
    if (bytes + size > PAYLOAD_BYTES && changes.length > 0) {
      payloads.push(JSON.stringify({ node, changes } satisfies ChangeNotice));
      changes = [];
      bytes = 0;
    }
    changes.push(entry);
    bytes += size;
  }
  payloads.push(JSON.stringify({ node, changes } satisfies ChangeNotice));
  await client.query('SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p', [CHANNEL, payloads]);
}

/**
 * Parse a notification payload; null when it is not ours (someone else's NOTIFY on the channel).
 *
 * @param payload The raw payload.
 */
export function parseNotice(payload: string | undefined): ChangeNotice | null {
  try {
    const value = JSON.parse(payload ?? '') as Partial<ChangeNotice>;
    if (typeof value.node !== 'string' || !Array.isArray(value.changes)) return null;
    const changes = value.changes.filter((c): c is [number, string] => Array.isArray(c) && typeof c[0] === 'number' && typeof c[1] === 'string');
    return { node: value.node, changes };
  } catch {
    return null;
  }
}
