/**
 * Web Bot Auth state of the embedded store. Blocks live in `data/agents.json`
 * (`{"blocks": [...]}`), written by `agora agents block|unblock` under the store lock
 * and re-read by the writer when the file's stamp changes, so a block applies to the
 * next request (as tokens do). Nonces are kept in the writer's memory and in an
 * append-only journal, `data/agent-nonces.jsonl`, synced before a nonce is accepted:
 * a restart (a SIGKILL included) reads back the live ones, so a captured signature
 * cannot be replayed against the restarted writer. A nonce is only kept until its
 * signature expires (at most `MAX_SIGNATURE_LIFETIME_S` plus the clock skew), bounded
 * by `maxNonces`; the journal is rewritten with the live ones when it grows long.
 */
import { open, readFile, stat, type FileHandle } from 'node:fs/promises';
import { writeFileAtomic } from '@agora/generator';
import { StoreError, type AgentBlock, type AgentStore } from '../types.ts';
import { isPlainObject, readDataFile, writeDataFile } from './data-file.ts';
import type { FileMutex } from './os-lock.ts';

interface AgentsFile {
  blocks: AgentBlock[];
}

const FIX = 'Restore it from a backup, or move it away and block the agents again with `agora agents block`';

const check = (value: unknown): string | null => {
  if (!isPlainObject(value) || !Array.isArray(value.blocks)) return 'expected {"blocks": [...]}';
  for (const b of value.blocks) {
    if (!isPlainObject(b) || (b.kind !== 'origin' && b.kind !== 'key') || typeof b.value !== 'string' || typeof b.created_at !== 'string') return 'a block lacks `kind` (origin or key), `value` or `created_at`';
  }
  return null;
};

/** Nonces held in memory: a replay within the window is refused, expired ones are dropped. */
export class MemoryNonces {
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly maxNonces = 100_000,
    private readonly now: () => number = Date.now,
  ) {}

  claim(key: string, expiresAt: Date): boolean {
    const now = this.now();
    const known = this.seen.get(key);
    if (known !== undefined && known > now) return false;
    if (this.seen.size >= this.maxNonces) for (const [k, until] of this.seen) if (until <= now) this.seen.delete(k);
    // Full of live nonces: refusing is safe, forgetting one would let it be replayed.
    if (this.seen.size >= this.maxNonces) throw new StoreError('unavailable', `more than ${this.maxNonces} signed requests within their signatures' lifetime; try again shortly`);
    this.seen.set(key, expiresAt.getTime());
    return true;
  }

  /** The nonces not expired yet, with when each expires (ms). */
  live(): [string, number][] {
    const now = this.now();
    return [...this.seen].filter(([, until]) => until > now);
  }
}

/** Lines a nonce journal may reach before it is rewritten with the live nonces only. */
const JOURNAL_COMPACT_AT = 20_000;

/** Nonces in memory and in a journal synced before each is accepted (survives a restart). */
export class JournaledNonces {
  private readonly memory: MemoryNonces;
  private handle: FileHandle | null = null;
  private lines = 0;
  /** The journal ends in a line a crash cut: the next append starts a new line. */
  private torn = false;
  private queue: Promise<unknown> = Promise.resolve();
  private loaded: Promise<void> | null = null;

  constructor(
    readonly path: string,
    private readonly now: () => number = Date.now,
    maxNonces = 100_000,
    private readonly compactAt = JOURNAL_COMPACT_AT,
  ) {
    this.memory = new MemoryNonces(maxNonces, now);
  }

  /** Record `key` until `expiresAt` durably; false when it is a replay. */
  claim(key: string, expiresAt: Date): Promise<boolean> {
    const run = this.queue.then(async () => {
      await (this.loaded ??= this.load());
      if (!this.memory.claim(key, expiresAt)) return false;
      if (++this.lines > this.compactAt) await this.compact();
      else {
        this.handle ??= await open(this.path, 'a');
        await this.handle.write(`${this.torn ? '\n' : ''}${JSON.stringify({ k: key, until: expiresAt.getTime() })}\n`);
        this.torn = false;
        await this.handle.datasync();
      }
      return true;
    });
    this.queue = run.catch(() => {});
    return run;
  }

  /** Read back the live nonces (a torn last line of a crash was never accepted: skipped). */
  private async load(): Promise<void> {
    const text = await readFile(this.path, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return '';
      throw error;
    });
    this.torn = text.length > 0 && !text.endsWith('\n');
    const now = this.now();
    for (const line of text.split('\n')) {
      if (line === '') continue;
      this.lines++;
      try {
        const { k, until } = JSON.parse(line) as { k: unknown; until: unknown };
        if (typeof k === 'string' && typeof until === 'number' && until > now) this.memory.claim(k, new Date(until));
      } catch {
        // A line cut by a crash: its request was never answered.
      }
    }
  }

  /** Rewrite the journal with the live nonces only. */
  private async compact(): Promise<void> {
    await this.handle?.close();
    this.handle = null;
    const live = this.memory.live();
    await writeFileAtomic(this.path, live.map(([k, until]) => `${JSON.stringify({ k, until })}\n`).join(''), { durable: true });
    this.lines = live.length;
    this.torn = false;
  }

  async close(): Promise<void> {
    await this.queue;
    await this.handle?.close();
    this.handle = null;
  }
}

export class EmbeddedAgents implements AgentStore {
  private cached: { stamp: string; blocks: AgentBlock[] } | null = null;
  private readonly nonces: JournaledNonces;

  constructor(
    readonly path: string,
    private readonly mutex: FileMutex,
    noncePath = path.replace(/agents\.json$/, 'agent-nonces.jsonl'),
  ) {
    this.nonces = new JournaledNonces(noncePath);
  }

  /** Close the nonce journal. */
  close(): Promise<void> {
    return this.nonces.close();
  }

  private async stamp(): Promise<string> {
    return stat(this.path).then((s) => `${s.ino}:${s.size}:${s.mtimeMs}`, () => 'missing');
  }

  async claimNonce(key: string, expiresAt: Date): Promise<boolean> {
    return this.nonces.claim(key, expiresAt);
  }

  async blocks(): Promise<AgentBlock[]> {
    const stamp = await this.stamp();
    if (this.cached?.stamp !== stamp) {
      const file = await readDataFile<AgentsFile>(this.path, check, FIX);
      this.cached = { stamp, blocks: file?.blocks ?? [] };
    }
    return this.cached.blocks.map((b) => ({ ...b }));
  }

  block(block: AgentBlock): Promise<boolean> {
    return this.mutex.run(async () => {
      const blocks = await this.blocks();
      if (blocks.some((b) => b.kind === block.kind && b.value === block.value)) return false;
      await writeDataFile(this.path, { blocks: [...blocks, block] }, true);
      return true;
    });
  }

  unblock(kind: AgentBlock['kind'], value: string): Promise<boolean> {
    return this.mutex.run(async () => {
      const blocks = await this.blocks();
      const rest = blocks.filter((b) => !(b.kind === kind && b.value === value));
      if (rest.length === blocks.length) return false;
      await writeDataFile(this.path, { blocks: rest }, true);
      return true;
    });
  }
}
