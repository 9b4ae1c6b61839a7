/** Machine description, flags, and plain-text tables for the bench scripts. */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { cpus, totalmem, availableParallelism, platform, release } from 'node:os';

export function machine() {
  return {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: availableParallelism(),
    memoryGB: Number((totalmem() / 1024 ** 3).toFixed(1)),
    node: process.version,
    os: `${platform()} ${release()}`,
    date: new Date().toISOString(),
  };
}

/** `--name value` or `--name=value`, else the environment variable, else undefined. */
export function flag(name: string, env?: string): string | undefined {
  const args = process.argv.slice(2);
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === `--${name}`) {
      const v = args[i + 1];
      return v === undefined || v.startsWith('--') ? 'true' : v;
    }
    if (a.startsWith(`--${name}=`)) return a.slice(name.length + 3);
  }
  return env ? process.env[env] : undefined;
}

export type Row = [label: string, value: string, target?: string];

export function printTable(title: string, rows: readonly Row[], headers: [string, string, string] = ['figure', 'value', 'target']): void {
  const w0 = Math.max(...rows.map((r) => r[0].length), headers[0].length);
  const w1 = Math.max(...rows.map((r) => r[1].length), headers[1].length);
  console.log(`\n${title}`);
  console.log(`${headers[0].padEnd(w0)}  ${headers[1].padStart(w1)}  ${headers[2]}`);
  console.log(`${'-'.repeat(w0)}  ${'-'.repeat(w1)}  ${'-'.repeat(headers[2].length)}`);
  for (const [label, value, target] of rows) console.log(`${label.padEnd(w0)}  ${value.padStart(w1)}  ${target ?? ''}`);
}

export const ms = (n: number) => `${Math.round(n).toLocaleString('en-US')} ms`;
export const s = (n: number) => `${(n / 1000).toFixed(2)} s`;
export const x = (n: number) => `${n.toFixed(2)}×`;

/** sha1 over the product's sources (packages/*\/src), to tie figures to a code state without git. */
export function codeFingerprint(repoRoot: string): { sha1: string; files: number; newest: string } {
  const hash = createHash('sha1');
  let files = 0;
  let newest = 0;
  for (const pkg of ['generator', 'writer']) {
    const dir = join(repoRoot, 'packages', pkg, 'src');
    const names = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name)).sort();
    for (const name of names) {
      hash.update(name.slice(repoRoot.length)).update(readFileSync(name));
      newest = Math.max(newest, statSync(name).mtimeMs);
      files++;
    }
  }
  return { sha1: hash.digest('hex').slice(0, 12), files, newest: new Date(newest).toISOString() };
}

/** `KEY=VALUE,KEY=VALUE` (a `--env` flag) as an environment for the writer child. */
export function envList(text: string | undefined): Record<string, string> {
  return Object.fromEntries((text ?? '').split(',').filter(Boolean).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
}
