/**
 * One post edited in a running `agora dev` (the long-lived `SiteBuild`), in its own
 * process: `node --import tsx --conditions=agora-source bench/dev-edit-child.ts <root> [--edits 7]`. Builds the
 * site, then appends a sentence to one post and calls `updateSources` with that file,
 * as the chokidar watcher does; prints one JSON line with every edit's time and files
 * written. The first edit warms the JIT; the median of the rest is the figure.
 */
import { appendFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig, build } from '@agora/generator';

const [root, ...rest] = process.argv.slice(2);
if (!root) {
  console.error('usage: dev-edit-child.ts <root> [--edits N]');
  process.exit(2);
}
const edits = rest.includes('--edits') ? Number(rest[rest.indexOf('--edits') + 1]) : 7;
const config = loadConfig({ root, env: {}, overrides: { port: 0, host: '127.0.0.1', site: { baseUrl: 'https://agora.example' } } });
// Long-lived, as `agora dev` builds it: renderings and records stay in memory for the edits.
const { state } = await build(config, { longLived: true });
const dir = join(config.contentDir, 'posts');
const file = join(dir, readdirSync(dir).filter((f) => f.endsWith('.md')).sort()[Math.floor(readdirSync(dir).length / 2)]!);
const runs: { ms: number; written: number; rendered: number }[] = [];
for (let i = 0; i < edits; i++) {
  appendFileSync(file, `\nA sentence added by the dev-edit benchmark, number ${i}.\n`);
  const started = performance.now();
  const result = await state.updateSources([file]);
  runs.push({ ms: performance.now() - started, written: result.written.length, rendered: result.rendered });
}
await state.close();
const timed = runs.slice(1).map((r) => r.ms).sort((a, b) => a - b);
console.log(JSON.stringify({ ok: true, medianMs: timed[Math.floor(timed.length / 2)] ?? runs[0]!.ms, maxMs: timed.at(-1) ?? runs[0]!.ms, written: runs.at(-1)!.written, rendered: runs.at(-1)!.rendered, runs }));
