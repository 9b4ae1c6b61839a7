#!/usr/bin/env node
/**
 * `npm run compile` (also run by `npm ci` and `npm install` through "prepare"): the
 * TypeScript of bin/cli.ts and packages/*\/src compiled by tsc (tsconfig.build.json:
 * JavaScript only, no type check) into .build/, the files read at run time copied
 * beside it (emit/assets/*), each tree moved into place (packages/*\/lib, bin/lib),
 * then the freshness stamp written last (bin/freshness.mjs). Without TypeScript
 * (`npm ci --omit=dev`) it compiles nothing and the CLI runs the sources through tsx.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourceState, STAMP } from './freshness.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const at = (path) => join(root, path);
const OUT = '.build';
/** Compiled tree → where it runs from. */
const TREES = [
  ['packages/generator/src', 'packages/generator/lib'],
  ['packages/writer/src', 'packages/writer/lib'],
  ['bin', 'bin/lib'],
];
/** Plain JavaScript that only the tsx runs use: the worker bootstraps register tsx, then load the .ts worker. */
const TSX_ONLY = /-entry\.mjs$/;

let tsc;
try {
  tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
} catch {
  console.warn('agora compile: TypeScript is not installed (npm ci --omit=dev?); nothing compiled, `agora` runs the sources through tsx');
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
for (const [src] of TREES.slice(0, 2)) {
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
rmSync(at(OUT), { recursive: true, force: true });

// One line per path: small to read at every start, and a diff of two stamps shows what changed.
const lines = (list) => list.map((entry) => `    ${JSON.stringify(entry)}`).join(',\n');
writeFileSync(at(STAMP), `{\n  "compiledAt": ${JSON.stringify(new Date().toISOString())},\n  "dirs": [\n${lines(state.dirs)}\n  ],\n  "files": [\n${lines(state.files)}\n  ]\n}\n`);
console.log(`agora compile: ${state.files.length} source files compiled into packages/*/lib and bin/lib in ${((performance.now() - started) / 1000).toFixed(1)} s`);
