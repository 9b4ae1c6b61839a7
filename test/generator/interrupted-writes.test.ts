/**
 * Temporary files a killed process left in dist/ and .cache/ are swept by the next full build,
 * and only when a write was interrupted (the walk of dist/ costs a warm build time).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from '@agora/generator';
import { makeProject, postSource } from '../helpers/project.ts';

/** The id of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

test('interrupted writes in dist/', async (t) => {
  const p = await makeProject({ files: { 'content/posts/a.md': postSource({ title: 'A' }) } });
  t.after(() => p.remove());
  const { distDir, cacheDir } = p.config;
  await build(p.config);
  const dead = deadPid();
  const leftovers = [join(distDir, `.index.html.${dead}.3.tmp`), join(distDir, 'guide', 'a', `.index.html.${dead}.9.tmp`)];
  const ours = join(distDir, `.robots.txt.${process.pid}.1.tmp`);
  const plant = async () => {
    for (const file of [...leftovers, ours]) await writeFile(file, 'half');
  };
  const markers = async () => (await readdir(cacheDir)).filter((f) => f.includes('.writing-'));

  await t.test('should leave dist/ unwalked after a build that finished', async () => {
    await plant();
    await build(p.config);
    for (const file of leftovers) assert.ok(existsSync(file), `${file} untouched: no write was interrupted`);
    assert.deepEqual(await markers(), []);
  });

  await t.test('should sweep a dead writer\'s temporary files when its writing marker is left', async () => {
    await plant();
    await writeFile(join(cacheDir, `manifest.json.writing-${dead}`), String(dead));
    await build(p.config);
    for (const file of leftovers) assert.ok(!existsSync(file), `${file} swept`);
    assert.ok(existsSync(ours), 'a running process\'s temporary file is kept');
    assert.deepEqual(await markers(), []);
  });

  await t.test('should sweep after the manifest\'s crash marker (a writer killed between a rebuild and its save)', async () => {
    await plant();
    await writeFile(join(cacheDir, 'manifest.json.dirty'), String(dead));
    const { result } = await build(p.config);
    for (const file of leftovers) assert.ok(!existsSync(file), `${file} swept`);
    assert.ok(result.written.length > 0, 'the crash marker also made the build write every output again');
  });

  // Found killing a writer under comment load: four `.cache/.manifest.json.dirty.<pid>.<n>.tmp`
  // of the killed writer stayed through eight restarts and a build (a manifest save cut
  // short leaves one as big as the manifest: ~19 MB at 10,000 posts, one more per crash).
  await t.test('should sweep a dead writer\'s temporary files beside the manifest in .cache/ too', async () => {
    const inCache = [join(cacheDir, `.manifest.json.${dead}.4.tmp`), join(cacheDir, `.manifest.json.dirty.${dead}.5.tmp`), join(cacheDir, `.token-counts.json.${dead}.6.tmp`)];
    const oursInCache = join(cacheDir, `.manifest.json.${process.pid}.7.tmp`);
    for (const file of [...inCache, oursInCache]) await writeFile(file, 'half');
    await writeFile(join(cacheDir, `manifest.json.writing-${dead}`), String(dead));
    await build(p.config);
    for (const file of inCache) assert.ok(!existsSync(file), `${file} swept`);
    assert.ok(existsSync(oursInCache), 'a running process\'s temporary file is kept');
  });
});
