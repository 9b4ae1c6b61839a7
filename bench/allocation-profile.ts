/**
 * Where the writer's main thread allocates (what its collector works through):
 * `BENCH_ALLOC_FILE=/tmp/alloc.json node --import tsx bench/writer-phases.ts <root> --phases 1`
 * samples every allocation of the writer's main thread from when it has caught up to
 * its close, garbage included (`server-child.ts`), then `node --import tsx bench/allocation-profile.ts /tmp/alloc.json [--top 25]`
 * prints the bytes by allocating function and by the nearest two functions of this
 * repository on the stack (`packages/…/lib`), with the share of the total.
 */
import { readFileSync } from 'node:fs';
import { flag } from './report.ts';

interface Frame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface SamplingNode {
  callFrame: Frame;
  selfSize: number;
  children?: SamplingNode[];
}

const file = process.argv[2];
if (!file || file.startsWith('--')) throw new Error('usage: allocation-profile.ts <profile.json> [--top 25]');
const top = Number(flag('top') ?? 25);
const { head } = JSON.parse(readFileSync(file, 'utf8')) as { head: SamplingNode };

const short = (url: string) => url.replace(/^.*node_modules\//, 'npm:').replace(/^.*\/packages\//, '').replace(/^file:\/\//, '');
const nameOf = (f: Frame) => `${f.functionName || '(anonymous)'} ${short(f.url)}:${f.lineNumber + 1}`;
const ours = (f: Frame) => f.url.includes('/packages/') && !f.url.includes('node_modules');

const bySelf = new Map<string, number>();
const byOurs = new Map<string, number>();
let total = 0;
const add = (map: Map<string, number>, key: string, bytes: number) => map.set(key, (map.get(key) ?? 0) + bytes);
// Iterative: the stacks of a writer are deep enough for recursion to be a risk.
const stack: { node: SamplingNode; path: Frame[] }[] = [{ node: head, path: [] }];
while (stack.length > 0) {
  const { node, path } = stack.pop()!;
  const here = [...path, node.callFrame];
  if (node.selfSize > 0) {
    total += node.selfSize;
    add(bySelf, nameOf(node.callFrame), node.selfSize);
    const nearest = here.filter(ours).slice(-2).reverse().map(nameOf);
    add(byOurs, nearest.join(' ← ') || '(no repository function on the stack)', node.selfSize);
  }
  for (const child of node.children ?? []) stack.push({ node: child, path: here });
}

const table = (map: Map<string, number>) =>
  [...map].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, v]) => `${(v / 1048576).toFixed(0).padStart(6)} MB ${((100 * v) / total).toFixed(1).padStart(5)} %  ${k}`).join('\n');
console.log(`${(total / 1048576).toFixed(0)} MB allocated (sampled)\n\nby allocating function:\n${table(bySelf)}\n\nby the nearest repository functions:\n${table(byOurs)}`);
