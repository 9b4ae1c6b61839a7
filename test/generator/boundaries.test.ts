/**
 * The import-boundary rules (.dependency-cruiser.cjs, run by `npm run lint:deps` before
 * the tests) catch what they are meant to: a small tree shaped like the repository,
 * with one violation of each rule and a set of allowed imports, is checked with the
 * repository's own configuration.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, writeFile, copyFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DEPCRUISE = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

async function cruise(files: Record<string, string>): Promise<Violation[]> {
  const dir = await mkdtemp(join(tmpdir(), 'agora-boundaries-'));
  try {
    await copyFile(join(ROOT, '.dependency-cruiser.cjs'), join(dir, '.dependency-cruiser.cjs'));
    await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', allowImportingTsExtensions: true, noEmit: true } }));
    for (const [path, text] of Object.entries(files)) {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), text);
    }
    const stdout = await new Promise<string>((resolve, reject) => {
      // Exit code 1 means "violations found": the JSON report is what is checked.
      execFile(process.execPath, [DEPCRUISE, '--config', '.dependency-cruiser.cjs', '--output-type', 'json', 'packages', 'bin'], { cwd: dir, maxBuffer: 16 << 20 }, (error, out) => {
        if (error && !out) reject(error);
        else resolve(out);
      });
    });
    return (JSON.parse(stdout) as { summary: { violations: Violation[] } }).summary.violations;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const names = (violations: Violation[]) => violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();

test('each boundary rule reports its violation, naming the files', async () => {
  const violations = await cruise({
    'packages/generator/src/types.ts': 'export type Post = { slug: string };\n',
    'packages/generator/src/paths.ts': "import { page } from './render/page.ts';\nexport const p = page;\n",
    'packages/generator/src/build.ts': "export const build = 1;\n",
    'packages/generator/src/load/read.ts': "import { emitAll } from '../emit/out.ts';\nexport const read = emitAll;\n",
    'packages/generator/src/model/site.ts': "import { build } from '../build.ts';\nexport const site = build;\n",
    'packages/generator/src/render/page.ts': "import type { Post } from '../types.ts';\nexport const page = (p: Post) => p.slug;\n",
    'packages/generator/src/emit/out.ts': "import { page } from '../render/page.ts';\nexport const emitAll = page;\n",
    'packages/generator/src/emit/a.ts': "import { b } from './b.ts';\nexport const a = () => b;\n",
    'packages/generator/src/emit/b.ts': "import { a } from './a.ts';\nexport const b = () => a;\n",
    'packages/generator/src/render/uses-writer.ts': "import { w } from '../../../writer/src/index.ts';\nexport const u = w;\n",
    'packages/writer/src/index.ts': "export const w = 1;\n",
    'packages/writer/src/deep.ts': "import { page } from '../../generator/src/render/page.ts';\nexport const d = page;\n",
    'packages/writer/src/routes/r.ts': "export const r = 1;\n",
    'packages/writer/src/store/s.ts': "import { r } from '../routes/r.ts';\nexport const s = r;\n",
    'packages/writer/src/upstream/u.ts': "import { s } from '../store/s.ts';\nexport const u = s;\n",
    'bin/cli.ts': "import { w } from '../packages/writer/src/index.ts';\nimport { t } from '../test/t.ts';\nexport const c = [w, t];\n",
    'test/t.ts': 'export const t = 1;\n',
  });
  assert.deepEqual(names(violations), [
    'foundation-is-a-leaf: packages/generator/src/paths.ts → packages/generator/src/render/page.ts',
    'generator-does-not-import-writer: packages/generator/src/render/uses-writer.ts → packages/writer/src/index.ts',
    'layer-load: packages/generator/src/load/read.ts → packages/generator/src/emit/out.ts',
    'layers-do-not-import-the-build: packages/generator/src/model/site.ts → packages/generator/src/build.ts',
    'no-circular: packages/generator/src/emit/a.ts → packages/generator/src/emit/b.ts',
    'no-deep-imports-into-another-package: bin/cli.ts → packages/writer/src/index.ts',
    'no-deep-imports-into-another-package: packages/generator/src/render/uses-writer.ts → packages/writer/src/index.ts',
    'no-deep-imports-into-another-package: packages/writer/src/deep.ts → packages/generator/src/render/page.ts',
    'packages-do-not-import-tests-or-benches: bin/cli.ts → test/t.ts',
    'writer-store-is-a-leaf: packages/writer/src/store/s.ts → packages/writer/src/routes/r.ts',
    'writer-upstream-is-a-leaf: packages/writer/src/upstream/u.ts → packages/writer/src/store/s.ts',
  ]);
});

test('imports down the layers, type-only imports of foundation types, and same-package imports pass', async () => {
  const violations = await cruise({
    'packages/generator/src/types.ts': "import type { Catalog } from './catalog/types.ts';\nexport type Post = { slug: string; catalog?: Catalog };\n",
    'packages/generator/src/catalog/types.ts': 'export type Catalog = { version: number };\n',
    'packages/generator/src/load/read.ts': "import type { Post } from '../types.ts';\nexport const read = (p: Post) => p;\n",
    'packages/generator/src/validate/check.ts': "import { read } from '../load/read.ts';\nexport const check = read;\n",
    'packages/generator/src/model/site.ts': "import { check } from '../validate/check.ts';\nexport const site = check;\n",
    'packages/generator/src/render/page.ts': "import { site } from '../model/site.ts';\nexport const page = site;\n",
    'packages/generator/src/emit/out.ts': "import { page } from '../render/page.ts';\nimport { read } from '../load/read.ts';\nexport const out = [page, read];\n",
    'packages/generator/src/build.ts': "import { out } from './emit/out.ts';\nexport const build = out;\n",
    'packages/writer/src/store/s.ts': "import { e } from '../errors.ts';\nexport const s = e;\n",
    'packages/writer/src/errors.ts': 'export const e = 1;\n',
    'packages/writer/src/upstream/u.ts': "import { e } from '../errors.ts';\nexport const u = e;\n",
    'packages/writer/src/routes/r.ts': "import { s } from '../store/s.ts';\nimport { u } from '../upstream/u.ts';\nexport const r = [s, u];\n",
    'bin/cli.ts': 'export const c = 1;\n',
  });
  assert.deepEqual(names(violations), []);
});
