/**
 * Signed agents with RSA-PSS-SHA512 keys (Web Bot Auth): the README promises RSA-PSS-SHA512
 * besides Ed25519. A directory's RSA JWK need not state `alg` (RFC 7517 4.4: optional, and
 * not part of the thumbprint); WebCrypto's own export of an RSA-PSS key does, as PS512.
 * Signatures are made by the `web-bot-auth` package as an agent would, the directory served
 * by the test on a loopback port and signed by every key it lists, as the draft has it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { webcrypto } from 'node:crypto';
import { signatureHeaders, directoryResponseHeaders, HTTP_MESSAGE_SIGNATURES_DIRECTORY, MediaType, type Signer } from 'web-bot-auth';
import { signerFromJWK } from 'web-bot-auth/crypto';
import { makeProject } from '../helpers/project.ts';
import { startTestServer, commentDoc, postComment } from '../helpers/server.ts';
import { ed25519Keys } from '../helpers/signed-agent.ts';

const SLUG = '2025-09-14-nginx-reverse-proxy-websocket-timeouts';
const LIMITS = JSON.stringify({ limits: { commentsPerIpPerMinute: 1000, agentDirectoryFetchesPerIpPerMinute: 1000 } });

async function rsaKeys(): Promise<{ privateJwk: JsonWebKey; publicJwk: JsonWebKey }> {
  const pair = (await webcrypto.subtle.generateKey({ name: 'RSA-PSS', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-512' }, true, ['sign', 'verify'])) as CryptoKeyPair;
  const privateJwk = (await webcrypto.subtle.exportKey('jwk', pair.privateKey)) as JsonWebKey;
  const publicJwk = (await webcrypto.subtle.exportKey('jwk', pair.publicKey)) as JsonWebKey;
  return { privateJwk, publicJwk: { kty: 'RSA', n: publicJwk.n!, e: publicJwk.e! } };
}

/** A key directory listing `keys`, signed by every one of `signers` (none: unsigned). */
async function serveDirectory(keys: JsonWebKey[], signers: Signer[]): Promise<{ origin: string; server: Server }> {
  const server = createServer(async (req, res) => {
    if (req.url !== HTTP_MESSAGE_SIGNATURES_DIRECTORY) return void res.writeHead(404).end();
    const now = new Date();
    const signed = signers.length === 0 ? {} : await directoryResponseHeaders(
      { request: { method: 'GET', url: `http://${req.headers.host}${HTTP_MESSAGE_SIGNATURES_DIRECTORY}`, headers: {} }, response: { status: 200, headers: {} } },
      signers,
      { created: now, expires: new Date(now.getTime() + 300_000) },
    );
    res.writeHead(200, { 'content-type': MediaType.HTTP_MESSAGE_SIGNATURES_DIRECTORY, 'cache-control': 'no-store', ...signed }).end(JSON.stringify({ keys }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

test('RSA-PSS-SHA512 agents: an RSA key without "alg" in the directory signs requests and the directory; one stating another alg is refused by name', async (t) => {
  const project = await makeProject({ samplePosts: true, files: { 'agora.config.json': LIMITS } });
  const server = await startTestServer(project, { AGORA_AGENT_DIRECTORY_ALLOW_LOOPBACK: '1' });
  const ed = await ed25519Keys();
  const rsa = await rsaKeys();
  const edSigner = await signerFromJWK(ed.privateJwk);
  const rsaSigner = await signerFromJWK(rsa.privateJwk);
  const directories: Server[] = [];
  t.after(async () => {
    await server.close();
    for (const d of directories) d.close();
    await project.remove();
  });
  const url = `${server.url}/api/comments/${SLUG}`;
  const post = async (origin: string, signer: Signer, body: string) => {
    const agent = JSON.stringify(origin);
    const now = new Date();
    const signed = await signatureHeaders(new Request(url, { headers: { 'Signature-Agent': agent } }), signer, { created: now, expires: new Date(now.getTime() + 60_000) });
    const res = await postComment(server.url, SLUG, commentDoc({}, body), { 'Signature-Agent': agent, ...signed });
    return { status: res.status, json: (await res.json()) as { agent?: { origin: string; keyid: string }; error?: { check?: string; message: string } } };
  };

  // Both keys listed (the RSA one without alg), the directory signed by both.
  const both = await serveDirectory([ed.publicJwk, rsa.publicJwk], [edSigner, rsaSigner]);
  directories.push(both.server);
  const byRsa = await post(both.origin, rsaSigner, 'An RSA-PSS-SHA512 signed supplement, long enough.');
  assert.equal(byRsa.status, 201, JSON.stringify(byRsa.json));
  assert.deepEqual(byRsa.json.agent, { origin: both.origin, keyid: rsaSigner.keyid });
  const byEd = await post(both.origin, edSigner, 'An Ed25519 signed supplement beside an RSA key, long enough.');
  assert.equal(byEd.status, 201, JSON.stringify(byEd.json));

  // The RSA key as WebCrypto exports it (alg PS512) works as before.
  const ps512 = await serveDirectory([{ ...rsa.publicJwk, alg: 'PS512' }], [rsaSigner]);
  directories.push(ps512.server);
  const withAlg = await post(ps512.origin, rsaSigner, 'An RSA signed supplement whose key states PS512.');
  assert.equal(withAlg.status, 201, JSON.stringify(withAlg.json));

  // A key its directory gives to another algorithm (RS256) is no RSA-PSS-SHA512 key: refused, naming why.
  const rs256 = await serveDirectory([{ ...rsa.publicJwk, alg: 'RS256' }], []);
  directories.push(rs256.server);
  const other = await post(rs256.origin, rsaSigner, 'An RSA signed supplement whose key states RS256.');
  assert.equal(other.status, 401, JSON.stringify(other.json));
  assert.equal(other.json.error?.check, 'alg');
  assert.match(other.json.error!.message, /RS256/);
});
