/**
 * `agora comments import` judges every line as POST does (issue 19): the rules, the
 * rendering-work limits, then a render whose HTML is stored with the comment, so no
 * start renders an imported comment again. Every refused line is listed; nothing is
 * imported unless `--skip-refused`. The real CLI in its own process, the real store.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { commentHtmlKey } from '@agora/generator';
import { makeProject, NO_RATE_LIMITS, REPO_ROOT } from '../helpers/project.ts';
import { postComment, startTestServer } from '../helpers/server.ts';
import { storedComments } from '../helpers/store.ts';

const run = promisify(execFile);
const AGORA = join(REPO_ROOT, 'bin', 'agora');
const SLUG = '2025-08-19-should-agents-write-tests-first';

const line = (id: string, body: string) => JSON.stringify({ id, slug: SLUG, author: `author-${id}`, model: 'gpt-5', date: '2025-11-01', type: 'supplement', position: null, body, created_at: '2025-11-01T00:00:00.000Z' });

test('agora comments import', async (t) => {
  const project = await makeProject({ samplePosts: true });
  t.after(() => project.remove());
  const file = join(project.root, 'export.jsonl');
  await writeFile(file, [
    line('good-1', 'A good *comment* to import.'),
    line('heavy', 'a\n=\n'.repeat(300)),
    line('good-2', 'Another good comment to import.'),
    line('short', 'tiny'),
    // Within every other rule, but larger than the 16 KiB a POST takes.
    line('large', 'A long comment. '.repeat(1300)),
    // Valid markdown that renders to nothing (a comment only).
    line('empty', '<!-- nothing to see here -->'),
    // From the future: POST refuses such a date, and no comment is stored before it arrives.
    JSON.stringify({ ...JSON.parse(line('future', 'A comment dated far ahead of today.')), date: '2099-01-01', created_at: '2099-01-01T00:00:00.000Z' }),
  ].join('\n'));
  const cli = (...args: string[]) => run(process.execPath, [AGORA, '--root', project.root, 'comments', 'import', file, ...args]).then(
    (r) => ({ code: 0, ...r }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );

  await t.test('should list every refused line with its reason and import nothing', async () => {
    const result = await cli();
    assert.equal(result.code, 1);
    assert.match(result.stderr, /export\.jsonl:2: `body`: body has 300 headings .*at most 100/);
    assert.match(result.stderr, /export\.jsonl:4: `body`: body must be at least 10 characters/);
    assert.match(result.stderr, /export\.jsonl:5: `body`: as a posted document this comment is \d+ bytes; POST takes at most 16384/);
    assert.match(result.stderr, /export\.jsonl:6: `body`: body shows nothing once rendered/);
    assert.match(result.stderr, /export\.jsonl:7: `created_at` 2099-01-01T00:00:00\.000Z is in the future/);
    assert.match(result.stderr, /5 lines refused; nothing was imported/);
    assert.deepEqual(await storedComments(project.config.dataDir), []);
  });

  await t.test('should import the others with --skip-refused, each stored with its rendering', async () => {
    const result = await cli('--skip-refused');
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /imported 2 comments on 1 post; 0 already stored; 5 refused/);
    const stored = await storedComments(project.config.dataDir);
    assert.deepEqual(stored.map((c) => c.id).sort(), ['good-1', 'good-2']);
    const good = stored.find((c) => c.id === 'good-1')!;
    assert.equal(good.html, '<p>A good <em>comment</em> to import.</p>');
    assert.equal(good.html_key, commentHtmlKey(good.body));
  });
});

test('export, import and list say why what they were given cannot be used, in words', async (t) => {
  const project = await makeProject({ samplePosts: true });
  t.after(() => project.remove());
  const agora = (...args: string[]) => run(process.execPath, [AGORA, '--root', project.root, 'comments', ...args]).then(
    () => ({ code: 0, stderr: '' }),
    (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
  );
  const taken = join(project.root, 'backup.jsonl');
  await writeFile(taken, 'an earlier backup\n');
  const cases: [string[], RegExp][] = [
    [['export', '--out', taken], /Cannot write the export to `.*backup\.jsonl`: it exists already .*nothing was written/],
    [['export', '--out', join(project.root, 'no-such-folder', 'x.jsonl')], /its folder `.*no-such-folder` does not exist/],
    [['import', join(project.root, 'missing.jsonl')], /Cannot import `.*missing\.jsonl`: no such file; nothing was imported/],
    [['import', project.root], /Cannot import `.*`: it is a folder, not an export/],
    [['list', '--slug', 'no-such-post'], /No post `no-such-post` and no stored comments on it/],
  ];
  for (const [args, message] of cases) {
    const result = await agora(...args);
    assert.equal(result.code, 1, args.join(' '));
    assert.match(result.stderr, message);
    assert.doesNotMatch(result.stderr, /\n\s+at |Unhandled 'error' event/, 'no stack trace');
  }
  // A pipe is a file to import from: `agora comments export | agora -C other comments import /dev/stdin`.
  // Through a shell's pipe (Node's own child stdio is a socket, which /dev/stdin cannot open).
  const piped = join(project.root, 'piped.jsonl');
  await writeFile(piped, `${line('piped-1', 'A comment that came through a pipe.')}\n`);
  const { stdout } = await run('sh', ['-c', 'cat "$1" | "$2" "$3" --root "$4" comments import /dev/stdin', 'sh', piped, process.execPath, AGORA, project.root]);
  assert.match(stdout, /imported 1 comment on 1 post/);
});

test('agora comments list piped into a reader that stops early ends quietly', { timeout: 120_000 }, async (t) => {
  const project = await makeProject({ samplePosts: true });
  t.after(() => project.remove());
  const file = join(project.root, 'many.jsonl');
  await writeFile(file, Array.from({ length: 3000 }, (_, i) => line(`many-${i}`, `Comment number ${i}, one of many to list.`)).join('\n'));
  await run(process.execPath, [AGORA, '--root', project.root, 'comments', 'import', file]);
  // More than a pipe holds: `head` closes it while agora is still writing (EPIPE).
  const { stdout, stderr } = await run('sh', ['-c', `"${process.execPath}" "${AGORA}" --root "${project.root}" comments list | head -1`]);
  assert.match(stdout, /^many-\d+ /);
  assert.equal(stderr, '', 'no stack trace');
});

test('agora comments import takes back a comment posted at the size limit (export, then import)', async (t) => {
  const project = await makeProject({ samplePosts: true });
  t.after(() => project.remove());
  // The shortest document a client sends for it is exactly 16,384 bytes, as POST allows.
  const head = '---\nauthor: author-max\nmodel: gpt-5\ntype: supplement\n---\n';
  const body = `${'word '.repeat(5000).slice(0, 16384 - Buffer.byteLength(head) - 2)}x`;
  assert.equal(Buffer.byteLength(`${head}${body}\n`), 16384);
  const file = join(project.root, 'max.jsonl');
  await writeFile(file, `${JSON.stringify({ id: 'at-the-limit', slug: SLUG, author: 'author-max', model: 'gpt-5', date: '2025-11-01', type: 'supplement', position: null, body, created_at: '2025-11-01T00:00:00.000Z' })}\n`);
  // Before: refused, "as a posted document this comment is 16405 bytes" (a date line and quotes counted).
  const result = await run(process.execPath, [AGORA, '--root', project.root, 'comments', 'import', file]);
  assert.match(result.stdout, /imported 1 comment on 1 post/);
  assert.deepEqual((await storedComments(project.config.dataDir)).map((c) => c.id), ['at-the-limit']);
});

test('agora comments export, then import, takes back a comment POSTed at the size limit without a final newline', async (t) => {
  const project = await makeProject({ samplePosts: true, files: { 'agora.config.json': NO_RATE_LIMITS } });
  const server = await startTestServer(project);
  t.after(async () => {
    await server.close();
    await project.remove();
  });
  // The document ends with its body: no line break after it, as POST allows.
  const head = '---\nauthor: author-max\nmodel: gpt-5\ntype: supplement\n---\n';
  const doc = `${head}${'word '.repeat(5000).slice(0, 16384 - Buffer.byteLength(head) - 1)}x`;
  assert.equal(Buffer.byteLength(doc), 16384);
  const res = await postComment(server.url, SLUG, doc);
  assert.equal(res.status, 201);
  const { id } = (await res.json()) as { id: string };
  const file = join(project.root, 'backup.jsonl');
  await run(process.execPath, [AGORA, '--root', project.root, 'comments', 'export', '--out', file]);
  await server.close();
  const fresh = await makeProject({ samplePosts: true });
  t.after(() => fresh.remove());
  // Before: refused, "as a posted document this comment is 16385 bytes" (a line break the POST never had).
  const result = await run(process.execPath, [AGORA, '--root', fresh.root, 'comments', 'import', file]).catch((error: { stderr: string }) => ({ stdout: '', stderr: error.stderr }));
  assert.match(result.stdout, /imported 1 comment on 1 post/, result.stderr);
  assert.deepEqual((await storedComments(fresh.config.dataDir)).map((c) => c.id), [id]);
});

test('agora comments export to a full disk leaves no partial backup behind and says so', { timeout: 180_000, skip: process.getuid?.() !== 0 ? 'needs root to mount a small tmpfs' : false }, async (t) => {
  const project = await makeProject({ samplePosts: true });
  const outDir = join(project.root, 'backups');
  const sh = (command: string, args: string[]) => new Promise<number>((r) => spawn(command, args, { stdio: 'ignore' }).once('exit', (c) => r(c ?? 1)));
  let mounted = false;
  t.after(async () => {
    if (mounted) await sh('umount', [outDir]);
    await project.remove();
  });
  const file = join(project.root, 'many.jsonl');
  await writeFile(file, Array.from({ length: 300 }, (_, i) => line(`full-${i}`, `Comment number ${i}: ${'a backup that needs more room than the disk has. '.repeat(6)}`)).join('\n'));
  await run(process.execPath, [AGORA, '--root', project.root, 'comments', 'import', file]);
  await mkdir(outDir);
  if ((await sh('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', outDir])) !== 0) return t.skip('cannot mount a tmpfs here');
  mounted = true;
  const out = join(outDir, 'backup.jsonl');
  const exportTo = () => run(process.execPath, [AGORA, '--root', project.root, 'comments', 'export', '--out', out]).then(
    (r) => ({ code: 0, ...r }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
  const full = await exportTo();
  assert.equal(full.code, 1);
  // Before: a truncated backup.jsonl was left (which the next export refused to replace:
  // "it exists already"), and the message blamed "the site's data/, dist/ or .cache/ folder".
  assert.match(full.stderr, /^agora: Cannot write the export to `.*backup\.jsonl`: the disk holding it is full.*; nothing was written$/m);
  assert.deepEqual(await readdir(outDir), [], 'no partial backup and no temporary file');
  assert.equal(await sh('mount', ['-o', 'remount,size=4m', outDir]), 0);
  const done = await exportTo();
  assert.equal(done.code, 0, done.stderr);
  assert.equal((await readFile(out, 'utf8')).trim().split('\n').length, 300);
  assert.deepEqual(await readdir(outDir), ['backup.jsonl']);
});

test('agora comments import refuses a line that is not valid UTF-8, as POST refuses such a body, instead of storing U+FFFD', async (t) => {
  const project = await makeProject({ samplePosts: true });
  t.after(() => project.remove());
  const file = join(project.root, 'export.jsonl');
  const [before, after] = line('bad-bytes', 'A comment whose body has XX two bytes that are no UTF-8.').split('XX');
  await writeFile(file, Buffer.concat([
    Buffer.from(`${line('good-1', 'A good comment before the bad line.')}\n`),
    Buffer.from(before!), Buffer.from([0xff, 0xfe]), Buffer.from(`${after}\n`),
    Buffer.from(`${line('good-2', 'A good comment with é, 한국어 and 🙂 after it.')}\n`),
  ]));
  const result = await run(process.execPath, [AGORA, '--root', project.root, 'comments', 'import', file]).then(
    (r) => ({ code: 0, ...r }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
  assert.equal(result.code, 1, result.stdout);
  assert.match(result.stderr, /export\.jsonl:2: not valid UTF-8: byte 0xFF at byte \d+ of the line/);
  assert.match(result.stderr, /1 line refused; nothing was imported/);
  assert.deepEqual(await storedComments(project.config.dataDir), []);

  const skipped = await run(process.execPath, [AGORA, '--root', project.root, 'comments', 'import', file, '--skip-refused']);
  assert.match(skipped.stdout, /imported 2 comments on 1 post; 0 already stored; 1 refused/);
  const stored = await storedComments(project.config.dataDir);
  assert.deepEqual(stored.map((c) => c.id).sort(), ['good-1', 'good-2']);
  assert.equal(stored.find((c) => c.id === 'good-2')!.body, 'A good comment with é, 한국어 and 🙂 after it.');
  assert.ok(!stored.some((c) => c.body.includes('\uFFFD')));
});

test('agora comments import takes an export saved with a byte order mark, as POST takes a document that starts with one', async (t) => {
  const project = await makeProject({ samplePosts: true });
  t.after(() => project.remove());
  const file = join(project.root, 'export.jsonl');
  // An editor on Windows saves "UTF-8" with EF BB BF first, and CRLF line ends.
  await writeFile(file, `\uFEFF${line('bom-1', 'The first line, after the byte order mark.')}\r\n${line('bom-2', 'The second line of the same export.')}\r\n`);
  const { stdout } = await run(process.execPath, [AGORA, '--root', project.root, 'comments', 'import', file]);
  assert.match(stdout, /imported 2 comments on 1 post/);
  assert.deepEqual((await storedComments(project.config.dataDir)).map((c) => c.id).sort(), ['bom-1', 'bom-2']);
});
