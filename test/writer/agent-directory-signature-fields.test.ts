/**
 * A key directory's own signature (tag `http-message-signatures-directory`) may cover
 * response fields besides `"@authority";req` (RFC 9421 2.1: any field the response
 * carries), such as `content-type` or `content-digest`. The verifier was given only the
 * response's `Signature` and `Signature-Input`, so every other covered field was signed
 * here as empty and a correctly signed directory was refused as `directory_signature`.
 * Signed by hand with node:crypto (RFC 9421 2.5), not by the library that verifies.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, createPublicKey, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { DirectoryError, KeyDirectories } from '../../packages/writer/src/agents/key-directory.ts';

const MEDIA = 'application/http-message-signatures-directory+json';

test('a directory signature covering response fields verifies with those fields as served', async (t) => {
  const { privateKey } = generateKeyPairSync('ed25519');
  const { x } = createPublicKey(privateKey).export({ format: 'jwk' }) as { x: string };
  const jwk = { kty: 'OKP', crv: 'Ed25519', x };
  const keyid = createHash('sha256').update(`{"crv":"Ed25519","kty":"OKP","x":"${x}"}`).digest('base64url');
  const body = JSON.stringify({ keys: [jwk] });
  const digest = `sha-256=:${createHash('sha256').update(body).digest('base64')}:`;
  // What the directory serves, and which of its fields the signature covers (with the value it signed).
  let served: { contentType: string; covers: [string, (host: string) => string][] } = { contentType: MEDIA, covers: [] };
  const server = createServer((req, res) => {
    const now = Math.floor(Date.now() / 1000);
    const covers: [string, (host: string) => string][] = [['"@authority";req', (host) => host], ...served.covers];
    const params = `(${covers.map(([c]) => c).join(' ')});alg="ed25519";keyid="${keyid}";nonce="${randomBytes(16).toString('base64')}";tag="http-message-signatures-directory";created=${now};expires=${now + 300}`;
    const base = [...covers.map(([c, v]) => `${c}: ${v(req.headers.host!)}`), `"@signature-params": ${params}`].join('\n');
    const signature = sign(null, Buffer.from(base), privateKey).toString('base64');
    res.writeHead(200, { 'content-type': served.contentType, 'content-digest': digest, 'cache-control': 'no-store', 'signature-input': `binding0=${params}`, signature: `binding0=:${signature}:` }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const origin = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  const directories = new KeyDirectories({ allowLoopback: true });

  // Covering @authority;req alone verified before, and still does.
  assert.equal((await directories.key(origin, keyid))?.keyid, keyid);
  served = { contentType: MEDIA, covers: [['"content-type"', () => MEDIA]] };
  assert.equal((await directories.key(origin, keyid))?.keyid, keyid, 'a signature covering content-type verifies');
  served = { contentType: MEDIA, covers: [['"content-digest"', () => digest], ['"content-type"', () => MEDIA]] };
  assert.equal((await directories.key(origin, keyid))?.keyid, keyid, 'a signature covering content-digest and content-type verifies');
  // The covered field is really checked: one served with another value than the one signed fails.
  served = { contentType: 'application/json', covers: [['"content-type"', () => MEDIA]] };
  await assert.rejects(directories.key(origin, keyid), (error: unknown) => error instanceof DirectoryError && error.check === 'directory_signature');
});
