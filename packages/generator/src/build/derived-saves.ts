/**
 * `.cache/` holds only what a build can make again (the manifest, rendered bodies, token
 * counts, the crash markers). A full or read-only disk there must not fail a build whose
 * `dist/` is whole: the writer had exited at start when only its `.cache/` was full,
 * taking the whole site offline, reads included. Such a save becomes a warning; the next
 * build renders or writes again what it would have read.
 */
import type { Message } from '../messages.ts';
import { isDiskFull } from '../atomic-write.ts';

/**
 * Run a save of derived data; when the disk is full or read-only, resolve with the
 * warning that says so instead of failing. Any other error still fails.
 */
export async function saveDerived(what: string, save: () => Promise<unknown>): Promise<Message | null> {
  try {
    await save();
    return null;
  } catch (error) {
    if (!isDiskFull(error)) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    return { file: '.cache/', line: 1, column: 1, severity: 'warning', ruleId: 'cache-not-saved', message: `Unexpected ${code} while saving ${what} to the cache folder: the site in dist/ is whole, and the next build makes again what it would have read from there`, fix: 'free space on the disk holding the cache folder (AGORA_CACHE_DIR), or point AGORA_CACHE_DIR at a disk with room' };
  }
}
