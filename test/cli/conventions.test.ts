/**
 * The CLI conventions an author expects (issue 21, item 4): `--version`, `agora init`,
 * commands that need a site stopping in a folder without one, `new --slug` kept inside
 * `content/posts/`, `-H/--host` on `dev`, and build summaries worded the same way every
 * time. Through `bin/agora` as a user runs it (compiled when current, else the sources).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../helpers/project.ts';

const execFileP = promisify(execFile);
const AGORA = join(REPO_ROOT, 'bin', 'agora');

async function agora(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await execFileP(process.execPath, [AGORA, ...args], { cwd, env: { ...process.env, AGORA_SEARCH_INDEX: '0', LOG_LEVEL: 'silent', PORT: '0' } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

async function tempDir(t: { after(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'agora-cli-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

test('agora --version', async (t) => {
  await t.test('should print the package version', async () => {
    const { version } = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-v']) {
      const run = await agora([flag], REPO_ROOT);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, new RegExp(`^agora ${version.replaceAll('.', '\\.')} \\(Node\\.js `));
    }
  });
});

test('commands that need a site, in a folder without one', async (t) => {
  const empty = await tempDir(t);
  for (const command of ['build', 'dev', 'serve', 'start']) {
    await t.test(`should stop \`${command}\` with what is missing and the fix, creating nothing`, async () => {
      const run = await agora([command], empty);
      assert.equal(run.code, 1);
      assert.match(run.stderr, /^agora: Cannot find an Agora site in `.*`: neither `agora\.config\.json` nor `content\/posts\/` exists\. Create one with `agora init`/);
      assert.deepEqual(await readdir(empty), [], 'no dist/, data/ or .cache/');
    });
  }
  // The store's commands too: with the files store, run elsewhere they made a second, empty store nobody reads.
  for (const args of [['comments', 'list'], ['comments', 'export'], ['token', 'create', '--label', 'x'], ['agents', 'block', 'https://x.example']]) {
    await t.test(`should stop \`${args.join(' ')}\` in a folder that is no site, creating nothing`, async () => {
      const run = await agora(args, empty);
      assert.equal(run.code, 1, run.stdout);
      assert.match(run.stderr, /Cannot find an Agora site in `.*`/);
      assert.deepEqual(await readdir(empty), [], 'no data/');
    });
  }
  // A mistyped --data-dir made a new, empty store there: `token create` printed a token the
  // writer never knew (403 "not a known token"), `token list` said "no tokens".
  for (const args of [['token', 'create', '--label', 'x'], ['token', 'list'], ['agents', 'block', 'https://x.example'], ['agents', 'list']]) {
    await t.test(`should stop \`${args.join(' ')} --data-dir <missing folder>\`, creating nothing`, async () => {
      const site = await tempDir(t);
      await writeFile(join(site, 'agora.config.json'), '{}');
      await mkdir(join(site, 'content', 'posts'), { recursive: true });
      const run = await agora([...args, '--data-dir', 'no-such-data'], site);
      assert.equal(run.code, 1, run.stdout);
      assert.match(run.stderr, /^agora: `--data-dir no-such-data` does not exist: name the data folder the writer uses \(`.*data` by this site's settings, the default\), or create it first; nothing was changed/);
      assert.deepEqual((await readdir(site)).sort(), ['agora.config.json', 'content']);
    });
  }
  await t.test('should name the posts folder when only the config exists', async () => {
    const dir = await tempDir(t);
    await writeFile(join(dir, 'agora.config.json'), '{"contentDir": "notes"}');
    const run = await agora(['build'], dir);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /`notes\/posts\/` does not exist \(`contentDir` of agora\.config\.json\)\. Create it with `mkdir -p notes\/posts`/);
    assert.deepEqual((await readdir(dir)).sort(), ['agora.config.json']);
  });
});

test('agora init', async (t) => {
  const parent = await tempDir(t);
  const site = join(parent, 'my-notes');

  await t.test('should create a site that checks clean and builds', async () => {
    const run = await agora(['init', 'my-notes'], parent);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^created a site in .*my-notes: agora\.config\.json, README\.md, \.gitignore, content\/posts\/\d{4}-\d\d-\d\d-welcome-to-agora-how-to-write-a-post\.md$/m);
    assert.equal(JSON.parse(await readFile(join(site, 'agora.config.json'), 'utf8')).title, 'my notes');
    assert.match(await readFile(join(site, 'README.md'), 'utf8'), /agora dev/);
    const check = await agora(['check'], site);
    assert.equal(check.code, 0, check.stderr);
    assert.equal(check.stdout.trim(), '1 file checked: 0 errors, 0 warnings');
    const build = await agora(['build'], site);
    assert.equal(build.code, 0, build.stderr);
    assert.ok(existsSync(join(site, 'dist', 'guide')), 'the example post has a page');
  });

  await t.test('should refuse a folder that is not empty, changing nothing', async () => {
    const before = (await readdir(site)).sort();
    const run = await agora(['init'], site);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^agora: Cannot `init` a site in `.*my-notes`: the folder is not empty \(\d+ entries: /);
    assert.deepEqual((await readdir(site)).sort(), before);
  });

  await t.test('should create the current folder\'s site when it is empty', async () => {
    const here = await tempDir(t);
    const run = await agora(['init'], here);
    assert.equal(run.code, 0, run.stderr);
    assert.ok(existsSync(join(here, 'agora.config.json')));
  });
});

test('agora new --slug', async (t) => {
  const root = await tempDir(t);
  assert.equal((await agora(['init', 'site'], root)).code, 0);
  const site = join(root, 'site');
  for (const slug of ['../../../outside', 'a/b', 'a\\b', '..', 'x..y', '.hidden', '']) {
    await t.test(`should refuse \`${slug}\``, async () => {
      const run = await agora(['new', 'Title', '-c', 'guide', '-m', 'm', '--slug', slug], site);
      assert.equal(run.code, 1);
      assert.match(run.stderr, /^agora: Unexpected slug `.*` \(it (contains a path separator|contains `\.\.`|starts with a dot|is empty)\), expected one file name/);
    });
  }
  await t.test('should have written nothing outside content/posts/', async () => {
    assert.deepEqual((await readdir(root)).sort(), ['site']);
    assert.equal((await readdir(join(site, 'content', 'posts'))).length, 1);
  });
  await t.test('should write a plain slug into content/posts/', async () => {
    const run = await agora(['new', 'Title', '-c', 'guide', '-m', 'm', '--slug', 'plain-slug'], site);
    assert.equal(run.code, 0, run.stderr);
    assert.ok(existsSync(join(site, 'content', 'posts', 'plain-slug.md')));
  });
});

test('agora dev --help', async (t) => {
  await t.test('should offer -H/--host like serve and start', async () => {
    for (const command of ['dev', 'serve', 'start']) {
      const run = await agora([command, '--help'], REPO_ROOT);
      assert.match(run.stdout, /-H, --host <host>/, command);
    }
  });
});

test('build summaries', async (t) => {
  const root = await tempDir(t);
  assert.equal((await agora(['init', 'site'], root)).code, 0);
  const site = join(root, 'site');
  const SUMMARY = /^built 1 post in \d+ ms: (\d+) posts? rendered, (\d+) taken from cache; (\d+) files?: (\d+) written, (\d+) unchanged, (\d+) removed$/m;

  await t.test('should say the bodies came from the cache after `agora check`', async () => {
    assert.equal((await agora(['check'], site)).code, 0);
    const run = await agora(['build'], site);
    const [, rendered, cached, files, written, unchanged] = SUMMARY.exec(run.stdout)!.map(Number);
    assert.equal(rendered, 0, 'check rendered it already');
    assert.equal(cached, 1, 'and the summary says so');
    assert.equal(written, files, 'a cold build writes every file');
    assert.equal(unchanged, 0);
  });

  await t.test('should count every existing file as unchanged on a warm build', async () => {
    const run = await agora(['build'], site);
    const [, rendered, cached, files, written, unchanged] = SUMMARY.exec(run.stdout)!.map(Number);
    assert.deepEqual({ rendered, cached, written }, { rendered: 0, cached: 0, written: 0 });
    assert.ok(files! > 50, `the site has its files (${files})`);
    assert.equal(unchanged, files);
  });
});

test('npm start gives the writer glibc\'s fixed mmap threshold (README, "Deployment")', async (t) => {
  const { scripts } = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const command = 'node bin/agora start';
  assert.ok(scripts.start!.endsWith(command), scripts.start);
  // The script's own words, run by sh as npm runs them, with the writer replaced by a probe.
  const probe = scripts.start!.replace(command, `node -e "process.stdout.write(process.env.MALLOC_MMAP_THRESHOLD_ ?? 'unset')"`);
  const run = (env: NodeJS.ProcessEnv) => execFileP('sh', ['-c', probe], { env: { PATH: process.env.PATH, ...env } });
  const { NPM_START_ENV } = await import('../../bench/server-handle.ts');
  await t.test('should set it by default, as the benchmarks start the writer', async () => {
    assert.equal((await run({})).stdout, NPM_START_ENV.MALLOC_MMAP_THRESHOLD_);
  });
  await t.test('should keep a value the shell set', async () => {
    assert.equal((await run({ MALLOC_MMAP_THRESHOLD_: '131072' })).stdout, '131072');
  });
  await t.test('should put the writer in the shell\'s place, so a signal to npm\'s child stops the writer', async () => {
    // Without `exec`, sh ran node as its own child: a SIGTERM to npm's process (sh) left the writer running.
    const pid = scripts.start!.replace(command, `node -e "process.stdout.write(String(process.pid))"`);
    const child = execFileP('sh', ['-c', pid], { env: { PATH: process.env.PATH } });
    assert.equal((await child).stdout, String(child.child.pid));
  });
});

test('.env.example lists every variable the code reads (README, "Configuration")', async () => {
  const example = await readFile(join(REPO_ROOT, '.env.example'), 'utf8');
  const read = new Set<string>();
  for (const dir of ['packages/generator/src', 'packages/writer/src', 'bin']) {
    for (const name of await readdir(join(REPO_ROOT, dir), { recursive: true })) {
      if (!/\.(ts|mts|mjs)$/.test(name) || name.includes('lib/')) continue;
      const text = await readFile(join(REPO_ROOT, dir, name), 'utf8');
      for (const m of text.matchAll(/env\.(AGORA_[A-Z0-9_]+|PORT|HOST|DATABASE_URL|LOG_LEVEL)\b|'(AGORA_[A-Z0-9_]+)'/g)) read.add((m[1] ?? m[2])!);
    }
  }
  assert.ok(read.size > 20, `found ${read.size}`);
  const missing = [...read].filter((name) => !new RegExp(`\\b${name}=`).test(example));
  assert.deepEqual(missing, [], 'variables the code reads that .env.example does not list');
});

test('README\'s CLI table has a row for every command `agora --help` lists', async () => {
  // `agora mcp` was listed by --help but missing from the table a newcomer reads.
  const { stdout } = await promisify(execFile)(process.execPath, [AGORA, '--help']);
  const commands = [...stdout.split(/^Commands:$/m)[1]!.matchAll(/^ {2}(\w+)/gm)].map((m) => m[1]!).filter((c) => c !== 'help');
  assert.ok(commands.length >= 10, stdout);
  const readme = await readFile(join(REPO_ROOT, 'README.md'), 'utf8');
  const table = readme.slice(readme.indexOf('## CLI'), readme.indexOf('A build says what it did'));
  const rows = table.split('\n').filter((line) => line.startsWith('| `agora '));
  const missing = commands.filter((c) => !rows.some((row) => row.includes(`\`agora ${c}`)));
  assert.deepEqual(missing, [], 'commands without a row in README\'s CLI table');
});
