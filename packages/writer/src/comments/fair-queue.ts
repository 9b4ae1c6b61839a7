/**
 * A fair scheduler: tasks wait in one queue per client and run round-robin across
 * clients, at most `concurrency` at a time and at most one per client at a time. So a
 * client that sends many expensive tasks takes one slot in turn, never all of them,
 * and another client's task waits for at most the tasks already running (issue 19:
 * one client never slows another).
 */

interface Waiting<T> {
  run: () => Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

export class FairQueue {
  private readonly queues = new Map<string, Waiting<unknown>[]>();
  /** Clients with a waiting task and none running, in turn order. */
  private readonly turn: string[] = [];
  private readonly running = new Set<string>();

  constructor(private readonly concurrency: number) {}

  /** Run `task` for `client` when its turn comes. */
  run<T>(client: string, task: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let queue = this.queues.get(client);
      if (!queue) this.queues.set(client, (queue = []));
      queue.push({ run: task, resolve, reject } as Waiting<unknown>);
      if (!this.running.has(client) && !this.turn.includes(client)) this.turn.push(client);
      this.dispatch();
    });
  }

  /** Tasks waiting or running (for health and tests). */
  get size(): number {
    let n = this.running.size;
    for (const queue of this.queues.values()) n += queue.length;
    return n;
  }

  private dispatch(): void {
    while (this.running.size < this.concurrency && this.turn.length > 0) {
      const client = this.turn.shift()!;
      const queue = this.queues.get(client)!;
      const task = queue.shift()!;
      this.running.add(client);
      task.run().then(task.resolve, task.reject).finally(() => {
        this.running.delete(client);
        // Back of the line when done: clients that waited meanwhile go first.
        if (queue.length > 0) this.turn.push(client);
        else this.queues.delete(client);
        this.dispatch();
      });
    }
  }
}
