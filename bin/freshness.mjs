/**
 * Is the compiled CLI current? `bin/compile.mjs` records in `bin/lib/stamp.json` the stat
 * data of what it compiled from: size and mtime of every source file, mtime of every
 * source folder. `bin/agora` stats those paths again at each start (no reading, no
 * hashing, no directory listing: ~300 stat calls, about 3 ms) and runs the compiled
 * JavaScript only when all agree. An edited file changes its own mtime; a new, deleted
 * or renamed file changes its folder's mtime; a `git checkout`, `git pull` or `npm
 * install` rewrites the files it changes. Any difference runs the sources through tsx
 * (with a notice) until the next `npm run compile`. Plain JavaScript without
 * dependencies: it runs before anything is compiled.
 *
 * It runs at every start, so it is written for a cold process: built-in modules come from
 * `process.getBuiltinModule()` (an `import` of `node:fs` costs ~3 ms more: its ES module
 * wrapper loads `fs/promises` too), and paths are joined by concatenation (`path.join`
 * ~300 times in not-yet-optimised code cost 10–15 ms).
 */
const { readdirSync, readFileSync, statSync } = process.getBuiltinModule('node:fs');
const { join, resolve, sep } = process.getBuiltinModule('node:path');

/**
 * What the compiled output is made from, relative to the repository root: the sources
 * tsc compiles, and the packages bundled into `bin/lib/cli.cjs` with them (commander), so
 * that an `npm install` of another commander leaves the bundle stale as an edit does.
 * `bin/compile.mjs` refuses to bundle a file from anywhere else.
 */
export const SOURCES = ['bin/cli.mts', 'bin/compile.mjs', 'bin/freshness.mjs', 'bin/package.json', 'tsconfig.json', 'tsconfig.build.json', 'packages/generator/src', 'packages/writer/src', 'node_modules/commander'];

/** Where the compile step writes its stamp (last, after everything else is in place). */
export const STAMP = 'bin/lib/stamp.json';

/**
 * The stat data of the sources, walked in full: what the compile step records.
 * `files`: [path, size, mtimeMs]; `dirs`: [path, mtimeMs]; paths relative to `repoRoot`.
 */
export function sourceState(repoRoot) {
  const root = resolve(repoRoot);
  const files = [];
  const dirs = [];
  for (const source of SOURCES) {
    const path = join(root, source);
    const st = statSync(path);
    if (!st.isDirectory()) {
      files.push([source, st.size, st.mtimeMs]);
      continue;
    }
    dirs.push([source, st.mtimeMs]);
    for (const e of readdirSync(path, { recursive: true, withFileTypes: true })) {
      const rel = join(e.parentPath, e.name).slice(root.length + 1);
      const s = statSync(join(root, rel));
      if (e.isDirectory()) dirs.push([rel, s.mtimeMs]);
      else if (e.isFile()) files.push([rel, s.size, s.mtimeMs]);
    }
  }
  const byPath = (a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
  return { files: files.sort(byPath), dirs: dirs.sort(byPath) };
}

const NO_THROW = { throwIfNoEntry: false };

/**
 * `{ state: 'current' }`: run the compiled output. `missing`: nothing compiled (e.g.
 * `npm ci --omit=dev`, or a compile that did not finish). `stale`: compiled, but the
 * sources changed since; `changed` names the first path found different.
 */
export function compiledState(repoRoot) {
  const root = resolve(repoRoot) + sep;
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(root + STAMP, 'utf8'));
  } catch {
    return { state: 'missing' };
  }
  for (const [rel, mtime] of stamp.dirs ?? []) {
    const s = statSync(root + rel, NO_THROW);
    if (!s || s.mtimeMs !== mtime) return { state: 'stale', changed: rel };
  }
  for (const [rel, size, mtime] of stamp.files ?? []) {
    const s = statSync(root + rel, NO_THROW);
    if (!s || s.size !== size || s.mtimeMs !== mtime) return { state: 'stale', changed: rel };
  }
  return stamp.dirs?.length && stamp.files?.length ? { state: 'current' } : { state: 'stale', changed: STAMP };
}
