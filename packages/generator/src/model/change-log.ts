/**
 * Which posts' comment lists and view counts changed, in order. A site model's
 * `comments` and `views` maps (`buildSiteModel`) are `LoggedMap`s that note every slug
 * set or deleted in one shared log, so a list job's kept key (`job-keys.ts`) takes in
 * the posts changed since it was made instead of comparing all its members at every
 * flush (30–45 ms per flush at 10,000 posts). A model built another way has no log,
 * and its keys compare every member as before.
 */

/** Entries kept; a key that fell further behind compares all its members once. */
const LOG_MAX = 50_000;

export class ChangeLog {
  /** The number of the first slug still in `slugs` (the ones before were let go). */
  start = 0;
  readonly slugs: string[] = [];

  /** The number the next change gets. */
  get end(): number {
    return this.start + this.slugs.length;
  }

  note(slug: string): void {
    this.slugs.push(slug);
    if (this.slugs.length > LOG_MAX) {
      const drop = this.slugs.length - LOG_MAX / 2;
      this.slugs.splice(0, drop);
      this.start += drop;
    }
  }

  /** The slugs changed from change number `seen` on; null when some of them were let go. */
  since(seen: number): readonly string[] | null {
    return seen < this.start ? null : this.slugs.slice(seen - this.start);
  }
}

/** A map by slug that notes every slug set or deleted in `log` (none while `log` is null). */
export class LoggedMap<V> extends Map<string, V> {
  // Private: two models with the same entries are equal (tests compare them deeply).
  #log: ChangeLog | null = null;

  get log(): ChangeLog | null {
    return this.#log;
  }

  set log(log: ChangeLog | null) {
    this.#log = log;
  }

  override set(slug: string, value: V): this {
    this.#log?.note(slug);
    return super.set(slug, value);
  }

  override delete(slug: string): boolean {
    this.#log?.note(slug);
    return super.delete(slug);
  }

  override clear(): void {
    if (this.#log) for (const slug of this.keys()) this.#log.note(slug);
    super.clear();
  }
}

/** The log both of a model's maps write to; null when they have none (a model built by hand). */
export function changeLogOf(site: { comments: Map<string, unknown>; views: Map<string, unknown> }): ChangeLog | null {
  const { comments, views } = site;
  return comments instanceof LoggedMap && views instanceof LoggedMap && comments.log !== null && comments.log === views.log ? comments.log : null;
}
