import { appendFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Session } from 'node:inspector/promises';
import { loadConfig, build } from '@agora/generator';
const root = process.argv[2]!;
const config = loadConfig({ root, env: { AGORA_SEARCH_INDEX: '0' }, overrides: { port: 0, host: '127.0.0.1', site: { baseUrl: 'https://agora.example' } } });
const { state } = await build(config, { longLived: true });
const dir = join(config.contentDir, 'posts');
const names = readdirSync(dir).filter((f) => f.endsWith('.md')).sort();
const file = join(dir, names[Math.floor(names.length / 2)]!);
for (let i = 0; i < 2; i++) { appendFileSync(file, `\nwarm ${i}\n`); const t = performance.now(); await state.updateSources([file]); console.log('warm', Math.round(performance.now() - t)); }
const session = new Session(); session.connect();
await session.post('Profiler.enable'); await session.post('Profiler.setSamplingInterval', { interval: 200 }); await session.post('Profiler.start');
for (let i = 0; i < 5; i++) { appendFileSync(file, `\nprof ${i}\n`); const t = performance.now(); await state.updateSources([file]); console.log('edit', Math.round(performance.now() - t)); }
const { profile } = await session.post('Profiler.stop');
writeFileSync('/dev/shm/authors/edit.cpuprofile', JSON.stringify(profile));
// self time by function
const self = new Map<string, number>();
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const dt = profile.timeDeltas!; const samples = profile.samples!;
const total = new Map<number, number>();
for (let i = 0; i < samples.length; i++) total.set(samples[i]!, (total.get(samples[i]!) ?? 0) + (dt[i] ?? 0));
for (const [id, us] of total) { const n = byId.get(id)!; const k = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber}`; self.set(k, (self.get(k) ?? 0) + us); }
// inclusive
const parent = new Map<number, number>(); for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const incl = new Map<string, number>();
for (const [id, us] of total) { const seen = new Set<string>(); let cur: number | undefined = id; while (cur !== undefined) { const n = byId.get(cur)!; const k = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber}`; if (!seen.has(k)) { incl.set(k, (incl.get(k) ?? 0) + us); seen.add(k); } cur = parent.get(cur); } }
console.log('SELF'); for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(Math.round(v / 1000 / 5), k);
console.log('INCL'); for (const [k, v] of [...incl].sort((a, b) => b[1] - a[1]).slice(0, 45)) console.log(Math.round(v / 1000 / 5), k);
await state.close();
