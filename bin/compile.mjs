#!/usr/bin/env node
/**
 * `npm run compile` (also run by `npm ci` and `npm install` through "prepare"): the
 * TypeScript of bin/cli.mts and packages/*\/src compiled by tsc (tsconfig.build.json:
 * JavaScript only, no type check) into .build/, the files read at run time copied
 * beside it (emit/assets/*), each package's tree moved into place (packages/*\/lib),
 * the CLI bundled by esbuild into one file (bin/lib/cli.cjs), then the freshness stamp
 * written last (bin/freshness.mjs). Without TypeScript or esbuild (`npm ci
 * --omit=dev`) it compiles nothing and the CLI runs the sources through tsx.
 *
 * The bundle is what `agora` loads before it knows the command: the compiled bin/cli.mts
 * with everything it imports statically (commander, @agora/generator/config and /types,
 * @agora/writer/commands), one file to read and compile instead of a dozen modules to
 * resolve and load one by one. CommonJS, as bin/agora is: `agora --help` skips most of
 * Node's ES module loader. What the commands import when they run (`import()`:
 * @agora/generator, @agora/writer, each writer command) stays out of it and loads from
 * packages/*\/lib as before, so `agora --help` reads nothing of it. The bundle takes
 * built-in modules from process.getBuiltinModule() (no ES module wrapper to build), each
 * when first used. Measured in docs/performance.md ("Start-up").
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourceState, SOURCES, STAMP } from './freshness.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const at = (path) => join(root, path);
const OUT = '.build';
/** Compiled package trees → where they run from. */
const TREES = [
  ['packages/generator/src', 'packages/generator/lib'],
  ['packages/writer/src', 'packages/writer/lib'],
];
/** tsc's output for bin/cli.mts, the bundle's entry, and the bundle `bin/agora` requires. */
const CLI_ENTRY = join(OUT, 'bin', 'cli.mjs');
const CLI = 'bin/lib/cli.cjs';
/** Plain JavaScript that only the tsx runs use: the worker bootstraps register tsx, then load the .ts worker. */
const TSX_ONLY = /-entry\.mjs$/;

let tsc;
let esbuild;
try {
  tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  esbuild = await import('esbuild');
} catch {
  console.warn('agora compile: TypeScript or esbuild is not installed (npm ci --omit=dev?); nothing compiled, `agora` runs the sources through tsx');
  process.exit(0);
}

const started = performance.now();
// The state of the sources as tsc is about to read them: an edit during the compile leaves the stamp stale.
const state = sourceState(root);
rmSync(at(STAMP), { force: true });
rmSync(at(OUT), { recursive: true, force: true });

const result = spawnSync(process.execPath, [tsc, '-p', at('tsconfig.build.json')], { cwd: root, stdio: 'inherit' });
if (result.status !== 0) {
  console.error(`agora compile: tsc failed (exit ${result.status ?? result.signal}); \`agora\` keeps running the sources through tsx`);
  process.exit(1);
}

// Files the code reads at run time (new URL('./assets/…', import.meta.url)) go beside the compiled JavaScript.
for (const [src] of TREES) {
  for (const e of readdirSync(at(src), { recursive: true, withFileTypes: true })) {
    if (!e.isFile() || e.name.endsWith('.ts') || TSX_ONLY.test(e.name)) continue;
    const from = join(e.parentPath, e.name);
    const to = join(at(OUT), from.slice(root.length));
    mkdirSync(dirname(to), { recursive: true });
    cpSync(from, to);
  }
}

for (const [src, lib] of TREES) {
  rmSync(at(lib), { recursive: true, force: true });
  if (existsSync(join(at(OUT), src))) renameSync(join(at(OUT), src), at(lib));
}
rmSync(at(dirname(CLI)), { recursive: true, force: true });
const bundled = await bundleCli().then(() => null, (error) => error);
rmSync(at(OUT), { recursive: true, force: true });
if (bundled) {
  console.error(`agora compile: bundling the CLI failed (${bundled.message}); \`agora\` keeps running the sources through tsx`);
  process.exit(1);
}

// One line per path: small to read at every start, and a diff of two stamps shows what changed.
const lines = (list) => list.map((entry) => `    ${JSON.stringify(entry)}`).join(',\n');
writeFileSync(at(STAMP), `{\n  "compiledAt": ${JSON.stringify(new Date().toISOString())},\n  "dirs": [\n${lines(state.dirs)}\n  ],\n  "files": [\n${lines(state.files)}\n  ]\n}\n`);
console.log(`agora compile: packages/*/lib and bin/lib/cli.cjs from ${state.files.length} files (recorded in ${STAMP}) in ${((performance.now() - started) / 1000).toFixed(1)} s`);

/**
 * A built-in module for the bundle, loaded when the bundled code first uses it rather
 * than when it is required: commander requires node:child_process at start-up (~5–10 ms
 * here, with net, stream and more) for executable subcommands, which agora does not
 * have. From process.getBuiltinModule(): no ES module wrapper to build.
 */
function lazyBuiltin(id) {
  return `let m;
const load = () => (m ??= process.getBuiltinModule(${JSON.stringify(id)}));
module.exports = new Proxy({}, {
  get: (_, key) => load()[key],
  has: (_, key) => key in load(),
  ownKeys: () => Reflect.ownKeys(load()),
  getOwnPropertyDescriptor: (_, key) => { const d = Reflect.getOwnPropertyDescriptor(load(), key); return d && { ...d, configurable: true }; },
});
`;
}

/**
 * bin/lib/cli.cjs: tsc's bin/cli.mjs with what it imports statically, from packages/*\/lib
 * (already in place) and node_modules, as one CommonJS file. Every `import()` stays a
 * separate ES module (a CommonJS module may import() one): a relative one (a writer
 * command) is pointed at its file in packages/*\/lib. The bundled files must all lie in
 * SOURCES (or be compiled from them), so that the stamp covers them; the bundle must
 * build without a warning (a require() esbuild cannot follow, import.meta, …).
 */
async function bundleCli() {
  const out = dirname(at(CLI));
  const lazyAndBuiltins = {
    name: 'agora-cli',
    setup(build) {
      build.onResolve({ filter: /.*/ }, (args) => {
        if (isBuiltin(args.path)) {
          if (args.kind === 'dynamic-import') return { path: args.path, external: true };
          return { path: args.path.startsWith('node:') ? args.path : `node:${args.path}`, namespace: 'builtin' };
        }
        if (args.kind !== 'dynamic-import') return undefined;
        if (!args.path.startsWith('.')) return { path: args.path, external: true };
        const target = resolve(args.resolveDir, args.path);
        if (target.startsWith(at(OUT) + sep) || !existsSync(target)) {
          return { errors: [{ text: `${args.path}: a lazily imported module must be in packages/*/lib, where it runs from (not ${relative(root, target)})` }] };
        }
        const path = relative(out, target).split(sep).join('/');
        return { path: path.startsWith('.') ? path : `./${path}`, external: true };
      });
      build.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => ({ contents: lazyBuiltin(args.path), loader: 'js' }));
    },
  };
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [at(CLI_ENTRY)],
    outfile: at(CLI),
    write: false,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
    plugins: [lazyAndBuiltins],
  });
  // esbuild warns, among others, of a require() it cannot follow and of import.meta (empty in CommonJS).
  if (result.warnings.length > 0) throw new Error(`esbuild: ${result.warnings[0].text}`);
  const entry = realpathSync(at(CLI_ENTRY));
  const compiled = TREES.map(([, lib]) => realpathSync(at(lib)) + sep);
  const watched = SOURCES.map((source) => realpathSync(at(source)));
  for (const input of Object.keys(result.metafile.inputs)) {
    if (input.startsWith('builtin:')) continue;
    const path = realpathSync(resolve(root, input));
    if (path === entry) continue;
    if (!compiled.some((lib) => path.startsWith(lib)) && !watched.some((w) => path === w || path.startsWith(w + sep))) {
      throw new Error(`the CLI bundle would include ${input}, which bin/freshness.mjs does not watch: add its package to SOURCES there, or import it with import() where it is used`);
    }
  }
  mkdirSync(out, { recursive: true });
  writeFileSync(at(CLI), result.outputFiles[0].contents);
}
