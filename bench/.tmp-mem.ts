import * as v8mod from 'node:v8';
const require_v8 = () => v8mod;
import { loadConfig } from '@agora/generator';
import { startServer } from '@agora/writer';
import { pino } from 'pino';
const root = process.argv[2]!;
const env = { AGORA_LOG_LEVEL: 'silent' } as Record<string, string>;
const config = loadConfig({ root, env, overrides: { port: 0, host: '127.0.0.1', site: { baseUrl: 'https://agora.example' } } });
const running = await startServer({ config, env, logger: pino({ level: 'silent' }), handleSignals: false });
await new Promise((r) => setTimeout(r, 15000));
const gc = (globalThis as any).gc as () => void;
const mem = () => { gc(); gc(); const m = process.memoryUsage(); const h = (require_v8()).getHeapStatistics(); return `phys ${Math.round(h.total_physical_size / 1048576)} malloc ${Math.round(h.malloced_memory / 1048576)} heapTotal ${Math.round(m.heapTotal / 1048576)} rss ${Math.round(m.rss / 1048576)} heapUsed ${Math.round(m.heapUsed / 1048576)} external ${Math.round(m.external / 1048576)} ab ${Math.round(m.arrayBuffers / 1048576)}`; };
console.log('caught up:', mem());
{ const fs = await import('node:fs'); const st = fs.readFileSync('/proc/self/status', 'utf8'); console.log(st.match(/Threads:.*|VmRSS:.*|RssAnon:.*|RssFile:.*/g)); }
const { postComment } = await import('./comments.ts');
const slugsAll = [...(running.state as any).site.bySlug.keys()] as string[];
let sent = 0; const t0 = Date.now();
await Promise.all(Array.from({ length: 20 }, async (_, w) => { for (let i = w; i < 2400; i += 20) { const r = await postComment(running.url, slugsAll[(i * 7919) % slugsAll.length]!, `Probe comment ${i} with some text to make it a realistic size. `.repeat(8)); if (r.status < 300) sent++; await r.arrayBuffer(); } }));
console.log('posted', sent, 'in', Date.now() - t0, 'ms');
await running.flushAggregates();
await new Promise((r) => setTimeout(r, 3000));
console.log('after load:', mem());
{ const fs = await import('node:fs'); console.log(fs.readFileSync('/proc/self/status', 'utf8').match(/Threads:.*|RssAnon:.*|RssFile:.*/g)); }
await (running.store as any).comments.files.close(); await new Promise((r) => setTimeout(r, 500)); console.log('file threads closed:', mem());
await (running.agents as any).comments.renderer.close(); await new Promise((r) => setTimeout(r, 500)); console.log('renderer closed:', mem());
{ const fs = await import('node:fs'); console.log(fs.readFileSync('/proc/self/status', 'utf8').match(/Threads:.*|RssAnon:.*|RssFile:.*/g)); }
const st: any = running.state;
const state: any = st.state ?? st;
console.log(Object.keys(st), Object.keys(state));
const site = st.site ?? state.site;
let chars = 0, htmlChars = 0, n = 0;
for (const [, list] of site.comments) for (const c of list) { n++; chars += c.body.length; htmlChars += (c.html ?? '').length; }
let postChars = 0; for (const p of site.posts) postChars += p.content.length + p.source.length;
let rend = 0; for (const [, r] of state.renderings ?? []) rend += JSON.stringify(r).length;
let rec = 0; for (const [, b] of state.records ?? []) rec += b.length;
console.log({ comments: n, bodyChars: chars, htmlChars, postChars, renderings: state.renderings?.size, rendChars: rend, recordBytes: rec });
if (state.cards) { state.cards.lists = new WeakMap(); state.cards.sections = new WeakMap(); state.cards.onPosts = new WeakMap(); state.cards.cards = new WeakMap(); console.log('cards dropped:', mem()); }
state.renderings?.clear(); console.log('renderings dropped:', mem());
state.records?.clear(); console.log('records dropped:', mem());
for (const [, list] of site.comments) for (const c of list) { c.html = ''; c.body = ''; }
console.log('comment bodies dropped:', mem());
site.memo.clear(); console.log('memo dropped:', mem());
process.exit(0);
