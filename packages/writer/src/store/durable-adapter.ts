/**
 * A lowdb adapter that makes a write durable and a read strict: lowdb's own JSONFile
 * renames a temporary file into place but never fsyncs, and takes any JSON as data.
 * This one writes a temporary file, fsyncs it, renames it, fsyncs the folder, and on
 * read refuses a file of the wrong shape (see `embedded/data-file.ts`).
 */
import type { Adapter } from 'lowdb';
import { readDataFile, writeDataFile, type ShapeCheck } from './embedded/data-file.ts';

export class DurableJSONFile<T> implements Adapter<T> {
  constructor(
    readonly path: string,
    private readonly check: ShapeCheck,
    private readonly fix: string,
  ) {}

  read(): Promise<T | null> {
    return readDataFile<T>(this.path, this.check, this.fix);
  }

  write(data: T): Promise<void> {
    return writeDataFile(this.path, data);
  }
}
