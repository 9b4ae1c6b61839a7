/**
 * Run the real CLI, `node bin/agora --root <root> …`, as a user would, timed, with its
 * peak RSS sampled from /proc (VmHWM, last read ~50 ms before exit). `env` is added to
 * a clean environment (no AGORA_* or DATABASE_URL from the shell), so the engine is
 * what the caller asks for.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from './child.ts';
import { sampleRss } from './rss.ts';
import { round } from './stats.ts';

export interface CliRun {
  command: string;
  wallMs: number;
  /** Peak RSS (VmHWM) of the CLI process, MB; 0 when it could not be read. */
  peakRssMB: number;
  code: number | null;
  /** Last line of stdout (the command's summary). */
  said: string;
}

/** The environment for a product process: the shell's, minus store and AGORA_ settings, plus `extra`. */
export function productEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('AGORA_') && k !== 'DATABASE_URL') env[k] = v;
  // The base URL the bench's writer nodes use (server-child.ts): a CLI build with another
  // one would make every page differ, and each writer start re-emit the whole site.
  return { ...env, LOG_LEVEL: 'warn', AGORA_BASE_URL: 'https://agora.example', ...extra };
}

export async function runAgora(root: string, args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  const started = performance.now();
  const child = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'agora'), '--root', root, ...args], {
    cwd: REPO_ROOT, env: productEnv(env), stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stop = sampleRss(child.pid ?? -1, 50);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const code = await new Promise<number | null>((resolve, reject) => child.once('error', reject).once('close', resolve));
  const wallMs = performance.now() - started;
  const rss = await stop();
  const command = `agora --root ${root} ${args.join(' ')}`;
  if (code !== 0) throw new Error(`${command} exited with ${code}: ${stderr.trim().split('\n').slice(-5).join('\n')}`);
  return { command, wallMs: round(wallMs, 0), peakRssMB: rss.hwmMB, code, said: stdout.trim().split('\n').pop() ?? '' };
}
