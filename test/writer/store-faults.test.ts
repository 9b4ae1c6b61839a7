/**
 * The embedded store under the faults that happen: an old single-file store, files of
 * the wrong shape, locks left by dead processes, a second writer, a full disk, a
 * views flush that fails. Real server, real files.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { access, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeProject, REPO_ROOT, type TestProject } from '../helpers/project.ts';
import { startTestServer, commentDoc, postComment } from '../helpers/server.ts';
import { storedComments } from '../helpers/store.ts';
import { ViewCounter } from '../../packages/writer/src/views/view-counter.ts';
import type { ViewStore } from '../../packages/writer/src/store/types.ts';

const SLUG = '2025-09-14-nginx-reverse-proxy-websocket-timeouts';
const OTHER = '2025-08-19-should-agents-write-tests-first';

const oldComment = (i: number, slug = i % 2 ? SLUG : OTHER) => ({
  id: `old-${i}`, slug, author: `agent-${i}`, model: 'gpt-5', date: '2025-10-01', type: 'supplement', position: null,
  body: `Stored by the first version, number ${i}.`, created_at: `2025-10-01T00:00:${String(i % 60).padStart(2, '0')}.000Z`, ...(i === 3 ? { hidden: true } : {}),
});

async function withProject(t: { after: (fn: () => Promise<void>) => void }): Promise<TestProject> {
  const project = await makeProject({ samplePosts: true });
  t.after(() => project.remove());
  await mkdir(project.config.dataDir, { recursive: true });
  return project;
}

const exists = (path: string) => access(path).then(() => true, () => false);

test('migration from data/comments.json', { timeout: 120_000 }, async (t) => {
  await t.test('should move every comment to per-post files, keep the old file, and serve them', async (t) => {
    const project = await withProject(t);
    const comments = Array.from({ length: 40 }, (_, i) => oldComment(i));
    await writeFile(join(project.config.dataDir, 'comments.json'), JSON.stringify({ comments }));
    const server = await startTestServer(project);
    t.after(() => server.close());
    assert.ok(!(await exists(join(project.config.dataDir, 'comments.json'))));
    assert.deepEqual(JSON.parse(await readFile(join(project.config.dataDir, 'comments.json.v1-backup'), 'utf8')), { comments });
    const stored = await storedComments(project.config.dataDir);
    assert.deepEqual(stored.map((c) => c.id).sort(), comments.map((c) => c.id).sort());
    assert.equal(stored.find((c) => c.id === 'old-3')?.hidden, true);
    const list = (await (await fetch(`${server.url}/api/comments/${SLUG}`)).json()) as { id: string }[];
    assert.equal(list.length, 19, '20 on the post, one hidden');
  });

  for (const [name, text] of [['an array', '[]'], ['an empty object', '{}'], ['null', 'null'], ['comments as an object', '{"comments": {}}'], ['a comment without an id', '{"comments": [{"slug": "x"}]}'], ['truncated JSON', '{"comments": [']] as const) {
    await t.test(`should refuse to start on ${name} and change nothing`, async (t) => {
      const project = await withProject(t);
      const file = join(project.config.dataDir, 'comments.json');
      await writeFile(file, text);
      await assert.rejects(startTestServer(project), (e: Error) => e.message.includes(file) && /Nothing was changed/.test(e.message));
      assert.equal(await readFile(file, 'utf8'), text);
      assert.ok(!(await exists(join(project.config.dataDir, 'comments'))));
      assert.ok(!(await exists(join(project.config.dataDir, 'comments.migrating'))));
    });
  }
});

test('store files of the wrong shape stop the start, naming the file, and are never overwritten', { timeout: 120_000 }, async (t) => {
  const cases: [string, string, RegExp][] = [
    ['views.json', '[]', /views\.json.*expected \{"views"/],
    ['views.json', '{"views": {"a": -1}}', /views\.json.*whole number/],
    ['tokens.json', '{}', /tokens\.json.*expected \{"tokens"/],
    ['tokens.json', '{"tokens": [', /tokens\.json.*not valid JSON/],
    ['quotas.json', '{"day": "2026-11-2', /quotas\.json.*not valid JSON/],
    ['quotas.json', '{"counts": {}}', /quotas\.json.*expected \{"day"/],
    [`comments/${SLUG}.json`, 'null', /expected \{"slug"/],
    [`comments/${SLUG}.json`, `{"slug": "${OTHER}", "comments": []}`, /holds the comments of/],
    // An operator's edit that copied a comment: both would be shown and only one could be hidden.
    [`comments/${SLUG}.json`, JSON.stringify({ slug: SLUG, comments: [1, 2].map(() => ({ id: 'twice', slug: SLUG, author: 'a', model: 'm', date: '2025-11-01', type: 'supplement', position: null, body: 'A body long enough.', created_at: '2025-11-01T00:00:00.000Z' })) }), /comment id `twice` appears twice/],
  ];
  // Hand edits no POST or import could have stored: before, published as they were in the
  // page, its JSON-LD, the feeds and /api/comments (only a wrong `type` stopped the start).
  const stored = { id: 'edited', slug: SLUG, author: 'a', model: 'm', date: '2025-11-01', type: 'supplement', position: null, body: 'A body long enough.', created_at: '2025-11-01T00:00:00.000Z' };
  const edits: [Record<string, string>, RegExp][] = [
    [{ date: 'yesterday' }, /comment `edited`: `date` is no day written YYYY-MM-DD \("yesterday"\)/],
    [{ author: 'x'.repeat(300) }, /comment `edited`: `author` is longer than 100 characters/],
    [{ author: 'evil\u202egnp.exe\u001b[2J' }, /comment `edited`: `author` holds a bidirectional control \(U\+202E\)/],
    [{ model: ' ' }, /comment `edited`: `model` is empty/],
    [{ created_at: 'now' }, /comment `edited`: `created_at` is no ISO 8601 time/],
  ];
  for (const [edit, pattern] of edits) cases.push([`comments/${SLUG}.json`, JSON.stringify({ slug: SLUG, comments: [{ ...stored, ...edit }] }), pattern]);
  await t.test(`comments/${SLUG}.json: a byte that is not UTF-8 in a body`, async (t) => {
    // Before: read as text, the byte became U+FFFD, was published, and the file was written
    // back with it, the original bytes gone (found editing a file by hand while stopped).
    const project = await withProject(t);
    const path = join(project.config.dataDir, 'comments', `${SLUG}.json`);
    await mkdir(join(project.config.dataDir, 'comments'), { recursive: true });
    const json = Buffer.from(JSON.stringify({ slug: SLUG, comments: [{ ...stored, body: 'A body written by hand.' }] }));
    const at = json.indexOf('hand');
    const bytes = Buffer.concat([json.subarray(0, at + 1), Buffer.from([0xff]), json.subarray(at + 2)]);
    await writeFile(path, bytes);
    // A server that starts anyway is closed, so the assertion fails instead of the file hanging.
    await assert.rejects(startTestServer(project).then((server) => server.close()), (e: Error) => new RegExp(`Cannot read .*${SLUG}\\.json.*not valid UTF-8 \\(byte 0xFF at byte ${at + 1}\\)`).test(e.message));
    assert.deepEqual(await readFile(path), bytes);
  });
  for (const [file, text, pattern] of cases) {
    await t.test(`${file}: ${text.slice(0, 200)}`, async (t) => {
      const project = await withProject(t);
      const path = join(project.config.dataDir, file);
      await mkdir(join(project.config.dataDir, 'comments'), { recursive: true });
      await writeFile(path, text);
      await assert.rejects(startTestServer(project), (e: Error) => pattern.test(e.message) && e.message.includes('Cannot read'));
      assert.equal(await readFile(path, 'utf8'), text);
    });
  }
});

/** Run a child that takes the store's locks, then kill it with SIGKILL. */
async function killLockHolder(dataDir: string): Promise<void> {
  const script = `
    import { openEmbeddedStore } from ${JSON.stringify(join(REPO_ROOT, 'packages/writer/src/store/embedded/index.ts'))};
    import { FileMutex } from ${JSON.stringify(join(REPO_ROOT, 'packages/writer/src/store/embedded/os-lock.ts'))};
    const store = await openEmbeddedStore(${JSON.stringify(dataDir)}, 'server');
    const mutex = new FileMutex(${JSON.stringify(join(dataDir, '.store.lock'))});
    mutex.run(() => { console.log('locked'); return new Promise(() => {}); });
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=agora-source', '--input-type=module', '-e', script], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => d.toString().includes('locked') && resolve());
    child.once('exit', (code) => reject(new Error(`lock holder exited with ${code}`)));
    setTimeout(() => reject(new Error('lock holder did not take its locks within 60 s')), 60_000).unref();
  });
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}

test('locks', { timeout: 120_000 }, async (t) => {
  await t.test('should be released by the OS when their holder is killed', async (t) => {
    const project = await withProject(t);
    await killLockHolder(project.config.dataDir);
    // Both locks went with the process: the writer starts and stores at once (the old
    // pid-file lock answered 500 after a 10 s wait here).
    const server = await startTestServer(project);
    try {
      assert.equal((await postComment(server.url, SLUG, commentDoc())).status, 201);
    } finally {
      await server.close(); // before withProject's removal of the folder (after hooks run in order)
    }
  });

  await t.test('should ignore lock files left with any content (empty, pid 1)', async (t) => {
    const project = await withProject(t);
    await writeFile(join(project.config.dataDir, '.store.lock'), '');
    await writeFile(join(project.config.dataDir, '.writer.lock'), '1\n');
    await writeFile(join(project.config.dataDir, 'comments.json.lock'), '1');
    const server = await startTestServer(project);
    try {
      assert.equal((await postComment(server.url, SLUG, commentDoc())).status, 201);
    } finally {
      await server.close(); // before withProject's removal of the folder (after hooks run in order)
    }
  });

  await t.test('should refuse a second writer on the same data folder', async (t) => {
    const project = await withProject(t);
    const server = await startTestServer(project);
    try {
      await assert.rejects(startTestServer(project), /already used by another agora writer \(pid \d+\)/);
      // The first one is unharmed.
      assert.equal((await postComment(server.url, SLUG, commentDoc())).status, 201);
    } finally {
      await server.close(); // before withProject's removal of the folder (after hooks run in order)
    }
  });
});

test('a view is answered only once stored: a refused batch rejects its PUTs and counts none of them', { timeout: 120_000 }, async () => {
  let failures = 2;
  const stored = new Map<string, number>();
  const batches: number[] = [];
  const store: ViewStore = {
    load: async () => new Map(stored),
    add: async (increments) => {
      batches.push([...increments.values()].reduce((a, b) => a + b, 0));
      if (failures-- > 0) throw Object.assign(new Error('no space'), { code: 'ENOSPC' });
      for (const [slug, n] of increments) stored.set(slug, (stored.get(slug) ?? 0) + n);
      return new Map([...increments.keys()].map((s) => [s, stored.get(s)!]));
    },
  };
  const errors: number[] = [];
  const published: Map<string, number>[] = [];
  const counter = await ViewCounter.open(store, { onError: (_e, attempt) => errors.push(attempt), onFlush: (totals) => void published.push(totals) });
  // Five PUTs at once: the first is stored at once, the four that came meanwhile make the next batch; both are refused.
  const refused = await Promise.allSettled(Array.from({ length: 5 }, () => counter.count('a')));
  assert.deepEqual(refused.map((r) => r.status), Array(5).fill('rejected'));
  assert.equal(stored.get('a'), undefined);
  assert.equal(counter.get('a'), 0, 'a refused PUT is not counted');
  assert.deepEqual(errors, [1, 2]);
  // The next ones: each PUT answers its own count, stored before its answer.
  const answers = await Promise.all([counter.count('a'), counter.count('b'), counter.count('a'), counter.count('a')]);
  assert.deepEqual(answers, [1, 1, 2, 3]);
  assert.deepEqual(batches, [1, 4, 1, 3], 'the PUTs that came while a batch was stored are the next batch');
  assert.equal(stored.get('a'), 3);
  await counter.flush();
  // The first stored batch is handed to the mirrors at once, the next ones within publishMs (now: flush).
  assert.deepEqual(published, [new Map([['a', 1]]), new Map([['b', 1], ['a', 3]])]);
  counter.close();
});

test('the mirrors get stored view counts at most once per publishMs, and at once when flushed', { timeout: 30_000 }, async () => {
  const stored = new Map<string, number>();
  const store: ViewStore = {
    load: async () => new Map(stored),
    add: async (increments) => {
      for (const [slug, n] of increments) stored.set(slug, (stored.get(slug) ?? 0) + n);
      return new Map([...increments.keys()].map((s) => [s, stored.get(s)!]));
    },
  };
  const published: Map<string, number>[] = [];
  const counter = await ViewCounter.open(store, { publishMs: 600_000, onFlush: (totals) => void published.push(totals) });
  assert.equal(await counter.count('a'), 1);
  assert.equal(await counter.count('a'), 2);
  assert.equal(await counter.count('b'), 1);
  await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(published, [new Map([['a', 1]])], 'the first at once, the rest wait');
  const started = performance.now();
  await counter.flush();
  assert.ok(performance.now() - started < 1000, 'flush ends the wait');
  assert.deepEqual(published, [new Map([['a', 1]]), new Map([['a', 2], ['b', 1]])]);
  counter.close();
});

/** Grow `filler` a KB at a time until its disk is full. */
async function fillDisk(filler: string): Promise<void> {
  await writeFile(filler, Buffer.alloc(1024)).catch(() => {});
  for (let size = 1024; ; size += 1024) {
    try {
      await writeFile(filler, Buffer.alloc(size));
    } catch {
      return;
    }
  }
}

test('a full disk answers 507, keeps nothing half-written, and recovers by itself', { timeout: 120_000, skip: process.getuid?.() !== 0 ? 'needs root to mount a small tmpfs' : false }, async (t) => {
  const project = await makeProject({ samplePosts: true });
  const dataDir = join(project.root, 'small-disk');
  await mkdir(dataDir);
  const run = (command: string, args: string[]) => new Promise<number>((r) => spawn(command, args, { stdio: 'ignore' }).once('exit', (c) => r(c ?? 1)));
  if ((await run('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', dataDir])) !== 0) {
    await project.remove();
    return t.skip('cannot mount a tmpfs here');
  }
  let server: Awaited<ReturnType<typeof startTestServer>> | undefined;
  // One hook, in order: the server lets go of the disk, the disk goes, then the project.
  t.after(async () => {
    await server?.close();
    await run('umount', [dataDir]);
    await project.remove();
  });
  server = await startTestServer({ ...project, config: { ...project.config, dataDir } });
  assert.equal((await postComment(server.url, SLUG, commentDoc({ author: 'before' }))).status, 201);
  const before = await readFile(join(dataDir, 'comments', `${SLUG}.json`), 'utf8');
  // Fill the disk.
  const filler = join(dataDir, 'filler');
  await fillDisk(filler);
  const full = await postComment(server.url, SLUG, commentDoc({ author: 'while-full' }, 'x'.repeat(8000)));
  assert.equal(full.status, 507);
  const body = (await full.json()) as { error: { code: string; message: string } };
  assert.equal(body.error.code, 'storage_full');
  assert.equal(await readFile(join(dataDir, 'comments', `${SLUG}.json`), 'utf8'), before, 'the post file is unchanged');
  assert.deepEqual((await readdir(join(dataDir, 'comments'))).filter((n) => n.endsWith('.tmp')), [], 'no temporary file left');
  const degraded = (await (await fetch(`${server.url}/api/health`)).json()) as { status: string; problems?: Record<string, { reason: string }> };
  assert.equal(degraded.status, 'degraded');
  assert.match(degraded.problems?.['store']?.reason ?? '', /disk is full/);
  await rm(filler);
  const after = await postComment(server.url, SLUG, commentDoc({ author: 'after' }));
  assert.equal(after.status, 201);
  assert.deepEqual((await storedComments(dataDir)).map((c) => c.author).sort(), ['after', 'before']);
  assert.equal(((await (await fetch(`${server.url}/api/health`)).json()) as { status: string }).status, 'ok', 'a write that works clears it');

  // View PUTs are stored before their 200 too: on a full disk they are refused (507), counted nowhere, and health says so.
  const put = () => fetch(`${server!.url}/api/views/${SLUG}`, { method: 'PUT' });
  const start = ((await (await put()).json()) as { views: number }).views;
  await fillDisk(filler);
  // The journal's last page may still hold a few lines: those are stored and answered 200.
  let ok = 0;
  let refused: Response | null = null;
  for (let i = 0; i < 1000 && !refused; i++) {
    const res = await put();
    if (res.status === 200) ok++;
    else refused = res;
  }
  assert.equal(refused?.status, 507);
  assert.equal(((await refused!.json()) as { error: { code: string } }).error.code, 'storage_full');
  const viewsFull = (await (await fetch(`${server.url}/api/health`)).json()) as { status: string; problems?: Record<string, { reason: string }> };
  assert.equal(viewsFull.status, 'degraded');
  assert.match(viewsFull.problems?.['store']?.reason ?? '', /views\.journal.*disk is full/);
  await rm(filler);
  assert.equal(((await (await put()).json()) as { views: number }).views, start + ok + 1, 'the refused PUT counted nowhere');
  assert.equal(((await (await fetch(`${server.url}/api/health`)).json()) as { status: string }).status, 'ok', 'a stored view clears it');
});

test('a read-only data folder answers 503 store_unavailable (not 500), health names the store, and it recovers', { timeout: 120_000, skip: process.getuid?.() !== 0 ? 'needs root to remount a folder read-only' : false }, async (t) => {
  const project = await makeProject({ samplePosts: true });
  const dataDir = project.config.dataDir;
  await mkdir(dataDir, { recursive: true });
  const run = (command: string, args: string[]) => new Promise<number>((r) => spawn(command, args, { stdio: 'ignore' }).once('exit', (c) => r(c ?? 1)));
  const server = await startTestServer(project);
  assert.equal((await postComment(server.url, SLUG, commentDoc({ author: 'before' }))).status, 201);
  if ((await run('mount', ['--bind', dataDir, dataDir])) !== 0) {
    await server.close();
    await project.remove();
    return t.skip('cannot bind-mount here');
  }
  let mounted = true;
  t.after(async () => {
    await server.close();
    if (mounted) await run('umount', [dataDir]);
    await project.remove();
  });
  assert.equal(await run('mount', ['-o', 'remount,bind,ro', dataDir]), 0);
  const refused = await postComment(server.url, SLUG, commentDoc({ author: 'while-read-only' }));
  assert.equal(refused.status, 503);
  assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'store_unavailable');
  assert.ok(Number(refused.headers.get('retry-after')) > 0);
  const health = (await (await fetch(`${server.url}/api/health`)).json()) as { status: string; problems?: Record<string, { reason: string }> };
  assert.equal(health.status, 'degraded');
  assert.match(health.problems?.['store']?.reason ?? '', /EROFS/);
  assert.equal(await run('umount', [dataDir]), 0);
  mounted = false;
  assert.equal((await postComment(server.url, SLUG, commentDoc({ author: 'after' }))).status, 201);
  assert.deepEqual((await storedComments(dataDir)).map((c) => c.author).sort(), ['after', 'before']);
  assert.equal(((await (await fetch(`${server.url}/api/health`)).json()) as { status: string }).status, 'ok');
});

test('a writer started on a read-only data folder says so and how to fix it', { timeout: 60_000, skip: process.getuid?.() !== 0 ? 'needs root to mount a read-only tmpfs' : false }, async (t) => {
  const project = await makeProject({ samplePosts: true });
  const dataDir = project.config.dataDir;
  await mkdir(dataDir, { recursive: true });
  const run = (command: string, args: string[]) => new Promise<number>((r) => spawn(command, args, { stdio: 'ignore' }).once('exit', (c) => r(c ?? 1)));
  if ((await run('mount', ['-t', 'tmpfs', '-o', 'ro,size=64k', 'tmpfs', dataDir])) !== 0) {
    await project.remove();
    return t.skip('cannot mount a tmpfs here');
  }
  t.after(async () => {
    await run('umount', [dataDir]);
    await project.remove();
  });
  await assert.rejects(startTestServer(project), (error: Error) => {
    assert.match(error.message, /^Cannot start: the data folder `.*` is not writable \(EROFS: cannot open `.*\.writer\.lock` for writing\)\. Make it writable by this user, or give this process another folder \(AGORA_DATA_DIR/);
    return true;
  });
});

test('a writer started on a full disk, and a build into a full dist/, say so and how to fix it', { timeout: 120_000, skip: process.getuid?.() !== 0 ? 'needs root to mount a small tmpfs' : false }, async (t) => {
  const project = await makeProject({ samplePosts: true });
  const { dataDir, distDir } = project.config;
  const run = (command: string, args: string[]) => new Promise<number>((r) => spawn(command, args, { stdio: 'ignore' }).once('exit', (c) => r(c ?? 1)));
  const mounted: string[] = [];
  t.after(async () => {
    for (const dir of mounted) await run('umount', [dir]);
    await project.remove();
  });
  for (const dir of [dataDir, distDir]) {
    await mkdir(dir, { recursive: true });
    if ((await run('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir])) !== 0) return t.skip('cannot mount a tmpfs here');
    mounted.push(dir);
    // Every block taken, as by another program's files.
    await run('dd', ['if=/dev/zero', `of=${join(dir, 'filler')}`, 'bs=4k']);
  }
  await assert.rejects(startTestServer(project), (error: Error) => {
    assert.match(error.message, /^Cannot start: no space left on the disk holding the data folder `.*` \(ENOSPC while writing `.*\.writer\.lock`\)\. Free some space on it, then start again; nothing stored was changed\.$/);
    return true;
  });
  // A bare ENOSPC from a write names no file: the CLI says which folders and what to do.
  const build = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'agora'), 'build', '--root', project.root], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('exit', (code) => resolve({ code, stderr }));
  });
  assert.equal(build.code, 1);
  assert.match(build.stderr, /^agora: ENOSPC: no space left on device.*: the disk holding the site's data\/, dist\/ or \.cache\/ folder is full\. Free some space on it, then run the command again\.$/m);
});

test('a writer whose dist/ is full at start serves the existing dist/, says why, refuses comments, and catches up once there is room', { timeout: 180_000, skip: process.getuid?.() !== 0 ? 'needs root to mount a small tmpfs' : false }, async (t) => {
  const project = await makeProject({ samplePosts: true });
  const { distDir, contentDir } = project.config;
  const run = (command: string, args: string[]) => new Promise<number>((r) => spawn(command, args, { stdio: 'ignore' }).once('exit', (c) => r(c ?? 1)));
  let mounted = false;
  t.after(async () => {
    if (mounted) await run('umount', [distDir]);
    await project.remove();
  });
  // A site built once, then a new post written while the writer is stopped.
  await (await startTestServer(project)).close();
  const saved = `${distDir}.saved`;
  await rm(saved, { recursive: true, force: true });
  assert.equal(await run('cp', ['-a', distDir, saved]), 0);
  await rm(distDir, { recursive: true, force: true });
  await mkdir(distDir, { recursive: true });
  if ((await run('mount', ['-t', 'tmpfs', '-o', 'size=64m', 'tmpfs', distDir])) !== 0) return t.skip('cannot mount a tmpfs here');
  mounted = true;
  assert.equal(await run('cp', ['-a', `${saved}/.`, distDir]), 0);
  await rm(saved, { recursive: true, force: true });
  const slug = '2026-01-02-written-while-the-disk-was-full';
  await writeFile(join(contentDir, 'posts', `${slug}.md`), ['---', 'title: Written while the disk was full', 'date: 2026-01-02', 'model: gpt-5', 'category: knowhow', 'tags: disk, writer', 'summary: A post the writer cannot publish until there is room on the disk.', '---', 'Its body says that a writer whose dist/ is full keeps serving the pages it has, and publishes this post once there is room again.', ''].join('\n'));
  // Every block taken, as by another program's files.
  await run('dd', ['if=/dev/zero', `of=${join(distDir, 'filler')}`, 'bs=4k']);
  const llms = await readFile(join(distDir, 'llms.txt'), 'utf8');

  // Before: the start failed with ENOSPC and the process ended, taking the whole site offline.
  let listening: (url: string) => void = () => {};
  const url = new Promise<string>((resolve) => (listening = resolve));
  const started = startTestServer(project, {}, { onListening: listening });
  t.after(async () => (await started).close());
  const server = { url: await url };
  const health = async () => (await (await fetch(`${server.url}/api/health`)).json()) as { status: string; problems?: Record<string, { reason: string }> };
  let seen = await health();
  for (const deadline = Date.now() + 30_000; !seen.problems?.dist && Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) seen = await health();
  assert.equal(seen.status, 'starting', JSON.stringify(seen));
  assert.match(seen.problems?.dist?.reason ?? '', /no space left on the disk holding dist\/.*trying again/, JSON.stringify(seen));
  const page = await fetch(`${server.url}/llms.txt`);
  assert.equal(page.status, 200);
  assert.equal(await page.text(), llms, 'the existing dist/ is served as it was');
  const refused = await postComment(server.url, OTHER, commentDoc({}, 'Sent while dist/ is full: refused, not stored.'), {});
  assert.equal(refused.status, 503);
  const why = (await refused.json()) as { error: { code: string; message: string } };
  assert.equal(why.error.code, 'starting');
  assert.match(why.error.message, /cannot catch up yet: no space left on the disk holding dist\//, 'refused at once, saying why');
  assert.ok(refused.headers.get('retry-after'));

  await rm(join(distDir, 'filler'));
  for (const deadline = Date.now() + 60_000; seen.status === 'starting' && Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) seen = await health();
  assert.equal(seen.status, 'ok', JSON.stringify(seen));
  await started;
  assert.equal((await fetch(`${server.url}/knowhow/${slug}/`)).status, 200, 'the new post is published once there is room');
  assert.match(await readFile(join(distDir, 'llms.txt'), 'utf8'), /Written while the disk was full/);
  const stored = await postComment(server.url, OTHER, commentDoc({}, 'Sent after the disk had room again.'));
  assert.equal(stored.status, 201, await stored.text());
});

test('a writer whose cache folder alone is full starts, serves and takes comments: .cache/ is derived', { timeout: 120_000, skip: process.getuid?.() !== 0 ? 'needs root to mount a small tmpfs' : false }, async (t) => {
  const project = await makeProject({ samplePosts: true });
  const { cacheDir } = project.config;
  const run = (command: string, args: string[]) => new Promise<number>((r) => spawn(command, args, { stdio: 'ignore' }).once('exit', (c) => r(c ?? 1)));
  let mounted = false;
  t.after(async () => {
    if (mounted) await run('umount', [cacheDir]);
    await project.remove();
  });
  await rm(cacheDir, { recursive: true, force: true });
  await mkdir(cacheDir, { recursive: true });
  if ((await run('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', cacheDir])) !== 0) return t.skip('cannot mount a tmpfs here');
  mounted = true;
  // Every block taken, as by another program's files: no manifest, rendering or marker fits.
  await run('dd', ['if=/dev/zero', `of=${join(cacheDir, 'filler')}`, 'bs=4k']);
  const server = await startTestServer(project);
  t.after(() => server.close());
  let health = { status: 'starting' };
  for (const deadline = Date.now() + 60_000; health.status === 'starting' && Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
    health = (await (await fetch(`${server.url}/api/health`)).json()) as { status: string };
  }
  assert.equal(health.status, 'ok', JSON.stringify(health));
  assert.equal((await fetch(`${server.url}/llms.txt`)).status, 200);
  const slug = (JSON.parse(await readFile(join(project.config.distDir, 'api', 'posts'), 'utf8')) as { slug: string }[])[0]!.slug;
  const res = await postComment(server.url, slug, commentDoc({}, 'Stored while the cache disk is full, and shown.'));
  assert.equal(res.status, 201, await res.text());
  assert.match(await readFile(join(project.config.distDir, 'api', 'comments', slug), 'utf8'), /cache disk is full/);
});

test('a moderation command on a full data disk says the change was not made and to run it again', { timeout: 120_000, skip: process.getuid?.() !== 0 ? 'needs root to mount a small tmpfs' : false }, async (t) => {
  const project = await makeProject({ samplePosts: true });
  const { dataDir } = project.config;
  await mkdir(dataDir, { recursive: true });
  const run = (command: string, args: string[]) => new Promise<number>((r) => spawn(command, args, { stdio: 'ignore' }).once('exit', (c) => r(c ?? 1)));
  if ((await run('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', dataDir])) !== 0) {
    await project.remove();
    return t.skip('cannot mount a tmpfs here');
  }
  t.after(async () => {
    await run('umount', [dataDir]);
    await project.remove();
  });
  const server = await startTestServer(project);
  const res = await postComment(server.url, SLUG, commentDoc({ author: 'to-hide' }));
  assert.equal(res.status, 201);
  const { id } = (await res.json()) as { id: string };
  await server.close();
  await fillDisk(join(dataDir, 'filler'));
  const hide = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'agora'), 'comments', 'hide', id, '--root', project.root], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('exit', (code) => resolve({ code, stderr }));
  });
  assert.equal(hide.code, 1);
  // Before: "make room and the writer continues by itself", as if the hide would follow.
  assert.doesNotMatch(hide.stderr, /continues by itself/);
  // The post's file or the change journal (`changes.jsonl`, written first): either way nothing changed.
  assert.match(hide.stderr, /^agora: Cannot write `.*\.jsonl?`: no room for it \(ENOSPC: the disk is full\); nothing was changed\. Make room, then run the command again/m);
  assert.equal((await storedComments(dataDir)).find((c) => c.id === id)?.hidden, undefined, 'not hidden');
});

// A post file hand-edited into something unreadable while the writer runs: a comment on
// that post is refused (503, nothing stored) and the others go on, and the operator's
// log says which file and why. It said only "The store is unavailable; nothing was
// stored. Try again shortly.", the client's words, so nothing pointed at the file
// (found by truncating a post file under a running writer).
test('a post file made unreadable while the writer runs: its comments are refused, and the log names the file', { timeout: 60_000 }, async (t) => {
  const project = await withProject(t);
  const { startServer } = await import('@agora/writer');
  const { pino } = await import('pino');
  const logs: { msg: string; code?: string; cause?: string }[] = [];
  const server = await startServer({
    config: project.config,
    logger: pino({ level: 'warn' }, { write: (line: string) => void logs.push(JSON.parse(line)) }),
    handleSignals: false,
  });
  t.after(() => server.close());
  assert.equal((await postComment(server.url, SLUG, commentDoc())).status, 201);
  const file = join(project.config.dataDir, 'comments', `${SLUG}.json`);
  const before = await readFile(file, 'utf8');
  const poisoned = before.slice(0, 40);
  await writeFile(file, poisoned);
  const refused = await postComment(server.url, SLUG, commentDoc({}, 'A second comment on the damaged post.'));
  assert.equal(refused.status, 503);
  assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'store_unavailable');
  assert.equal(await readFile(file, 'utf8'), poisoned, 'the damaged file is never overwritten');
  assert.equal((await postComment(server.url, OTHER, commentDoc())).status, 201, 'other posts go on');
  const failure = logs.find((l) => l.msg === 'server-side failure' && l.code === 'store_unavailable');
  assert.ok(failure, 'the 503 is logged');
  assert.ok(failure.cause?.includes(file), `the log names the file: ${JSON.stringify(failure)}`);
});
