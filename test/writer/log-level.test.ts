/**
 * `LOG_LEVEL` like the other settings: blank means the default (a blank line in an
 * EnvironmentFile), a level in any case works, and anything else stops the start with a
 * message naming `LOG_LEVEL`. A blank one stopped `agora start` with pino's
 * "default level: must be included in custom levels", which names no setting.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createLogger } from '@agora/writer';
import { makeProject, REPO_ROOT } from '../helpers/project.ts';

const run = promisify(execFile);

test('createLogger: a blank level is the default, a level in capitals works, anything else names LOG_LEVEL', () => {
  assert.equal(createLogger({ level: '', pretty: false }).level, 'info');
  assert.equal(createLogger({ level: '  ', pretty: false }).level, 'info');
  assert.equal(createLogger({ level: 'WARN', pretty: false }).level, 'warn');
  assert.equal(createLogger({ level: 'silent', pretty: false }).level, 'silent');
  assert.throws(() => createLogger({ level: 'loud', pretty: false }), /^Error: Unexpected LOG_LEVEL "loud", expected one of fatal, error, warn, info, debug, trace, silent/);
  assert.throws(() => createLogger({ level: 'warning', pretty: false }), /LOG_LEVEL "warning"/);
});

test('agora start with a LOG_LEVEL it cannot use ends at once, naming it', { timeout: 60_000 }, async (t) => {
  const project = await makeProject({ samplePosts: true });
  t.after(() => project.remove());
  const outcome = await run(process.execPath, [join(REPO_ROOT, 'bin', 'agora'), '--root', project.root, 'start', '-p', '0'], { env: { ...process.env, LOG_LEVEL: 'loud' }, timeout: 30_000 }).then(
    () => ({ code: 0, stderr: '' }),
    (error: { code: number | null; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
  );
  assert.equal(outcome.code, 1);
  assert.match(outcome.stderr, /^agora: Unexpected LOG_LEVEL "loud", expected one of /m);
});
