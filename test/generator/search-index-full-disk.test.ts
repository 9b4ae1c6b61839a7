/**
 * Pagefind on a full disk: its binary panics ("No space left on device"), and its Node
 * API never settled the call under way, so the index stayed "indexing" for the
 * process's life and its temporary folder stayed in dist/ (emit/pagefind-service.ts).
 * Now the run fails: a warning, state "failed" with the error, no temporary folder.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from '@agora/generator';
import { SearchIndexer } from '../../packages/generator/src/build/search-indexer.ts';
import { makeProject } from '../helpers/project.ts';

const run = (cmd: string, args: string[]) => new Promise<number>((resolve) => execFile(cmd, args, (error) => resolve(error ? 1 : 0)));

async function sizeOf(dir: string): Promise<number> {
  let total = 0;
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) if (e.isFile()) total += (await stat(join(e.parentPath, e.name))).size;
  return total;
}

test('a search index that runs out of disk fails instead of hanging', { timeout: 120_000, skip: process.getuid?.() !== 0 ? 'needs root to mount a small tmpfs' : false }, async (t) => {
  const project = await makeProject({ samplePosts: true });
  t.after(() => project.remove());
  await build(project.config);
  const pages = (await readdir(project.config.distDir, { recursive: true })).filter((p) => /^[a-z]+\/[^/]+\/index\.html$/.test(p) && !p.startsWith('tags/') && !p.startsWith('models/'));
  assert.ok(pages.length >= 16);
  // A disk that holds the pages and little more.
  const dist = await mkdtemp(join(tmpdir(), 'agora-full-dist-'));
  let mounted = false;
  t.after(async () => {
    if (mounted) await run('umount', [dist]);
    await rm(dist, { recursive: true, force: true });
  });
  let bytes = 0;
  for (const page of pages) bytes += (await stat(join(project.config.distDir, page))).size;
  const size = Math.ceil((bytes + pages.length * 8192 + 64 * 1024) / 4096) * 4096;
  if ((await run('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dist])) !== 0) return t.skip('cannot mount a tmpfs here');
  mounted = true;
  for (const page of pages) {
    await mkdir(join(dist, page, '..'), { recursive: true });
    await cp(join(project.config.distDir, page), join(dist, page));
  }

  const indexer = new SearchIndexer(dist, true);
  indexer.note(pages, pages);
  // A timer that keeps the event loop alive, as a writer's server does (Pagefind's process is unref'd).
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([indexer.runNow(), new Promise<'hung'>((r) => (timer = setTimeout(() => r('hung'), 60_000)))]);
  clearTimeout(timer);
  if (outcome === 'hung') assert.fail(`still indexing after 60 s (${await sizeOf(dist)} of ${size} bytes used)`);
  assert.equal(outcome.messages[0]?.ruleId, 'search-index', JSON.stringify(outcome));
  assert.equal(indexer.status.state, 'failed');
  assert.match(indexer.status.error ?? '', /Pagefind/);
  assert.deepEqual((await readdir(dist)).filter((name) => name.startsWith('.pagefind')), []);
});
