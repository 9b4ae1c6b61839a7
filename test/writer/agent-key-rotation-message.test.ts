/**
 * A key an agent has just added to its directory is not in the writer's cached copy until
 * that copy is 30 s old (key rotation). The refusal said "the key directory … lists no key
 * with thumbprint …", a claim about the directory the agent can see is false; it now says
 * how old the copy it consulted is and when a missing key is looked up again.
 * Signed by hand with node:crypto (RFC 9421 2.5), not by the library that verifies.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, createPublicKey, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { KeyDirectories } from '../../packages/writer/src/agents/key-directory.ts';
import { verifyAgentRequest } from '../../packages/writer/src/agents/verify-signature.ts';
import { isAppError } from '../../packages/writer/src/errors.ts';
import type { AgentStore } from '../../packages/writer/src/store/types.ts';

function ed25519(): { privateKey: KeyObject; jwk: JsonWebKey; keyid: string } {
  const { privateKey } = generateKeyPairSync('ed25519');
  const { x } = createPublicKey(privateKey).export({ format: 'jwk' }) as { x: string };
  return { privateKey, jwk: { kty: 'OKP', crv: 'Ed25519', x }, keyid: createHash('sha256').update(`{"crv":"Ed25519","kty":"OKP","x":"${x}"}`).digest('base64url') };
}

test('a key missing from a recent cached copy is refused naming the copy, not the directory', async (t) => {
  const first = ed25519();
  const added = ed25519();
  let listed = [first.jwk];
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/http-message-signatures-directory+json', 'cache-control': 'max-age=600' }).end(JSON.stringify({ keys: listed })));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let clock = Date.now();
  const directories = new KeyDirectories({ allowLoopback: true, now: () => clock });
  const agents = { blocks: async () => [], claimNonce: async () => true } as unknown as AgentStore;
  const verify = (key: ReturnType<typeof ed25519>) => {
    const now = Math.floor(clock / 1000);
    const agent = JSON.stringify(origin);
    const params = `("@authority" "signature-agent");created=${now};expires=${now + 60};keyid="${key.keyid}";nonce="${randomBytes(16).toString('base64')}";tag="web-bot-auth"`;
    const base = `"@authority": writer.example\n"signature-agent": ${agent}\n"@signature-params": ${params}`;
    const headers: Record<string, string> = { 'signature-agent': agent, 'signature-input': `sig1=${params}`, signature: `sig1=:${sign(null, Buffer.from(base), key.privateKey).toString('base64')}:` };
    return verifyAgentRequest({ method: 'POST', url: '/api/comments/x', protocol: 'https', host: 'writer.example', header: (n) => headers[n.toLowerCase()], headers: () => headers }, { directories, agents, hosts: ['writer.example'], now: () => clock });
  };

  assert.deepEqual(await verify(first), { origin, keyid: first.keyid });
  listed = [first.jwk, added.jwk];
  clock += 5_000;
  await assert.rejects(verify(added), (error: unknown) => {
    assert.ok(isAppError(error));
    assert.equal((error as { details?: { check?: string } }).details?.check, 'keyid');
    assert.match(error.message, /\(as fetched 5 s ago; a key missing from it is looked up again once the copy is 30 s old\) lists no key with thumbprint/);
    return true;
  });
  clock += 26_000;
  assert.deepEqual(await verify(added), { origin, keyid: added.keyid }, 'looked up again after 30 s');
});
