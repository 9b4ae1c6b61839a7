/**
 * `createDuplicateGuard`: remembers recent comments by (post, sender, body) so an
 * agent that retries a POST (a timeout, a lost answer) gets the first comment's id
 * back instead of storing the same comment twice.
 *
 * A comment being stored is known too, so the same comment sent twice at once is
 * stored once: the second waits for the first and gets its id.
 *
 * Memory only and bounded: entries expire after the window and the oldest are
 * dropped past `maxEntries`, so a restart or a flood only forgets, never refuses. One
 * process's memory: a retry sent to another writer node, or after a restart, is stored
 * again. A hidden comment's twin is another rule, kept from the store (`comments/hidden-twins.ts`).
 */
import { createHash } from 'node:crypto';

/** Options of `createDuplicateGuard`. */
export interface DuplicateGuardOptions {
  /** How long a comment is remembered (ms); 0 switches the guard off. */
  windowMs: number;
  /** Most entries kept (default 10,000). */
  maxEntries?: number;
  /** Clock (default `Date.now`). */
  now?: () => number;
}

/** The guard. */
export interface DuplicateGuard {
  /**
   * The id of the same comment stored within the window, or null. `who` is the sender:
   * the author name of an unsigned comment, the verified agent of a signed one
   * (`senderKey`), so an unsigned comment never stands in for a signed one.
   */
  check(slug: string, who: string, body: string): string | null;
  /** Remember a stored comment. */
  remember(slug: string, who: string, body: string, id: string): void;
  /**
   * The same comment is being stored right now (an agent that sent it twice at once, or
   * retried while the first was slow): resolves with its id once stored (null if it was
   * not), or undefined when none is under way.
   */
  underWay(slug: string, who: string, body: string): Promise<string | null> | undefined;
  /** This comment is being stored: call the function returned with its id once stored (null if not); it is remembered. */
  begin(slug: string, who: string, body: string): (id: string | null) => void;
}

/** What makes two comments the same one: post, sender and trimmed body (SHA-256). */
export const fingerprint = (slug: string, who: string, body: string) =>
  createHash('sha256').update(JSON.stringify([slug, who, body.trim()])).digest('base64');

/** The sender of a comment for `check`/`remember`: its verified agent's origin, else its author name. */
export function senderKey(author: string, agent: { origin: string } | null | undefined): string {
  return agent ? `\u0000agent:${agent.origin}` : author;
}

/**
 * Create a duplicate guard.
 *
 * @param options Window, size bound and clock.
 * @example
 * const duplicates = createDuplicateGuard({ windowMs: 600_000 });
 * const first = duplicates.check(slug, input.author, input.body); // answer it with 200
 * duplicates.remember(slug, input.author, input.body, comment.id); // after storing
 */
export function createDuplicateGuard(options: DuplicateGuardOptions): DuplicateGuard {
  const now = options.now ?? Date.now;
  const maxEntries = options.maxEntries ?? 10_000;
  // Insertion order is age order, so expired entries are always at the front.
  const seen = new Map<string, { id: string; at: number }>();
  const prune = () => {
    const oldest = now() - options.windowMs;
    for (const [key, entry] of seen) {
      if (entry.at > oldest && seen.size <= maxEntries) break;
      seen.delete(key);
    }
  };
  const storing = new Map<string, Promise<string | null>>();
  const remember = (key: string, id: string) => {
    seen.delete(key);
    seen.set(key, { id, at: now() });
    prune();
  };
  return {
    underWay(slug, who, body) {
      return options.windowMs > 0 ? storing.get(fingerprint(slug, who, body)) : undefined;
    },
    begin(slug, who, body) {
      if (options.windowMs <= 0) return () => {};
      const key = fingerprint(slug, who, body);
      let settle!: (id: string | null) => void;
      const stored = new Promise<string | null>((resolve) => (settle = resolve));
      storing.set(key, stored);
      let done = false;
      return (id) => {
        if (done) return;
        done = true;
        if (storing.get(key) === stored) storing.delete(key);
        if (id) remember(key, id);
        settle(id);
      };
    },
    check(slug, who, body) {
      if (options.windowMs <= 0) return null;
      prune();
      return seen.get(fingerprint(slug, who, body))?.id ?? null;
    },
    remember(slug, who, body, id) {
      if (options.windowMs > 0) remember(fingerprint(slug, who, body), id);
    },
  };
}
