/**
 * A lowdb adapter that makes a write durable: lowdb's own JSONFile renames a temporary
 * file into place but never fsyncs, so a power cut could lose an acknowledged write.
 * This one writes a temporary file, fsyncs it, renames it, and fsyncs the folder.
 */
import { readFile } from 'node:fs/promises';
import type { Adapter } from 'lowdb';
import { writeFileAtomic } from '@agora/generator';

export class DurableJSONFile<T> implements Adapter<T> {
  constructor(readonly path: string) {}

  async read(): Promise<T | null> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    try {
      return JSON.parse(text) as T;
    } catch (error) {
      throw new Error(`Cannot read \`${this.path}\`: not valid JSON; restore it from a backup`, { cause: error });
    }
  }

  async write(data: T): Promise<void> {
    await writeFileAtomic(this.path, JSON.stringify(data), { durable: true });
  }
}
