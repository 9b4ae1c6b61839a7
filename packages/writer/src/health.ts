/**
 * What `/api/health` reports beyond liveness: each part of the writer that is failing
 * right now (a rebuild that keeps failing, the site-wide outputs, the database), with
 * the reason and since when. Any problem makes the status `degraded`.
 */
export interface HealthProblem {
  reason: string;
  since: string;
}

export class HealthState {
  private readonly problems = new Map<string, HealthProblem>();

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
