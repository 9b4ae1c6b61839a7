/**
 * Writes a killed process cut short in `dist/` (and `.cache/`). Every file is replaced atomically (a
 * temporary `.name.<pid>.<n>.tmp` beside it, then a rename), so a kill never leaves a
 * half-written page, but it can leave the hidden temporary file, which a generic
 * upload (`aws s3 sync`, `rsync`) would publish. Finding them means walking all of
 * `dist/`, so it happens only when a write was interrupted: a full build holds a marker
 * (`manifest.json.writing-<pid>` beside the manifest) while it writes, and a marker of a
 * process that is gone, or the manifest's own crash marker (a writer killed between a
 * rebuild and its save), makes the next full build sweep `dist/` once.
 */
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isDiskFull, isProcessAlive, removeStaleTemps } from '../atomic-write.ts';
import type { Manifest } from './manifest.ts';

/** A writing marker beside the manifest (`manifest.json`), named by its process. */
const MARKER = /^manifest\.json\.writing-(\d+)$/;

/**
 * Sweep `dist/` if a write was interrupted, then mark this process as writing. Returns
 * the call that ends the mark (after the build's writes, whether they succeeded or not).
 */
export async function startWriting(manifest: Pick<Manifest, 'path' | 'distDir' | 'lost'>): Promise<{ done: () => Promise<void> }> {
  if (!manifest.path) return { done: async () => {} };
  const cacheDir = dirname(manifest.path);
  // Markers of processes that are gone (this process's own is never left: see `done`).
  const dead = (await readdir(cacheDir).catch(() => [] as string[])).filter((name) => {
    const pid = MARKER.exec(name)?.[1];
    return pid !== undefined && !isProcessAlive(Number(pid));
  });
  if (dead.length > 0 || manifest.lost === 'crash marker') {
    await removeStaleTemps(manifest.distDir, { recursive: true });
    // And beside the manifest: a save cut short leaves a temporary file as big as the
    // manifest (`.manifest.json.<pid>.<n>.tmp`, ~19 MB at 10,000 posts), one per crash.
    // (`.cache/render/` sweeps its own when the render cache opens.)
    await removeStaleTemps(cacheDir);
    await Promise.all(dead.map((name) => rm(join(cacheDir, name), { force: true })));
  }
  const own = join(cacheDir, `manifest.json.writing-${process.pid}`);
  // Not fsynced: a lost marker costs hidden leftovers, never a wrong page.
  try {
    await mkdir(cacheDir, { recursive: true });
    await writeFile(own, String(process.pid));
  } catch (error) {
    // A full cache disk: the same as a lost marker.
    if (!isDiskFull(error)) throw error;
  }
  return { done: () => rm(own, { force: true }) };
}
