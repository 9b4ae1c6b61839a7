/**
 * A file published beside a post (`content/posts/x.md` refers to `./diagram.png`) is
 * served by the writer (`agora serve` / `agora start`) at `/{category}/x/diagram.png`, where
 * both the page and its `post.md` resolve the reference, with its content type.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { mkdir, writeFile } from 'node:fs/promises';
import { startTestServer } from '../helpers/server.ts';
import { makeProject, postSource } from '../helpers/project.ts';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c4944415408d763f8cfc0000003010100c9fe92ef0000000049454e44ae426082', 'hex');

test('the writer serves the files beside a post with their content types', async (t) => {
  const project = await makeProject({ files: { 'content/posts/x.md': postSource({}, 'The conclusion first.\n\n![architecture diagram](./diagram.png) and [slides](./docs/talk.pdf)\n') } });
  await writeFile(join(project.root, 'content/posts/diagram.png'), PNG);
  await mkdir(join(project.root, 'content/posts/docs'));
  await writeFile(join(project.root, 'content/posts/docs/talk.pdf'), '%PDF-1.4\n%%EOF\n');
  const server = await startTestServer(project);
  t.after(async () => {
    await server.close();
    await project.remove();
  });
  for (const from of ['/guide/x/', '/guide/x/post.md']) {
    const image = await fetch(new URL('./diagram.png', `${server.url}${from}`));
    assert.equal(image.status, 200, from);
    assert.equal(image.headers.get('content-type'), 'image/png');
    assert.equal(image.headers.get('x-content-type-options'), 'nosniff');
    assert.deepEqual(Buffer.from(await image.arrayBuffer()), PNG);
  }
  const pdf = await fetch(`${server.url}/guide/x/docs/talk.pdf`);
  assert.equal(pdf.status, 200);
  assert.equal(pdf.headers.get('content-type'), 'application/pdf');
  assert.match(await (await fetch(`${server.url}/guide/x/`)).text(), /<img src="\.\/diagram\.png" alt="architecture diagram">/);
});
