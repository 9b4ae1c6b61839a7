/**
 * Moderation (`agora comments hide|unhide|delete`) and the rebuild a CLI change needs.
 * The change goes through the store's own locking, so it is safe while a writer runs.
 * Who rebuilds the pages:
 * - a running writer on the same store (it follows the store's change feed);
 * - otherwise (embedded store, no writer) this process, with an incremental build.
 * With PostgreSQL every running node follows; this site's own `dist/`, when no writer
 * holds it (its node is down), is rebuilt by this process; other nodes that are down
 * rebuild at their start.
 */
import { build, missingSite, type AgoraConfig, type Comment } from '@agora/generator';
import { withStore } from './store/with-store.ts';
import { loadSnapshot } from './store/snapshot.ts';
import { writerIsRunning } from './store/embedded/index.ts';
import { claimDist, DistBusyError, waitForDist } from './rebuild/dist-lock.ts';
import { StoreError, type CommentChange, type Store } from './store/types.ts';

export type ModerationAction = 'hide' | 'unhide' | 'delete';

/** The shortest start of an id `agora comments hide` takes for the whole id, as git takes a commit's. */
export const MIN_ID_PREFIX = 6;

/**
 * The one comment id that begins with `given` (at least `MIN_ID_PREFIX` characters: ids
 * are long UUIDs, and the README's example `7f0c…` was read as something to type), or
 * null. Several ids beginning with it: an error listing them.
 */
async function idBeginningWith(store: Store, given: string): Promise<string | null> {
  if (given.length < MIN_ID_PREFIX) return null;
  const matches: string[] = [];
  for await (const batch of store.comments.scan()) for (const c of batch) if (c.id.startsWith(given)) matches.push(c.id);
  if (matches.length > 1) throw new Error(`The id \`${given}\` begins ${matches.length} comments' ids (${matches.slice(0, 5).join(', ')}${matches.length > 5 ? ', …' : ''}); give more of it`);
  return matches[0] ?? null;
}

/** How a change reached the pages. */
export type Publication = { by: 'writer' } | { by: 'build'; written: number };

export interface ModerationResult {
  comment: Comment | null;
  publication: Publication | null;
}

/** Make the pages show the store as it now is (see the module comment). */
export async function publish(config: AgoraConfig, store: Store): Promise<Publication> {
  if (store.engine === 'files' && (await writerIsRunning(config.dataDir))) return { by: 'writer' };
  let held;
  if (store.engine === 'files') {
    // Another command's build finishing first (`dist-lock.ts`); its reading may predate this change, so build after it.
    held = await waitForDist(config.distDir, (busy) => process.stderr.write(`agora: ${busy.message}; waiting for it to finish\n`), { timeoutMs: 120_000 });
  } else {
    // A shared database: every running node follows its changes, and this site's own
    // dist/ is this process's to rebuild only when no writer holds it (its node is down)
    // and this folder is a site at all (an operator's shell elsewhere has none to rebuild).
    if (missingSite(config)) return { by: 'writer' };
    try {
      held = await claimDist(config.distDir);
    } catch (error) {
      // Held by a writer, or not this user's to open (an operator's shell, a unit's own files): the writer's to rebuild.
      if (error instanceof DistBusyError || (error instanceof StoreError && error.code === 'unavailable')) return { by: 'writer' };
      throw error;
    }
  }
  try {
    const { result } = await build(config, { store: await loadSnapshot(store) });
    return { by: 'build', written: result.written.length };
  } finally {
    await held.release();
  }
}

export async function moderate(config: AgoraConfig, action: ModerationAction, id: string, reason?: string): Promise<ModerationResult> {
  return withStore(config, async (store) => {
    const change: CommentChange = action === 'hide' ? { action: 'hide', ...(reason ? { reason } : {}) } : action === 'unhide' ? { action: 'unhide' } : { action: 'delete' };
    let before = await store.comments.change(id, change);
    // No comment has that id: the one whose id begins with it, if one does.
    if (!before) {
      const whole = await idBeginningWith(store, id);
      if (whole) before = await store.comments.change(whole, change);
    }
    if (!before) return { comment: null, publication: null };
    return { comment: before, publication: await publish(config, store) };
  });
}
