/**
 * Writes a killed process cut short in `dist/`. Every file is replaced atomically (a
 * temporary `.name.<pid>.<n>.tmp` beside it, then a rename), so a kill never leaves a
 * half-written page, but it can leave the hidden temporary file, which a generic
 * upload (`aws s3 sync`, `rsync`) would publish. Finding them means walking all of
 * `dist/`, so it happens only when a write was interrupted: a full build holds a marker
 * (`manifest.json.writing-<pid>` beside the manifest) while it writes, and a marker of a
 * process that is gone, or the manifest's own crash marker (a writer killed between a
 * rebuild and its save), makes the next full build sweep `dist/` once.
 */
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { isProcessAlive, removeStaleTemps } from '../atomic-write.ts';
import type { Manifest } from './manifest.ts';

const MARKER = /^manifest\.json\.writing-(\d+)$/;

/**
 * Sweep `dist/` if a write was interrupted, then mark this process as writing. Returns
 * the temporary files removed and the call that ends the mark (after the build's
 * writes, whether they succeeded or not).
 */
export async function startWriting(manifest: Pick<Manifest, 'path' | 'distDir' | 'lost'>): Promise<{ swept: number; done: () => Promise<void> }> {
  if (!manifest.path) return { swept: 0, done: async () => {} };
  const cacheDir = dirname(manifest.path);
  const names = await readdir(cacheDir).catch(() => [] as string[]);
  const dead = names.filter((name) => {
    const pid = MARKER.exec(name)?.[1];
    return pid !== undefined && Number(pid) !== process.pid && !isProcessAlive(Number(pid));
  });
  let swept = 0;
  if (dead.length > 0 || manifest.lost === 'crash marker') {
    swept = await removeStaleTemps(manifest.distDir, { recursive: true });
    await Promise.all(dead.map((name) => rm(join(cacheDir, name), { force: true })));
  }
  const marker = join(cacheDir, `${basename(manifest.path)}.writing-${process.pid}`);
  // Not fsynced: a lost marker costs hidden leftovers, never a wrong page.
  await mkdir(cacheDir, { recursive: true });
  await writeFile(marker, String(process.pid));
  return { swept, done: () => rm(marker, { force: true }) };
}
