/**
 * The change journal of an embedded store (`data/changes.jsonl`): a CLI command that
 * changes comments while a writer runs (moderation, import) appends the slugs it
 * touched, under the store lock (the whole file's or the post's); the writer tails the file (one `stat` every
 * `pollMs`) and rebuilds those posts. The per-post files stay the truth: the journal
 * only says where to look, and the writer empties it at start, after which it reads
 * the files anyway.
 */
import { open, stat, truncate } from 'node:fs/promises';

export class ChangeJournal {
  constructor(readonly path: string) {}

  /** Record that these posts' comments changed (call under the store lock). */
  async append(slugs: Iterable<string>): Promise<void> {
    const list = [...new Set(slugs)];
    if (list.length === 0) return;
    const handle = await open(this.path, 'a');
    try {
      await handle.write(`${JSON.stringify({ at: new Date().toISOString(), slugs: list })}\n`);
    } finally {
      await handle.close();
    }
  }

  /** Empty the journal (the writer, under the store lock, before reading the store). */
  async reset(): Promise<void> {
    await truncate(this.path, 0).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }

  /** Call `onChange` with the slugs of every entry appended from now on. Returns the stop function. */
  follow(onChange: (slugs: Set<string>) => void, pollMs = 500): () => void {
    let offset = 0;
    let busy = false;
    const poll = async () => {
      const size = await stat(this.path).then((s) => s.size, () => 0);
      if (size < offset) offset = 0;
      if (size === offset) return;
      const handle = await open(this.path, 'r');
      try {
        const buffer = Buffer.alloc(size - offset);
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset);
        const text = buffer.subarray(0, bytesRead).toString('utf8');
        // Only whole lines: a line being appended right now is read next time.
        const end = text.lastIndexOf('\n');
        if (end === -1) return;
        offset += Buffer.byteLength(text.slice(0, end + 1));
        const slugs = new Set<string>();
        for (const line of text.slice(0, end).split('\n')) {
          try {
            const entry = JSON.parse(line) as { slugs?: unknown };
            if (Array.isArray(entry.slugs)) for (const s of entry.slugs) if (typeof s === 'string') slugs.add(s);
          } catch {
            // A torn line from a crashed command: the files are the truth; skip it.
          }
        }
        if (slugs.size > 0) onChange(slugs);
      } finally {
        await handle.close();
      }
    };
    const timer = setInterval(() => {
      if (busy) return;
      busy = true;
      poll().catch(() => {}).finally(() => (busy = false));
    }, pollMs);
    timer.unref();
    return () => clearInterval(timer);
  }
}
