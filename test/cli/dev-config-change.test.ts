/**
 * `agora dev` and `agora.config.json`: an edit of the file changed nothing and said
 * nothing, an invalid key too (which `agora check` refused). Now dev says whether the
 * file is valid and that a restart applies it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeProject, postSource } from '../helpers/project.ts';
import { startDev } from '../helpers/dev-process.ts';

test('agora dev says an edit of agora.config.json needs a restart, and when it is not valid', { timeout: 120_000 }, async (t) => {
  const project = await makeProject({ files: { 'content/posts/2025-05-01-one.md': postSource({ date: '2025-05-01' }), 'agora.config.json': JSON.stringify({ title: 'Before' }) } });
  const dev = startDev(project);
  t.after(async () => {
    await dev.stop();
    await project.remove();
  });
  await dev.url();
  await writeFile(join(project.root, 'agora.config.json'), JSON.stringify({ titel: 'Typo' }));
  await dev.until('the invalid edit said', () => /agora\.config\.json changed and is not valid, so a restart would stop: .*titel/.test(dev.stderr()), 15_000);
  await writeFile(join(project.root, 'agora.config.json'), JSON.stringify({ title: 'After' }));
  await dev.until('the valid edit said', () => /agora\.config\.json changed; restart `agora dev` to apply it/.test(dev.stderr()), 15_000);
  // Put back as the run started with it (an undo): it had said to restart still.
  await writeFile(join(project.root, 'agora.config.json'), JSON.stringify({ title: 'Before' }, null, 2));
  await dev.until('the undo said', () => /agora\.config\.json is as this run started with it again; nothing to restart/.test(dev.stderr()), 15_000);
});
