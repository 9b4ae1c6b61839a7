/**
 * Read the writer's store files (`data/comments.json`, `data/views.json`) for a build.
 * This module fixes their format; the writer's store writes exactly this.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Comment } from '../types.ts';

/** `data/comments.json` */
export interface CommentsFile {
  comments: Comment[];
}
/** `data/views.json` */
export interface ViewsFile {
  views: Record<string, number>;
}

export const COMMENTS_FILE = 'comments.json';
export const VIEWS_FILE = 'views.json';

/** Read a JSON data file; null when it does not exist, a clear error when it is not JSON. */
export async function readJsonFile<T>(path: string): Promise<T | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw new Error(`Cannot read \`${path}\`: not valid JSON (${(error as Error).message}); restore it from a backup`, { cause: error });
  }
}

/** Comments and views as stored; missing files mean none yet. */
export async function loadStoreSnapshot(dataDir: string): Promise<{ comments: Comment[]; views: Record<string, number> }> {
  const [c, v] = await Promise.all([
    readJsonFile<CommentsFile>(join(dataDir, COMMENTS_FILE)).then((f) => f ?? { comments: [] }),
    readJsonFile<ViewsFile>(join(dataDir, VIEWS_FILE)).then((f) => f ?? { views: {} }),
  ]);
  return { comments: Array.isArray(c.comments) ? c.comments : [], views: v.views && typeof v.views === 'object' ? v.views : {} };
}
