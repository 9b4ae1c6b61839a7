/**
 * Files beside a post are published (job `post-files`): `![diagram](./diagram.png)` in
 * `content/posts/x.md` is at `/{category}/x/diagram.png`, where the page and its `post.md`
 * ask for it. Found by an outside author test: images beside a post were never copied,
 * and nothing warned. Incremental: an unchanged file is not written again, an edited one
 * is, and one no post refers to any more (or whose post is gone) leaves dist/.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { mkdir, readFile, rm, stat, symlink, truncate, utimes, writeFile } from 'node:fs/promises';
import { build, check, ContentError, watch } from '@agora/generator';
import { makeProject, postSource } from '../helpers/project.ts';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c4944415408d763f8cfc0000003010100c9fe92ef0000000049454e44ae426082', 'hex');
const PNG2 = Buffer.concat([PNG, Buffer.from('second version')]);

const BODY = `The conclusion first.

![architecture diagram](./diagram.png) and ![nested](img/a%20b.png) and [slides](talk.pdf)

![svg](./logo.svg) and ![linked](./linked/c.png) and ![hidden](./.secret.png) and [notes](./notes.txt)
`;

const exists = (path: string) => stat(path).then(() => true, () => false);

test('files beside a post are published into its folder', async (t) => {
  const project = await makeProject({ files: { 'content/posts/x.md': postSource({}, BODY), 'content/posts/other.md': postSource({ title: 'Other' }, 'The conclusion first.\n\n![same name](./diagram.png)\n') } });
  t.after(() => project.remove());
  const content = (p: string) => join(project.root, 'content', 'posts', p);
  const dist = (p: string) => join(project.config.distDir, 'guide', p);
  await writeFile(content('diagram.png'), PNG);
  await mkdir(content('img'));
  await writeFile(content('img/a b.png'), PNG);
  await writeFile(content('talk.pdf'), '%PDF-1.4\n%%EOF\n');
  await writeFile(content('logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
  await writeFile(content('.secret.png'), PNG);
  await writeFile(content('notes.txt'), 'notes');
  await mkdir(join(project.root, 'elsewhere'));
  await writeFile(join(project.root, 'elsewhere', 'c.png'), PNG);
  await symlink(join(project.root, 'elsewhere'), content('linked'));

  const first = await build(project.config);
  await first.state.close();

  await t.test('should copy images and PDFs at the same relative path, for each post that refers to them', async () => {
    assert.deepEqual(await readFile(dist('x/diagram.png')), PNG);
    assert.deepEqual(await readFile(dist('x/img/a b.png')), PNG);
    assert.equal(await readFile(dist('x/talk.pdf'), 'utf8'), '%PDF-1.4\n%%EOF\n');
    assert.deepEqual(await readFile(dist('other/diagram.png')), PNG);
    // The page and post.md refer to them relatively: both are in this folder.
    assert.match(await readFile(dist('x/index.html'), 'utf8'), /<img src="\.\/diagram\.png" alt="architecture diagram">/);
  });

  await t.test('should publish no SVG, nothing through a symbolic link, no hidden file and no other type', async () => {
    for (const p of ['x/logo.svg', 'x/linked/c.png', 'x/linked', 'x/.secret.png', 'x/notes.txt']) assert.equal(await exists(dist(p)), false, p);
    const kinds = first.result.messages.filter((m) => m.ruleId === 'local-file').map((m) => m.message.split(':')[0]);
    assert.deepEqual(kinds, ['Unpublished image `./logo.svg`', 'Unpublished image `./linked/c.png`', 'Unpublished image `./.secret.png`', 'Unpublished file `./notes.txt`']);
  });

  await t.test('should not write an unchanged file again, even when touched', async () => {
    const when = new Date(Date.now() + 5000);
    await utimes(content('diagram.png'), when, when);
    const again = await build(project.config);
    await again.state.close();
    assert.deepEqual(again.result.written, []);
  });

  await t.test('should copy an edited file again', async () => {
    await writeFile(content('diagram.png'), PNG2);
    const again = await build(project.config);
    await again.state.close();
    assert.deepEqual(again.result.written.sort(), ['guide/other/diagram.png', 'guide/x/diagram.png']);
    assert.deepEqual(await readFile(dist('x/diagram.png')), PNG2);
  });

  await t.test('should remove a file no post refers to any more, and the files of a deleted post', async () => {
    await project.write('content/posts/x.md', postSource({}, BODY.replace(' and [slides](talk.pdf)', '')));
    await rm(content('other.md'));
    const again = await build(project.config);
    await again.state.close();
    assert.ok(again.result.removed.includes('guide/x/talk.pdf'), again.result.removed.join(' '));
    assert.ok(again.result.removed.includes('guide/other/diagram.png'));
    assert.equal(await exists(dist('x/talk.pdf')), false);
    assert.equal(await exists(dist('other')), false);
    assert.deepEqual(await readFile(dist('x/diagram.png')), PNG2);
  });

  await t.test('should refuse a file over 10 MB in check and build, naming it', async () => {
    await truncate(content('diagram.png'), 10 * 1024 * 1024 + 1);
    const checked = await check(project.config);
    const error = checked.messages.find((m) => m.severity === 'error');
    assert.equal(error?.ruleId, 'local-file');
    assert.equal(`${error.file}:${error.line}:${error.column}`, 'content/posts/x.md:11:1');
    assert.match(error.message, /`\.\/diagram\.png` of 10\.0 MB \(10485761 bytes\): a file published beside a post may be at most 10 MB \(10485760 bytes\)/);
    await assert.rejects(build(project.config), (e: unknown) => e instanceof ContentError && e.messages.some((m) => m.severity === 'error' && m.message.includes('./diagram.png')));
    await writeFile(content('diagram.png'), PNG);
  });

  await t.test("should copy a file edited under agora dev's watcher", async () => {
    const built: string[][] = [];
    const watcher = await watch(project.config, { debounceMs: 20, onBuild: (result) => void built.push(result.written) });
    t.after(() => watcher.close());
    assert.deepEqual(await readFile(dist('x/diagram.png')), PNG);
    await writeFile(content('diagram.png'), PNG2);
    for (let i = 0; i < 200 && !built.some((w) => w.includes('guide/x/diagram.png')); i++) await new Promise((r) => setTimeout(r, 25));
    await watcher.idle();
    assert.deepEqual(await readFile(dist('x/diagram.png')), PNG2);
    // A new image beside the post, and a reference to it.
    await mkdir(content('img2'));
    await writeFile(content('img2/new.webp'), 'RIFF....WEBP');
    await project.write('content/posts/x.md', postSource({}, `${BODY}\n![new](img2/new.webp)\n`));
    for (let i = 0; i < 200 && !(await exists(dist('x/img2/new.webp'))); i++) await new Promise((r) => setTimeout(r, 25));
    await watcher.idle();
    assert.equal(await readFile(dist('x/img2/new.webp'), 'utf8'), 'RIFF....WEBP');
    await watcher.close();
  });
});
