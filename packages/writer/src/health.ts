/**
 * What `/api/health` reports beyond liveness: each part of the writer that is failing
 * right now (a rebuild that keeps failing, the site-wide outputs, the database), with
 * the reason and since when. Any problem makes the status `degraded`. Provider keys
 * that are not configured are listed too, without changing the status.
 */
export interface HealthProblem {
  reason: string;
  since: string;
}

/** A provider key this writer does not have (see `public-data/key-status.ts`). */
export interface MissingKey {
  provider: string;
  env: readonly string[];
  services: readonly string[];
}

export class HealthState {
  private readonly problems = new Map<string, HealthProblem>();
  /**
   * Provider keys not configured, reported as `missing_keys`. Not a problem: the entries
   * they serve say `pending_key` everywhere and answer 503 `not_configured`, which is
   * the truth, and nothing failing needs a person now; a monitor that alerts on
   * `status` should not page for a site that runs without some keys on purpose.
   */
  missingKeys: readonly MissingKey[] = [];

  /** Record (or keep) a problem of `part`. */
  set(part: string, reason: string): void {
    const since = this.problems.get(part)?.since ?? new Date().toISOString();
    this.problems.set(part, { reason, since });
  }

  clear(part: string): void {
    this.problems.delete(part);
  }

  get status(): 'ok' | 'degraded' {
    return this.problems.size === 0 ? 'ok' : 'degraded';
  }

  report(): Record<string, HealthProblem> {
    return Object.fromEntries(this.problems);
  }
}
