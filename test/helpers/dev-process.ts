/**
 * `bin/agora dev` as a child process in a test project, as an author runs it: its output
 * as it comes, and a stop that waits for it to exit.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { REPO_ROOT, type TestProject } from './project.ts';

export interface DevProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Wait until `done()` (60 s at most), or fail saying `what` with the output so far. */
  until(what: string, done: () => boolean, ms?: number): Promise<void>;
  /** The URL once dev serves. */
  url(): Promise<string>;
  stop(): Promise<void>;
}

export function startDev(project: TestProject, env: Record<string, string> = {}, port = 0): DevProcess {
  const child = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'agora'), 'dev', '-H', '127.0.0.1', '-p', String(port)], {
    cwd: project.root,
    env: { ...process.env, AGORA_SEARCH_INDEX: '0', LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const until = async (what: string, done: () => boolean, ms = 60_000) => {
    const deadline = Date.now() + ms;
    while (!done() && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 50));
    if (!done()) throw new Error(`${what}: not seen (exit ${child.exitCode}; stdout: ${stdout}; stderr: ${stderr})`);
  };
  const serving = /Agora is serving (\S+)/;
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    until,
    url: async () => {
      await until('dev serving', () => serving.test(stdout));
      return serving.exec(stdout)![1]!;
    },
    stop: async () => {
      child.kill('SIGTERM');
      if (child.exitCode === null) await once(child, 'exit');
    },
  };
}
