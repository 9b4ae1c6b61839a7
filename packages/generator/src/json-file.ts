/** Read a JSON file the build keeps for itself (manifest, render cache). */
import { readFile } from 'node:fs/promises';

/** A file's text; null when it does not exist. */
export async function readTextIfExists(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Read a JSON file; null when it does not exist, a clear error when it is not JSON. */
export async function readJsonFile<T>(path: string): Promise<T | null> {
  const text = await readTextIfExists(path);
  if (text === null) return null;
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw new Error(`Cannot read \`${path}\`: not valid JSON (${(error as Error).message}); delete it to rebuild it`, { cause: error });
  }
}
