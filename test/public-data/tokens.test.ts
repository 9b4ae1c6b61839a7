import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../helpers/project.ts';
import { configuredTokens, createToken, listTokens, revokeToken, verifyToken } from '../../packages/writer/src/public-data/tokens.ts';
import { tokenCommand } from '../../packages/writer/src/commands/token-command.ts';
import { openEmbeddedStore } from '../../packages/writer/src/store/embedded/index.ts';
import { loadConfig } from '@agora/generator';
import { startHarness } from './harness.ts';

const CALL = { service: 'corporate-info', operation: 'getCorpOutline_V2', params: { bzno: '1248100998' } };

test('agent tokens', async (t) => {
  const harness = await startHarness();
  t.after(() => harness.stop());
  const call = (headers: Record<string, string>) => harness.post('/agencatalog/api/call', CALL, headers);

  const { id, token } = await createToken(harness.store.tokens, 'research agent');

  await t.test('should store only a hash of the token', async () => {
    const text = await readFile(join(harness.dataDir, 'tokens.json'), 'utf8');
    assert.ok(!text.includes(token));
    assert.match(text, /"hash": "[0-9a-f]{64}"/);
    assert.match(token, /^agt_[A-Za-z0-9_-]{32}$/);
    assert.match(id, /^tok_[0-9a-f]{8}$/);
  });

  await t.test('should answer 401 without a token', async () => {
    const answer = await call({});
    assert.equal(answer.status, 401);
    assert.equal(answer.error.code, 'unauthorized');
    assert.equal(answer.error.field, 'X-Agent-Token');
    assert.match(answer.error.message, /header\/X-Agent-Token is required/);
  });

  await t.test('should answer 403 for an unknown token', async () => {
    const answer = await call({ 'X-Agent-Token': 'agt_not-a-real-token' });
    assert.deepEqual([answer.status, answer.error.code, answer.error.message], [403, 'forbidden', 'header/X-Agent-Token is not a known token']);
  });

  await t.test('should accept the token', async () => {
    const answer = await call({ 'X-Agent-Token': token });
    assert.equal(answer.status, 200);
    assert.equal(answer.source.operation, 'getCorpOutline_V2');
  });

  await t.test('should refuse a label that is not one line of printable text', async () => {
    for (const label of ['', '  ', 'two\nlines', 'a\tb', 'bell\u0007']) {
      await assert.rejects(createToken(harness.store.tokens, label), /Unexpected token label/, JSON.stringify(label));
    }
  });

  await t.test('should list tokens without hashes', async () => {
    const tokens = await listTokens(harness.store.tokens);
    assert.equal(tokens.length, 1);
    assert.deepEqual(Object.keys(tokens[0] ?? {}).sort(), ['created_at', 'id', 'label', 'revoked_at']);
    assert.equal(tokens[0]?.label, 'research agent');
  });

  await t.test('should answer 403 once revoked', async () => {
    assert.equal(await revokeToken(harness.store.tokens, id), true);
    assert.deepEqual(await verifyToken(harness.store.tokens, token), { status: 'revoked', id });
    const answer = await call({ 'X-Agent-Token': token });
    assert.deepEqual([answer.status, answer.error.message], [403, 'header/X-Agent-Token is revoked']);
    assert.equal(await revokeToken(harness.store.tokens, 'tok_00000000'), false);
  });
});

test('agent tokens from the environment (AGORA_AGENT_TOKENS)', async (t) => {
  const first = 'env-token-0123456789abcdef';
  const second = 'agt_second_env_token_xyz';
  const harness = await startHarness({ env: { AGORA_AGENT_TOKENS: ` ${first} ,${second}` } });
  t.after(() => harness.stop());
  const call = (token: string) => harness.post('/agencatalog/api/call', CALL, { 'X-Agent-Token': token });

  await t.test('should accept each configured token, never store it, and refuse any other', async () => {
    assert.equal((await call(first)).status, 200);
    assert.equal((await call(second)).status, 200);
    assert.equal((await call(`${first}x`)).status, 403);
    assert.deepEqual(await listTokens(harness.store.tokens), [], 'nothing stored or listed');
  });

  await t.test('should give each its own id (its quota key) from its hash', async () => {
    const check = await verifyToken(harness.store.tokens, first, configuredTokens(first));
    assert.equal(check.status, 'valid');
    assert.match(check.status === 'valid' ? check.id : '', /^env_[0-9a-f]{8}$/);
  });

  await t.test('should stop the start on a weak or empty token, naming the variable and not the token', () => {
    for (const value of ['short', `${first},`, `${first},with space in it 12345`, 'aaaaaaaaaaaaaaaaaaaa', `ababcbcdcdededed,${first}`]) {
      assert.throws(() => configuredTokens(value), (e: Error) => /^Unexpected AGORA_AGENT_TOKENS: token \d of \d/.test(e.message) && !e.message.includes(first), value);
    }
    assert.throws(() => configuredTokens(`${first},${second}, ${first}`), (e: Error) => e.message.startsWith('Unexpected AGORA_AGENT_TOKENS: token 3 of 3 repeats token 1;') && !e.message.includes(first), 'a token given twice');
    assert.throws(() => configuredTokens('aaaaaaaaaaaaaaaaaaaa'), /token 1 of 1 has fewer than 6 different characters/);
    assert.equal(configuredTokens(undefined).size, 0);
    assert.equal(configuredTokens(' ').size, 0);
  });
});

test('a weak AGORA_AGENT_TOKENS stops the writer before it builds anything', async (t) => {
  const { makeProject } = await import('../helpers/project.ts');
  const { startTestServer } = await import('../helpers/server.ts');
  const { existsSync } = await import('node:fs');
  const project = await makeProject({ samplePosts: true, catalog: true });
  t.after(() => project.remove());
  // Before: refused only after a full build (553 files written).
  await assert.rejects(startTestServer(project, { AGORA_AGENT_TOKENS: 'short' }), /Unexpected AGORA_AGENT_TOKENS: token 1 of 1/);
  assert.equal(existsSync(join(project.config.distDir, 'index.html')), false, 'nothing built');
});

test('tokenCommand', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'agora-tokens-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const run = async (...args: string[]) => {
    let out = '';
    let err = '';
    const write = process.stdout.write.bind(process.stdout);
    const writeErr = process.stderr.write.bind(process.stderr);
    process.stdout.write = ((chunk: string) => ((out += chunk), true)) as typeof process.stdout.write;
    process.stderr.write = ((chunk: string) => ((err += chunk), true)) as typeof process.stderr.write;
    try {
      await tokenCommand(() => loadConfig({ root: dataDir, env: {} })).exitOverride().parseAsync(args, { from: 'user' });
    } finally {
      process.stdout.write = write;
      process.stderr.write = writeErr;
    }
    return { out, err };
  };

  await t.test('should be named token with create, list and revoke', () => {
    const command = tokenCommand(() => loadConfig({ root: dataDir, env: {} }));
    assert.equal(command.name(), 'token');
    assert.deepEqual(command.commands.map((c) => c.name()), ['create', 'list', 'revoke']);
  });

  await t.test('should create, list and revoke through the CLI', async () => {
    const created = await run('create', '--label', 'cli agent', '--data-dir', dataDir);
    const id = /id:\s+(tok_[0-9a-f]{8})/.exec(created.out)?.[1] ?? '';
    const token = /token: (agt_\S+)/.exec(created.out)?.[1] ?? '';
    assert.ok(id && token, created.out);
    assert.match(created.out, /cannot be shown again/);
    const store = await openEmbeddedStore(dataDir, 'tool');
    assert.deepEqual(await verifyToken(store.tokens, token), { status: 'valid', id, label: 'cli agent' });
    await store.close();
    const listed = await run('list', '--data-dir', dataDir);
    assert.match(listed.out, new RegExp(`${id}\\tactive\\t.*\\tcli agent`));
    assert.ok(!listed.out.includes(token));
    const revoked = await run('revoke', id, '--data-dir', dataDir);
    assert.equal(revoked.out, `revoked ${id}\n`);
    assert.match((await run('list', '--data-dir', dataDir)).out, /\trevoked /);
  });

  await t.test('should fail with exit code 1 for an unknown id, as every command does (agora: …)', async () => {
    await writeFile(join(dataDir, 'agora.config.json'), '{}');
    await mkdir(join(dataDir, 'content', 'posts'), { recursive: true });
    const failed = await promisify(execFile)(process.execPath, [join(REPO_ROOT, 'bin', 'agora'), '--root', dataDir, 'token', 'revoke', 'tok_ffffffff', '--data-dir', dataDir]).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
    assert.equal(failed.code, 1);
    // It lacked the `agora: ` every other command's error starts with.
    assert.equal(failed.stderr, 'agora: Cannot `revoke`: no token with id `tok_ffffffff`; see `agora token list`\n');
  });
});

test('agora token uses the data folder of agora.config.json, like the server', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'agora-token-config-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  const { writeFile } = await import('node:fs/promises');
  await writeFile(join(root, 'agora.config.json'), JSON.stringify({ dataDir: 'site-data' }));
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = (() => true) as typeof process.stdout.write;
  try {
    await tokenCommand(() => loadConfig({ root, env: {} })).exitOverride().parseAsync(['create', '--label', 'configured'], { from: 'user' });
  } finally {
    process.stdout.write = write;
  }
  const stored = JSON.parse(await readFile(join(root, 'site-data', 'tokens.json'), 'utf8')) as { tokens: { label: string }[] };
  assert.deepEqual(stored.tokens.map((x) => x.label), ['configured']);
});
