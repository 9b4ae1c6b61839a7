/**
 * The store's file thread (see `file-thread.ts`): appends comments to a post's file with
 * synchronous calls — read, check, add, replace durably — and answers once it is on
 * disk. Loads only the file helpers and the shape checks, not the generator.
 */
import { parentPort } from 'node:worker_threads';
import type { Comment } from '@agora/generator/types';
import { readDataFileSync, writeDataFileSync } from './data-file.ts';
import { postCommentProblem, postFileCheck, type PostCommentsFile } from './comment-shape.ts';
import { errorToWire, type WireError } from '@agora/generator/files';
import { StoreError } from '../types.ts';

export interface AppendRequest {
  seq: number;
  path: string;
  slug: string;
  comments: Comment[];
  /** What the operator should do when the post's file is broken. */
  fix: string;
}

export type AppendReply = { ready: true } | { seq: number } | { seq: number; error: WireError & { storeCode?: string } };

function append({ path, slug, comments, fix }: AppendRequest): void {
  // Checked as every read checks them: one bad comment written would make the whole post's file unreadable.
  for (const c of comments) {
    const problem = postCommentProblem(c, slug);
    if (problem) throw new Error(`Cannot store ${problem}; nothing was stored`);
  }
  const file = readDataFileSync<PostCommentsFile>(path, postFileCheck(slug), fix) ?? { slug, comments: [] };
  file.comments.push(...comments);
  writeDataFileSync(path, file);
}

parentPort?.on('message', (request: AppendRequest) => {
  let reply: AppendReply;
  try {
    append(request);
    reply = { seq: request.seq };
  } catch (error) {
    reply = { seq: request.seq, error: { ...errorToWire(error), ...(error instanceof StoreError ? { storeCode: error.code } : {}) } };
  }
  parentPort?.postMessage(reply);
});
// Loaded: the parent may let the process exit from now on (never while this thread is still loading).
parentPort?.postMessage({ ready: true } satisfies AppendReply);
