/**
 * The compiled start-up: `npm run compile` (bin/compile.mjs: tsc, then the CLI bundled
 * by esbuild) and `bin/agora` choosing between the compiled JavaScript and the sources
 * through tsx. Everything runs in a temporary copy of the repository (its sources, its
 * own compile, node_modules linked but commander copied, as the bundle takes it in), so
 * the checkout's own compiled output, current or not, plays no part. While the compiled
 * CLI runs, the copy has no tsx at all: a run that needed it would fail.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { cp, mkdir, mkdtemp, readdir, readFile, rename, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Command } from 'commander';
import { WRITER_COMMANDS } from '@agora/writer/commands';
import { makeProject, postSource, REPO_ROOT, type TestProject } from '../helpers/project.ts';

const execFileP = promisify(execFile);
interface Run {
  code: number;
  stdout: string;
  stderr: string;
}
async function node(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Run> {
  try {
    const { stdout, stderr } = await execFileP(process.execPath, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

const STALE = /changed since the last `npm run compile`; running the sources through tsx/;
const EVERY_COMMAND = ['build', 'check', 'serve', 'start', 'dev', 'init', 'new', 'comments', 'token', 'db', 'store', 'mcp', 'help'];

let copy: string;
const agora = (args: string[], env: NodeJS.ProcessEnv = {}) => node([join(copy, 'bin', 'agora'), ...args], { env: { AGORA_BASE_URL: 'https://agora.example', ...env } });
const tsxLink = () => join(copy, 'node_modules', 'tsx');
/** Take tsx away (a compiled run must not need it) or give it back (for the fallback). */
async function withTsx(on: boolean): Promise<void> {
  const off = `${tsxLink()}.off`;
  if (on && existsSync(off)) await rename(off, tsxLink());
  if (!on && existsSync(tsxLink())) await rename(tsxLink(), off);
}

before(async () => {
  copy = await mkdtemp(join(tmpdir(), 'agora-compiled-'));
  for (const path of ['package.json', 'tsconfig.json', 'tsconfig.build.json', 'bin/package.json', 'bin/agora', 'bin/cli.mts', 'bin/compile.mjs', 'bin/freshness.mjs']) await cp(join(REPO_ROOT, path), join(copy, path));
  for (const pkg of ['generator', 'writer']) {
    await cp(join(REPO_ROOT, 'packages', pkg, 'package.json'), join(copy, 'packages', pkg, 'package.json'));
    await cp(join(REPO_ROOT, 'packages', pkg, 'src'), join(copy, 'packages', pkg, 'src'), { recursive: true });
  }
  // node_modules: the repository's packages, but the workspace links point into the copy.
  await mkdir(join(copy, 'node_modules', '@agora'), { recursive: true });
  // commander is copied: it is bundled into bin/lib/cli.cjs and watched, and a test touches it.
  for (const name of await readdir(join(REPO_ROOT, 'node_modules'))) {
    if (name === 'commander') await cp(join(REPO_ROOT, 'node_modules', name), join(copy, 'node_modules', name), { recursive: true });
    else if (name !== '@agora') await symlink(join(REPO_ROOT, 'node_modules', name), join(copy, 'node_modules', name));
  }
  for (const pkg of ['generator', 'writer']) await symlink(join(copy, 'packages', pkg), join(copy, 'node_modules', '@agora', pkg));
  const compiled = await node([join(copy, 'bin', 'compile.mjs')]);
  assert.equal(compiled.code, 0, compiled.stderr);
  await withTsx(false);
});

after(async () => {
  if (copy) await rm(copy, { recursive: true, force: true });
});

test('npm run compile: JavaScript and the run-time assets in packages/*/lib, the CLI as one file in bin/lib, no TypeScript or tsx bootstraps, a stamp', async () => {
  assert.deepEqual((await readdir(join(copy, 'bin', 'lib'))).sort(), ['cli.cjs', 'stamp.json']);
  assert.ok(existsSync(join(copy, 'packages', 'writer', 'lib', 'commands', 'index.js')));
  const lib = join(copy, 'packages', 'generator', 'lib');
  const files = (await readdir(lib, { recursive: true })).map(String);
  for (const asset of ['site.css', 'views.js', 'search.js']) assert.ok(files.includes(join('emit', 'assets', asset)), asset);
  assert.ok(files.includes(join('render', 'worker.js')) && files.includes(join('render', 'comment-worker.js')));
  // codeFingerprint() hashes this folder: only what the compile wrote may be in it.
  assert.deepEqual(files.filter((f) => f.endsWith('.ts') || f.endsWith('.mjs')), []);
  const compiledJs = await readFile(join(copy, 'bin', 'lib', 'cli.cjs'), 'utf8');
  assert.doesNotMatch(compiledJs, /['"][^'"]+\.ts['"]/, 'relative .ts specifiers are rewritten to .js');
  // One CommonJS bundle: nothing required but built-in modules; what the commands load when they run stays import() of packages/*/lib.
  assert.doesNotMatch(compiledJs, /^\s*(import|export)\b[^(]*\bfrom\s*['"]/m, 'no static import in the bundle');
  assert.doesNotMatch(compiledJs, /\brequire\(/, 'no require() in the bundle (built-in modules come from process.getBuiltinModule)');
  const lazy = [...compiledJs.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]!);
  for (const bare of ['@agora/generator', '@agora/writer']) assert.ok(lazy.includes(bare), bare);
  const relativeLazy = lazy.filter((specifier) => specifier.startsWith('.'));
  assert.ok(relativeLazy.length >= 5, 'the writer commands, each its own import()');
  for (const specifier of relativeLazy) {
    const target = resolve(copy, 'bin', 'lib', specifier);
    assert.ok(target.startsWith(join(copy, 'packages', 'writer', 'lib')) && existsSync(target), specifier);
  }
  const stamp = JSON.parse(await readFile(join(copy, 'bin', 'lib', 'stamp.json'), 'utf8')) as { files: [string][] };
  for (const watched of ['packages/generator/src/build.ts', 'bin/freshness.mjs', 'node_modules/commander/lib/command.js']) assert.ok(stamp.files.some(([path]) => path === watched), watched);
});

test('the compiled --help reads three files (bin/agora, bin/freshness.mjs, the bundle): no module of the packages or node_modules, no child_process', async () => {
  // A CommonJS preload lists, at exit, the files required (bin/agora is CommonJS) and the
  // built-in modules loaded; a module hook (in its own thread) appends any ES module loaded.
  const log = join(copy, 'loads.log');
  const hooks = join(copy, 'trace-hooks.mjs');
  const preload = join(copy, 'trace-loads.cjs');
  await writeFile(hooks, `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) { appendFileSync(process.env.AGORA_LOAD_LOG, 'module ' + url + '\\n'); return next(url, context); }
`);
  await writeFile(preload, `const { appendFileSync } = require('node:fs');
require('node:module').register(${JSON.stringify(pathToFileURL(hooks).href)});
process.on('exit', () => appendFileSync(process.env.AGORA_LOAD_LOG, [...Object.keys(require.cache).map((f) => 'module ' + f), ...process.moduleLoadList.map((m) => 'builtin ' + m)].join('\\n') + '\\n'));
`);
  await rm(log, { force: true });
  const run = await node(['--require', preload, join(copy, 'bin', 'agora'), '--help'], { env: { AGORA_LOAD_LOG: log } });
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^  mcp\b/m);
  const lines = (await readFile(log, 'utf8')).trim().split('\n');
  const files = new Set(lines.filter((l) => l.startsWith('module ')).map((l) => l.slice('module '.length)).filter((f) => f !== preload).map((f) => relative(copy, f.startsWith('file:') ? new URL(f).pathname : f)));
  assert.deepEqual([...files].sort(), ['bin/agora', 'bin/freshness.mjs', 'bin/lib/cli.cjs']);
  const builtins = lines.filter((l) => l.startsWith('builtin '));
  assert.ok(builtins.length > 20, 'the built-in module list was written');
  assert.ok(!builtins.includes('builtin NativeModule child_process'), 'commander\'s node:child_process is loaded only if used');
});

test('the compiled CLI (no tsx installed): --help lists every command, the writer\'s included, and their help loads them', async () => {
  const started = performance.now();
  const help = await agora(['--help']);
  console.log(`# compiled agora --help: ${Math.round(performance.now() - started)} ms (one run, informative only)`);
  assert.equal(help.code, 0, help.stderr);
  assert.equal(help.stderr, '');
  for (const name of EVERY_COMMAND) assert.match(help.stdout, new RegExp(`^  ${name}\\b`, 'm'), name);

  // A writer command's placeholder is completed from the real command when it runs.
  const comments = await agora(['comments', '--help']);
  assert.equal(comments.code, 0, comments.stderr);
  for (const sub of ['list', 'hide', 'unhide', 'delete', 'export', 'import']) assert.match(comments.stdout, new RegExp(`^  ${sub}\\b`, 'm'), sub);
  assert.match(comments.stdout, /^Usage: agora comments/m);
  const token = await agora(['help', 'token']);
  assert.equal(token.code, 0, token.stderr);
  assert.match(token.stdout, /^Usage: agora token/m);
  for (const sub of ['create', 'list', 'revoke']) assert.match(token.stdout, new RegExp(`^  ${sub}\\b`, 'm'), sub);
  const mcp = await agora(['mcp', '--help']);
  assert.equal(mcp.code, 0, mcp.stderr);
  assert.match(mcp.stdout, /^Usage: agora mcp/m);
  // A usage mistake is the line that says it and where the usage is: the whole help (~30 lines) buried it.
  for (const [args, hint] of [[['frobnicate'], 'agora'], [['build', '--bogus'], 'agora build'], [['comments', 'hide'], 'agora comments hide'], [['token', 'revoke'], 'agora token revoke']] as const) {
    const wrong = await agora([...args]);
    assert.equal(wrong.code, 1, args.join(' '));
    const lines = wrong.stderr.trimEnd().split('\n');
    assert.match(lines[0]!, /^error: /, args.join(' '));
    assert.equal(lines.at(-1), `(run \`${hint} --help\` for usage)`, args.join(' '));
    assert.ok(lines.length <= 3 && !wrong.stderr.includes('Usage:'), `${args.join(' ')}: ${wrong.stderr}`);
  }
  // `init`'s next line runs as written in a shell: a folder name with spaces is quoted.
  const parent = await mkdtemp(join(tmpdir(), 'agora-init-'));
  const init = await agora(['-C', parent, 'init', '내 노트 site']);
  await rm(parent, { recursive: true, force: true });
  assert.equal(init.code, 0, init.stderr);
  assert.match(init.stdout, /^next: cd '내 노트 site' && agora dev /m);
  const db = await agora(['db', 'status']);
  assert.equal(db.code, 1);
  assert.match(db.stderr, /Cannot use `agora db` with the embedded files store/);
});

test('the writer command placeholders carry the real commands\' names and descriptions', async () => {
  for (const entry of WRITER_COMMANDS) {
    const real = (await entry.load())(() => assert.fail('no configuration is read to define a command'));
    assert.ok(real instanceof Command);
    assert.equal(real.name(), entry.name);
    assert.equal(real.description(), entry.description, entry.name);
  }
});

test('a build by the compiled CLI writes the same dist/ as the same build through tsx', async (t) => {
  const projects: TestProject[] = [];
  t.after(() => Promise.all(projects.map((p) => p.remove())));
  const files = {
    'agora.config.json': JSON.stringify({ searchIndex: false }),
    'content/posts/2025-05-01-first.md': postSource({ title: 'First post', tags: 'a, b' }),
    'content/posts/2025-05-02-second.md': postSource({ title: 'Second post', category: 'knowhow', date: '2025-05-02' }, 'Body with **bold**, a [link](https://example.com) and code:\n\n```ts\nconst x: number = 1;\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n'),
  };
  const trees: Map<string, string>[] = [];
  for (const tsx of [false, true]) {
    await withTsx(tsx);
    const project = await makeProject({ files });
    projects.push(project);
    const result = await agora(['--root', project.root, 'build'], tsx ? { AGORA_TSX: '1' } : {});
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /built 2 posts/);
    const tree = new Map<string, string>();
    const dist = join(project.root, 'dist');
    for (const f of (await readdir(dist, { recursive: true, withFileTypes: true })).filter((e) => e.isFile())) {
      const path = join(f.parentPath, f.name);
      tree.set(relative(dist, path), await readFile(path, 'utf8'));
    }
    trees.push(tree);
  }
  await withTsx(false);
  const [compiled, viaTsx] = trees as [Map<string, string>, Map<string, string>];
  assert.ok(compiled.size > 20, `${compiled.size} files`);
  assert.deepEqual([...compiled.keys()].sort(), [...viaTsx.keys()].sort());
  for (const [path, text] of compiled) assert.equal(text, viaTsx.get(path), path);
});

test('the compiled render workers start from lib/ without tsx and render as the sources do', async () => {
  await withTsx(false);
  const lib = join(copy, 'packages', 'generator', 'lib', 'render');
  const script = `
    const { RenderPool } = await import(${JSON.stringify(join(lib, 'pool.js'))});
    const { CommentRenderPool } = await import(${JSON.stringify(join(lib, 'comment-pool.js'))});
    const pool = RenderPool.start(2);
    const posts = new Map();
    await pool.render([['a', '# Title\\n\\n\`\`\`js\\nlet x = 1;\\n\`\`\`\\n'], ['b', 'Some *text*.']], (key, rendered) => posts.set(key, rendered));
    await pool.close();
    const comments = new CommentRenderPool();
    const rendered = await comments.render([['c1', 'A **comment**.']]);
    await comments.close();
    console.log(JSON.stringify({ a: posts.get('a').html, b: posts.get('b').html, c1: rendered.get('c1') }));
  `;
  // A file, not --eval: workers inherit the parent's flags, and --input-type would break them.
  await writeFile(join(copy, 'render-check.mjs'), script);
  const run = await node([join(copy, 'render-check.mjs')], { cwd: copy });
  assert.equal(run.code, 0, run.stderr);
  const out = JSON.parse(run.stdout) as { a: string; b: string; c1: { html?: string } };
  const { renderMarkdown } = await import('../../packages/generator/src/render/markdown.ts');
  assert.equal(out.a, renderMarkdown('# Title\n\n```js\nlet x = 1;\n```\n').html);
  assert.equal(out.b, renderMarkdown('Some *text*.').html);
  assert.match(out.c1.html ?? '', /<strong>comment<\/strong>/);
});

test('stale compiled output: an edited source, a new file or another commander runs the sources through tsx with one notice; a compile makes it current again; a compile that cannot bundle leaves no stamp', async () => {
  await withTsx(true);
  const source = join(copy, 'packages', 'generator', 'src', 'paths.ts');
  // An edit keeps the size here; only the mtime tells.
  const later = new Date(Date.now() + 5_000);
  await utimes(source, later, later);
  const edited = await agora(['--help']);
  assert.equal(edited.code, 0, edited.stderr);
  assert.match(edited.stderr, STALE);
  assert.match(edited.stderr, /packages\/generator\/src\/paths\.ts changed/);
  assert.equal(edited.stderr.trim().split('\n').length, 1, 'one notice');
  for (const name of EVERY_COMMAND) assert.match(edited.stdout, new RegExp(`^  ${name}\\b`, 'm'), name);

  // The fallback runs the packages' sources (agora-source condition): a change there shows at once.
  const cli = join(copy, 'bin', 'cli.mts');
  const original = await readFile(cli, 'utf8');
  await writeFile(cli, original.replace("'build content/ into dist/", "'(edited) build content/ into dist/"));
  const changed = await agora(['--help']);
  assert.match(changed.stdout, /\(edited\) build content/);
  assert.match(changed.stderr, STALE);
  await writeFile(cli, original);

  const compiled = await node([join(copy, 'bin', 'compile.mjs')]);
  assert.equal(compiled.code, 0, compiled.stderr);
  const fresh = await agora(['--help']);
  assert.equal(fresh.stderr, '');
  assert.doesNotMatch(fresh.stdout, /\(edited\)/);

  // commander is bundled into bin/lib/cli.cjs: another commander (an npm install) leaves the bundle stale.
  await utimes(join(copy, 'node_modules', 'commander', 'lib', 'help.js'), later, later);
  const reinstalled = await agora(['--help']);
  assert.equal(reinstalled.code, 0, reinstalled.stderr);
  assert.match(reinstalled.stderr, /node_modules\/commander\/lib\/help\.js changed/);

  // A file added to a source folder (its folder's mtime changes).
  await writeFile(join(copy, 'packages', 'writer', 'src', 'commands', 'extra.ts'), 'export const extra = 1;\n');
  const added = await agora(['--help']);
  assert.match(added.stderr, /packages\/writer\/src\/commands changed/);
  await rm(join(copy, 'packages', 'writer', 'src', 'commands', 'extra.ts'));
  const removed = await agora(['--help']);
  assert.match(removed.stderr, STALE, 'the folder changed again: still stale until the next compile');

  // The CLI statically importing a package the stamp does not watch: the compile refuses to bundle it.
  await writeFile(cli, `import 'html-escaper';\n${original}`);
  const refused = await node([join(copy, 'bin', 'compile.mjs')]);
  await writeFile(cli, original);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /bundling the CLI failed \(the CLI bundle would include \S*html-escaper\S*, which bin\/freshness\.mjs does not watch/);

  // No stamp (nothing compiled, or a compile that did not finish, as this one): the sources, silently.
  assert.ok(!existsSync(join(copy, 'bin', 'lib', 'stamp.json')));
  const missing = await agora(['--help']);
  assert.equal(missing.code, 0, missing.stderr);
  assert.equal(missing.stderr, '');
  assert.match(missing.stdout, /^  mcp\b/m);
});
