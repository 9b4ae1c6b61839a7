/**
 * `agora check`, rule `local-file`: every relative image or link in a post that names a
 * local file is judged, with its file, line, column and a fix. Found by an outside author:
 * `![architecture diagram](./diagram.png)` beside a post passed check with 0 warnings while
 * the page's image was a 404.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { symlink, writeFile } from 'node:fs/promises';
import { makeProject, postSource, REPO_ROOT } from '../helpers/project.ts';

const run = promisify(execFile);

/** A 1×1 PNG. */
export const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c4944415408d763f8cfc0000003010100c9fe92ef0000000049454e44ae426082', 'hex');

const BODY = `The conclusion first.

![architecture diagram](./diagram.png)

![nested](img/a.png) and [slides](./talk.pdf) and ![svg](logo.svg) and [notes](notes.txt)

![missing](./nope.png) and ![up](../shared.png) and ![out](../../agora.config.json) and ![link](./link.png)

[other post](../other/) and [its source](../other/post.md) and [abs](https://x.example/a.png) and [llms](../../llms.txt) and ![rooted](/logo.png) and [top](#top)

\`\`\`markdown
![in code](./code.png)
\`\`\`
`;

async function checkOutput(root: string): Promise<{ code: number; stdout: string }> {
  return run(process.execPath, [join(REPO_ROOT, 'bin', 'agora'), '--root', root, 'check']).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (e: { code: number; stdout: string }) => ({ code: e.code, stdout: e.stdout }),
  );
}

test('agora check judges the files a post refers to (local-file)', async (t) => {
  const project = await makeProject({ files: { 'content/posts/x.md': postSource({}, BODY) } });
  t.after(() => project.remove());
  const at = (p: string) => join(project.root, p);
  await writeFile(at('content/posts/diagram.png'), PNG);
  await project.write('content/posts/img/.keep', '');
  await writeFile(at('content/posts/img/a.png'), PNG);
  await writeFile(at('content/posts/talk.pdf'), '%PDF-1.4\n%%EOF\n');
  await writeFile(at('content/posts/logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
  await writeFile(at('content/posts/notes.txt'), 'notes');
  await writeFile(at('content/shared.png'), PNG);
  await writeFile(at('outside.png'), PNG);
  await symlink(at('outside.png'), at('content/posts/link.png'));
  const { code, stdout } = await checkOutput(project.root);
  const line = (pos: string) => stdout.split('\n').find((l) => l.startsWith(`content/posts/x.md:${pos} `)) ?? '';

  await t.test('should refuse a path out of content/ as an error, naming where it leads', () => {
    assert.equal(code, 1);
    assert.match(line('15:53'), /error Refused image `\.\.\/\.\.\/agora\.config\.json`: it resolves to `agora\.config\.json`, outside content\/.*\(local-file\)$/);
  });

  await t.test('should warn about a missing file, with where it was looked for', () => {
    assert.match(line('15:1'), /warning Missing image `\.\/nope\.png`: there is no `content\/posts\/nope\.png`, so the page's image is broken \(local-file\)/);
    assert.match(stdout, /fix: put the file at `content\/posts\/nope\.png`, or correct the path/);
  });

  await t.test('should say why a file that is there is not published', () => {
    assert.match(line('13:51'), /warning Unpublished image `logo\.svg`: SVG is not published, because an SVG served from the site's own origin can run script there/);
    assert.match(line('13:72'), /warning Unpublished file `notes\.txt`: only \.png, \.jpg, \.jpeg, \.gif, \.webp, \.avif, \.pdf files are copied beside a post, so a \.txt file is not/);
    assert.match(line('15:28'), /warning Unpublished image `\.\.\/shared\.png`: `content\/shared\.png` is outside the post's folder/);
    assert.match(line('15:89'), /warning Unpublished image `\.\/link\.png`: `content\/posts\/link\.png` is a symbolic link, and files are never published through a link/);
  });

  await t.test('should say nothing of the images and PDFs that are published beside the post', () => {
    for (const pos of ['11:1', '13:1', '13:26']) assert.equal(line(pos), '', pos);
  });

  await t.test('should leave links to pages, absolute and rooted URLs and code alone', () => {
    // (`../other/` names no page of this test site: rule dead-link says so, not this one.)
    const localFile = stdout.split('\n').filter((line) => line.endsWith('(local-file)')).join('\n');
    assert.match(localFile, /logo\.svg/, 'the rule spoke');
    assert.doesNotMatch(localFile, /other\/|llms\.txt|x\.example|\/logo\.png|#top|code\.png/);
  });
});

test('agora check: a link to another post file and a reference-style image (local-file)', async (t) => {
  const body = 'The conclusion first.\n\nSee [the other post](./other.md).\n\n![chart][c]\n\n[c]: ./charts/missing.png\n';
  const project = await makeProject({ files: { 'content/posts/x.md': postSource({}, body), 'content/posts/other.md': postSource({ title: 'Other' }) } });
  t.after(() => project.remove());
  const { code, stdout } = await checkOutput(project.root);
  assert.equal(code, 0, 'warnings only');
  assert.match(stdout, /content\/posts\/x\.md:11:5 warning Unpublished file `\.\/other\.md`: only .* files are copied beside a post, so a \.md file is not, and the link is a 404 \(local-file\)\n  fix: to link another post, link its page \(`\.\.\/<slug>\/`\)/);
  // Reported where the destination is written: the definition.
  assert.match(stdout, /content\/posts\/x\.md:15:1 warning Missing image `\.\/charts\/missing\.png`: there is no `content\/posts\/charts\/missing\.png`/);
});

test('agora check: a path that leaves the post\'s folder and comes back into it is named as such, with the path to write (local-file)', async (t) => {
  // `../posts/img/a.png` from content/posts/x.md is content/posts/img/a.png, below the
  // post's folder; check said that file "is outside the post's folder" and to move it
  // there, where it already was. The copy follows the path as written, so it is still not
  // published: the fix is the path.
  const project = await makeProject({ files: { 'content/posts/x.md': postSource({}, 'The conclusion first.\n\n![a](../posts/img/a.png)\n') } });
  t.after(() => project.remove());
  await project.write('content/posts/img/.keep', '');
  await writeFile(join(project.root, 'content/posts/img/a.png'), PNG);
  const { code, stdout } = await checkOutput(project.root);
  assert.equal(code, 0, 'a warning');
  assert.doesNotMatch(stdout, /is outside the post's folder/);
  assert.match(stdout, /content\/posts\/x\.md:11:1 warning Unpublished image `\.\.\/posts\/img\/a\.png`: .*`content\/posts\/img\/a\.png`.* \(local-file\)\n  fix: refer to it as `\.\/img\/a\.png`/);
});
