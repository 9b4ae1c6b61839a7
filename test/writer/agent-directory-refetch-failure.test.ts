/**
 * A key missing from a cached directory is looked up again (key rotation, at most every
 * 30 s). When that lookup failed (the directory answering 500 for a moment, or slow), its
 * failure replaced the cached directory, so for 10 s every signature of that agent, by
 * keys the fresh cached copy lists, answered 401 directory_unreachable; and anyone may
 * send a signature naming an unknown keyid under another agent's origin. The cached
 * directory now stays for its freshness; the lookup that failed is told why.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { DirectoryError, KeyDirectories } from '../../packages/writer/src/agents/key-directory.ts';

test('a failed lookup of a missing key leaves the fresh cached directory in place', async (t) => {
  const { x } = createPublicKey(generateKeyPairSync('ed25519').privateKey).export({ format: 'jwk' }) as { x: string };
  const keyid = createHash('sha256').update(`{"crv":"Ed25519","kty":"OKP","x":"${x}"}`).digest('base64url');
  let status = 200;
  let fetches = 0;
  const server = createServer((_req, res) => {
    fetches++;
    if (status !== 200) return void res.writeHead(status).end();
    res.writeHead(200, { 'content-type': 'application/http-message-signatures-directory+json', 'cache-control': 'max-age=600' }).end(JSON.stringify({ keys: [{ kty: 'OKP', crv: 'Ed25519', x }] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const origin = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  let clock = Date.now();
  const directories = new KeyDirectories({ allowLoopback: true, now: () => clock });

  assert.equal((await directories.key(origin, keyid))?.keyid, keyid);
  clock += 31_000;
  status = 500;
  // Someone names a key the directory does not list: it is looked up again, and that fails.
  await assert.rejects(directories.key(origin, 'no-such-key'), (error: unknown) => error instanceof DirectoryError && error.check === 'directory_unreachable');
  assert.equal(fetches, 2);
  // The agent's own key, listed by the copy still fresh for 569 s, keeps verifying, without a fetch.
  assert.equal((await directories.key(origin, keyid))?.keyid, keyid);
  assert.equal(fetches, 2);
  // The failed lookup counts as one: the missing key is not looked up again within 30 s.
  assert.equal(await directories.key(origin, 'no-such-key'), null);
  assert.equal(fetches, 2);
  // Once its freshness ends, the directory is fetched again (and its failure is the answer).
  clock += 600_000;
  await assert.rejects(directories.key(origin, keyid), (error: unknown) => error instanceof DirectoryError && error.check === 'directory_unreachable');
  assert.equal(fetches, 3);
});
