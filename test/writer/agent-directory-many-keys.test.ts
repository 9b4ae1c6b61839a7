/**
 * A key directory is read up to its first 100 keys. A key listed after them was refused
 * 401 `keyid` "the key directory … lists no key with thumbprint …", which the directory
 * does list; it is now 401 `directory_invalid` saying how many keys it lists and that
 * only the first 100 are read. Keys among the first 100 verify as before.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { DirectoryError, KeyDirectories } from '../../packages/writer/src/agents/key-directory.ts';

function ed25519(): { jwk: JsonWebKey; keyid: string } {
  const { x } = createPublicKey(generateKeyPairSync('ed25519').privateKey).export({ format: 'jwk' }) as { x: string };
  return { jwk: { kty: 'OKP', crv: 'Ed25519', x }, keyid: createHash('sha256').update(`{"crv":"Ed25519","kty":"OKP","x":"${x}"}`).digest('base64url') };
}

test('a key listed past the first 100 of a directory is not called absent', async (t) => {
  const keys = Array.from({ length: 150 }, ed25519);
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/http-message-signatures-directory+json' }).end(JSON.stringify({ keys: keys.map((k) => k.jwk) })));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const origin = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  const directories = new KeyDirectories({ allowLoopback: true });

  assert.equal((await directories.key(origin, keys[99]!.keyid))?.keyid, keys[99]!.keyid, 'the 100th key is read');
  await assert.rejects(directories.key(origin, keys[120]!.keyid), (error: unknown) => {
    assert.ok(error instanceof DirectoryError);
    assert.equal(error.check, 'directory_invalid');
    assert.match(error.message, /lists 150 keys; only the first 100 are read/);
    return true;
  });
});
