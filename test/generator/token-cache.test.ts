/**
 * Token counts kept between processes (`emit/token-cache.ts`): a build in a new process,
 * or a writer catching up after a restart, takes the counts of unchanged texts from
 * `.cache/token-counts.json` instead of counting every post again (~2 s at 10,000 posts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { build, countTextTokens } from '@agora/generator';
import { TokenCache } from '../../packages/generator/src/emit/token-cache.ts';
import { makeProject } from '../helpers/project.ts';

const sha1 = (text: string) => createHash('sha1').update(text).digest('base64');

interface CacheFile {
  encoding: string;
  counts: Record<string, number>;
}

async function tempDir(t: { after(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'agora-tokens-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

test('counts are saved, and read back instead of being counted again', async (t) => {
  const dir = await tempDir(t);
  const text = 'Tokens of a post, counted once. 한국어 문장도 있다.';
  const first = await TokenCache.open(dir);
  assert.equal(first.count(text), countTextTokens(text));
  await first.save();
  const file = JSON.parse(await readFile(join(dir, 'token-counts.json'), 'utf8')) as CacheFile;
  assert.deepEqual(file, { encoding: 'o200k_base', counts: { [sha1(text)]: countTextTokens(text) } });
  // A count that only the file can know proves the file is what answers.
  await writeFile(join(dir, 'token-counts.json'), JSON.stringify({ encoding: 'o200k_base', counts: { [sha1(text)]: 4242 } }));
  assert.equal((await TokenCache.open(dir)).count(text), 4242);
  // Another encoding's counts, or a broken file, are not trusted.
  await writeFile(join(dir, 'token-counts.json'), JSON.stringify({ encoding: 'cl100k_base', counts: { [sha1(text)]: 4242 } }));
  assert.equal((await TokenCache.open(dir)).count(text), countTextTokens(text));
  await writeFile(join(dir, 'token-counts.json'), '{"encoding":"o200k_base","counts":{"');
  assert.equal((await TokenCache.open(dir)).count(text), countTextTokens(text));
});

test('a save with nothing newly counted writes nothing; the least recently asked go first past the limit', async (t) => {
  const dir = await tempDir(t);
  const texts = ['one', 'two', 'three', 'four', 'five'].map((w) => `The word ${w}.`);
  const cache = await TokenCache.open(dir, 3);
  for (const text of texts) cache.count(text);
  cache.count(texts[0]!); // asked again: now the most recent
  await cache.save();
  const kept = Object.keys((JSON.parse(await readFile(join(dir, 'token-counts.json'), 'utf8')) as CacheFile).counts);
  assert.deepEqual(kept, [texts[3], texts[4], texts[0]].map((x) => sha1(x!)), 'oldest first, the three most recently asked');
  await rm(join(dir, 'token-counts.json'));
  const reopened = await TokenCache.open(dir, 3);
  await reopened.save();
  assert.deepEqual(await readdir(dir), [], 'nothing counted, nothing written');
});

test('a new build takes llms.txt counts from .cache/, and the file follows the posts', async (t) => {
  const project = await makeProject({ samplePosts: true });
  t.after(() => project.remove());
  await build(project.config);
  const path = join(project.config.cacheDir, 'token-counts.json');
  const file = JSON.parse(await readFile(path, 'utf8')) as CacheFile;
  const posts = (await readdir(join(project.root, 'content', 'posts'))).filter((f) => f.endsWith('.md')).sort();
  const [kept, edited] = posts as [string, string];
  const keptSource = await readFile(join(project.root, 'content', 'posts', kept), 'utf8');
  assert.equal(file.counts[sha1(keptSource)], countTextTokens(keptSource), 'each post source is counted in the file');
  // A count only the file knows: a build that counted again would print the true one.
  file.counts[sha1(keptSource)] = 424242;
  await writeFile(path, JSON.stringify(file));
  // Editing another post makes llms.txt again.
  const editedPath = join(project.root, 'content', 'posts', edited);
  const editedSource = `${await readFile(editedPath, 'utf8')}\nOne more line, so llms.txt is made again.\n`;
  await writeFile(editedPath, editedSource);
  await build(project.config);
  const llms = await readFile(join(project.config.distDir, 'llms.txt'), 'utf8');
  assert.match(llms, /\(424,242 tokens\)/, 'the unchanged post count came from the file');
  assert.match(llms, new RegExp(`\\(${countTextTokens(editedSource).toLocaleString('en-US')} tokens\\)`), 'the edited post was counted');
  const after = JSON.parse(await readFile(path, 'utf8')) as CacheFile;
  assert.equal(after.counts[sha1(editedSource)], countTextTokens(editedSource), 'the new count is saved');
});
