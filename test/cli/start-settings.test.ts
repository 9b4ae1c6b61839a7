/**
 * `agora start` with a setting it cannot use ends at once with a message naming the
 * setting, exit code 1: several such settings used to be read after the writer was
 * listening, and the process stayed up `starting` forever (systemd never restarted it).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { makeProject, REPO_ROOT } from '../helpers/project.ts';

const run = promisify(execFile);

test('a start with a setting it cannot use ends at once, naming it', { timeout: 120_000 }, async (t) => {
  const project = await makeProject({ samplePosts: true, catalog: true });
  t.after(() => project.remove());
  const start = async (env: NodeJS.ProcessEnv, config?: unknown) => {
    if (config !== undefined) await writeFile(join(project.root, 'agora.config.json'), JSON.stringify(config));
    const started = Date.now();
    const outcome = await run(process.execPath, [join(REPO_ROOT, 'bin', 'agora'), '--root', project.root, 'start', '-p', '0'], { env: { ...process.env, LOG_LEVEL: 'silent', ...env }, timeout: 30_000 }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number | null; killed?: boolean; stderr: string }) => ({ code: error.killed ? 'killed' : error.code, stderr: error.stderr }),
    );
    return { ...outcome, ms: Date.now() - started };
  };
  const cases: [NodeJS.ProcessEnv, unknown, RegExp][] = [
    [{ AGORA_UPSTREAM_TIMEOUT_MS: 'abc' }, undefined, /AGORA_UPSTREAM_TIMEOUT_MS/],
    [{ AGORA_UPSTREAM_RETRIES: '-1' }, undefined, /AGORA_UPSTREAM_RETRIES/],
    [{ AGORA_VIEWS_FLUSH_MS: 'abc' }, undefined, /AGORA_VIEWS_FLUSH_MS "abc"/],
    [{ AGORA_AGGREGATE_INLINE_POSTS: '-5' }, undefined, /AGORA_AGGREGATE_INLINE_POSTS "-5"/],
    [{}, { limits: { trustProxy: 'garbage' } }, /limits\.trustProxy` "garbage"/],
    [{}, { limits: { trustProxy: '10.0.0.0/33' } }, /limits\.trustProxy` "10\.0\.0\.0\/33"/],
  ];
  // Not a port problem: the host is no address of this machine (a port other than 0, which is never probed).
  const host = await run(process.execPath, [join(REPO_ROOT, 'bin', 'agora'), '--root', project.root, 'start', '-p', '45679'], { env: { ...process.env, LOG_LEVEL: 'silent', HOST: '192.0.2.77' }, timeout: 30_000 }).then(() => '', (error: { stderr: string }) => error.stderr);
  assert.match(host, /`192\.0\.2\.77` is not an address of this machine .*Set `HOST`/);
  assert.doesNotMatch(host, /Choose a free port/);
  // The flag quoted as typed (it said `NaN`).
  const typed = await run(process.execPath, [join(REPO_ROOT, 'bin', 'agora'), '--root', project.root, 'start', '-p', 'abc'], { env: { ...process.env, LOG_LEVEL: 'silent' }, timeout: 30_000 }).then(() => '', (error: { stderr: string }) => error.stderr);
  assert.match(typed, /^agora: Unexpected port `abc` \(`--port`\), expected an integer from 0 to 65535$/m);
  for (const [env, config, message] of cases) {
    const outcome = await start(env, config ?? {});
    assert.equal(outcome.code, 1, `${JSON.stringify({ env, config })}: ${outcome.stderr}`);
    assert.match(outcome.stderr, message);
    assert.doesNotMatch(outcome.stderr, /\n\s+at /, 'a message, not a stack trace');
  }
});
