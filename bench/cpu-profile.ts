/**
 * Reading `node --cpu-prof` profiles: self time by function and by module, summed over
 * the profiles given (one per thread). Used by `profile.ts` (a cold build) and
 * `writer-profile.ts` (the writer under comment load).
 */
import { readFile } from 'node:fs/promises';
import { REPO_ROOT } from './child.ts';

interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }
interface CpuProfile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number }

/** Group a script URL: a package under node_modules, a repo file, or a Node/V8 bucket. */
export function moduleOf(url: string, fn: string): string {
  if (!url) return fn.startsWith('(') ? fn : '(native)';
  if (url.startsWith('node:')) return 'node:' + url.slice(5).split('/').slice(0, 2).join('/');
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const parts = url.slice(nm + 14).split('/');
    return (parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]) ?? url;
  }
  const path = url.replace('file://', '').replace(REPO_ROOT + '/', '');
  return path.split('/').slice(0, path.startsWith('packages/') ? 5 : 2).join('/');
}

export interface ProfileSummary {
  /** Sampled busy time (ms), idle excluded. */
  busyMs: number;
  idleMs: number;
  byFunction: Map<string, number>;
  byModule: Map<string, number>;
  /** Per profile file: busy ms and the span it was alive (ms). */
  perThread: { file: string; busyMs: number; aliveMs: number }[];
}

/** Sum the self time of these profile files. */
export async function summarizeProfiles(files: readonly string[]): Promise<ProfileSummary> {
  const summary: ProfileSummary = { busyMs: 0, idleMs: 0, byFunction: new Map(), byModule: new Map(), perThread: [] };
  for (const file of files) {
    const profile = JSON.parse(await readFile(file, 'utf8')) as CpuProfile;
    const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
    const busyBefore = summary.busyMs;
    for (let i = 0; i < profile.samples.length; i++) {
      const node = nodes.get(profile.samples[i] as number);
      const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
      if (!node) continue;
      const { functionName, url, lineNumber } = node.callFrame;
      if (functionName === '(idle)') {
        summary.idleMs += dt;
        continue;
      }
      const mod = moduleOf(url, functionName);
      const name = `${functionName || '(anonymous)'} ${mod}${url ? ':' + (lineNumber + 1) : ''}`;
      summary.byFunction.set(name, (summary.byFunction.get(name) ?? 0) + dt);
      summary.byModule.set(mod, (summary.byModule.get(mod) ?? 0) + dt);
      summary.busyMs += dt;
    }
    summary.perThread.push({ file, busyMs: summary.busyMs - busyBefore, aliveMs: (profile.endTime - profile.startTime) / 1000 });
  }
  return summary;
}

/** The `top` largest entries of a map, largest first. */
export const ranked = (m: Map<string, number>, top: number): [string, number][] => [...m].sort((a, b) => b[1] - a[1]).slice(0, top);

/** A stretch of the thread busy without a break, with where its time went. */
export interface LongTask {
  /** When it started, ms after the profile's start. */
  atMs: number;
  ms: number;
  /** Repository functions by inclusive time within the stretch, largest first. */
  frames: [string, number][];
}

/**
 * The busy stretches of one profile longer than `minMs` (consecutive samples not idle):
 * the event loop had no turn during each, so every request waited for it.
 */
export async function longTasks(file: string, minMs: number, framesPerTask = 6): Promise<LongTask[]> {
  const profile = JSON.parse(await readFile(file, 'utf8')) as CpuProfile & { nodes: (ProfileNode & { children?: number[] })[] };
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (n: ProfileNode) => `${n.callFrame.functionName || '(anonymous)'} ${moduleOf(n.callFrame.url, n.callFrame.functionName)}:${n.callFrame.lineNumber + 1}`;
  const tasks: LongTask[] = [];
  let start = -1;
  let at = 0;
  let busy = 0;
  let frames = new Map<string, number>();
  const close = () => {
    if (start >= 0 && busy >= minMs) tasks.push({ atMs: start, ms: busy, frames: ranked(frames, framesPerTask) });
    start = -1;
    busy = 0;
    frames = new Map();
  };
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i] as number;
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    at += (profile.timeDeltas[i] ?? 0) / 1000;
    const node = nodes.get(id);
    if (!node || node.callFrame.functionName === '(idle)') {
      close();
      continue;
    }
    if (start < 0) start = at;
    busy += dt;
    const seen = new Set<string>();
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
      const frame = nodes.get(n)!;
      if (!frame.callFrame.url.includes('/packages/')) continue;
      const name = label(frame);
      if (seen.has(name)) continue;
      seen.add(name);
      frames.set(name, (frames.get(name) ?? 0) + dt);
    }
  }
  close();
  return tasks;
}
