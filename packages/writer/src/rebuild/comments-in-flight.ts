/**
 * Comments being answered, and the site-wide flush's way of giving way to them. A
 * comment's way to its 201 is a dozen steps (render, store, three files), each waiting
 * for a turn of the main thread; between two of its slices the flush waits while one
 * is under way, so those steps run one after another instead of each waiting for a
 * slice. It waits at most `maxMs` at a time, and not at all under a flood (more than
 * `upTo` under way: there is always one, and waiting would stall `/api/posts`; a
 * comment's time is then its wait in line anyway).
 */
export class CommentsInFlight {
  private count = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly maxMs = 40,
    private readonly upTo = 4,
  ) {}

  /** A comment is being answered: call the function returned when it is (twice is harmless). */
  begin(): () => void {
    this.count++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      if (--this.count === 0) for (const wake of this.waiting.splice(0)) wake();
    };
  }

  /** How many are under way. */
  get size(): number {
    return this.count;
  }

  /** Resolves once none is under way, after `maxMs` at most; at once with none or more than `upTo`. */
  readonly giveWay = (): Promise<void> => {
    if (this.count === 0 || this.count > this.upTo) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, this.maxMs);
      this.waiting.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  };
}
