/**
 * A lowdb adapter that makes a write durable: lowdb's own JSONFile renames a temporary
 * file into place but never fsyncs, so a power cut could lose an acknowledged write.
 * This one writes a temporary file, fsyncs it, renames it, and fsyncs the folder.
 */
import type { Adapter } from 'lowdb';
import { readJsonFile, writeFileAtomic } from '@agora/generator';

export class DurableJSONFile<T> implements Adapter<T> {
  constructor(readonly path: string) {}

  read(): Promise<T | null> {
    return readJsonFile<T>(this.path);
  }

  async write(data: T): Promise<void> {
    await writeFileAtomic(this.path, JSON.stringify(data), { durable: true });
  }
}
