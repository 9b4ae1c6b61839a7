/**
 * Moderation (`agora comments hide|unhide|delete`): change the store under its lock,
 * then rebuild the affected pages. Works whether or not a server is running: a running
 * server notices the change on its next write and refreshes its own view.
 */
import { build, type AgoraConfig, type Comment } from '@agora/generator';
import { CommentStore } from './store/comments.ts';

export type ModerationAction = 'hide' | 'unhide' | 'delete';

export interface ModerationResult {
  comment: Comment | null;
  written: number;
}

export async function moderate(config: AgoraConfig, action: ModerationAction, id: string): Promise<ModerationResult> {
  const store = await CommentStore.open(config.dataDir);
  let target: Comment | null = null;
  await store.modify((comments) => {
    const index = comments.findIndex((c) => c.id === id);
    if (index === -1) return new Set();
    target = { ...comments[index]! };
    if (action === 'delete') comments.splice(index, 1);
    else if (action === 'hide') comments[index]!.hidden = true;
    else delete comments[index]!.hidden;
    return new Set([target.slug]);
  });
  if (!target) return { comment: null, written: 0 };
  // The build reads the store as it now is; only outputs whose bytes changed are written.
  const { result } = await build(config);
  return { comment: target, written: result.written.length };
}
