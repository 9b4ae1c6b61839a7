/**
 * Key directory fetches aimed by strangers (issue 22): every refused address class,
 * IP literals and names alike (a resolver is injected so a name can resolve to any
 * address), checked on the resolved address; and the connection goes to the checked
 * address, never to a second resolution.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KeyDirectories, DirectoryError, directoryOrigin, type Resolve } from '../../packages/writer/src/agents/key-directory.ts';
import { refusedAddress } from '../../packages/writer/src/agents/address-policy.ts';
import { startTestAgent } from '../helpers/signed-agent.ts';

const REFUSED: [string, string][] = [
  ['loopback 127.0.0.1', '127.0.0.1'],
  ['loopback 127.8.9.10', '127.8.9.10'],
  ['loopback ::1', '::1'],
  ['private 10/8', '10.1.2.3'],
  ['private 172.16/12', '172.16.0.1'],
  ['private 172.31/12 end', '172.31.255.254'],
  ['private 192.168/16', '192.168.1.1'],
  ['link-local 169.254/16 (cloud metadata)', '169.254.169.254'],
  ['link-local fe80::/10', 'fe80::1'],
  ['IPv4-mapped IPv6 of a private address', '::ffff:10.0.0.1'],
  ['IPv4-mapped IPv6 of loopback', '::ffff:127.0.0.1'],
  ['unique local fc00::/7', 'fc00::1'],
  ['unique local fd00::/8', 'fd12:3456::1'],
  ['unspecified 0.0.0.0', '0.0.0.0'],
  ['carrier-grade NAT 100.64/10', '100.64.0.1'],
  ['multicast', '224.0.0.1'],
  ['6to4 wrapping 10.0.0.1', '2002:0a00:0001::1'],
  ['IPv4-compatible IPv6 of link-local (deprecated ::a.b.c.d)', '::a9fe:a9fe'],
  ['IPv4-compatible IPv6 of a private address', '::a00:1'],
  ['IPv4-compatible IPv6 of loopback', '::7f00:1'],
  ['IPv4-compatible IPv6 of a public address', '::5db8:d70e'],
];

const check = async (directories: KeyDirectories, origin: string): Promise<string> => {
  try {
    await directories.key(new URL(origin), 'any');
    return 'fetched';
  } catch (error) {
    assert.ok(error instanceof DirectoryError, String(error));
    return error.check;
  }
};

test('address classes', () => {
  for (const [name, address] of REFUSED) assert.notEqual(refusedAddress(address, false), null, `${name} must be refused`);
  assert.equal(refusedAddress('93.184.215.14', false), null);
  assert.equal(refusedAddress('2606:4700::6810:84e5', false), null);
  assert.equal(refusedAddress('172.32.0.1', false), null, 'just outside 172.16/12 is public');
  assert.equal(refusedAddress('127.0.0.1', true), null, 'loopback only with the flag');
  assert.equal(refusedAddress('::1', true), null);
  assert.notEqual(refusedAddress('10.0.0.1', true), null, 'the flag allows loopback only');
});

test('refused before any connection: IP literals and names resolving to each class', async (t) => {
  let connections = 0;
  const trap = createServer((_req, res) => {
    connections++;
    res.end('{"keys": []}');
  });
  await new Promise<void>((r) => trap.listen(0, '127.0.0.1', r));
  t.after(() => new Promise<void>((r) => trap.close(() => r())));
  for (const [name, address] of REFUSED) {
    const resolve: Resolve = async () => [{ address, family: address.includes(':') ? 6 : 4 }];
    const directories = new KeyDirectories({ resolve });
    assert.equal(await check(directories, 'https://agent.example'), 'directory_address', `a name resolving to ${name}`);
    const literal = address.includes(':') ? `https://[${address}]` : `https://${address}`;
    assert.equal(await check(new KeyDirectories({ resolve: async () => assert.fail('an IP literal is not resolved') }), literal), 'directory_address', `the literal ${name}`);
  }
  // One bad address among good ones is enough to refuse the name.
  const mixed = new KeyDirectories({ resolve: async () => [{ address: '93.184.215.14', family: 4 }, { address: '10.0.0.1', family: 4 }] });
  assert.equal(await check(mixed, 'https://agent.example'), 'directory_address');
  // Loopback without the flag, even on the port of a live server.
  const port = (trap.address() as AddressInfo).port;
  assert.equal(await check(new KeyDirectories(), `https://127.0.0.1:${port}`), 'directory_address');
  assert.equal(connections, 0, 'no refused address was ever connected to');
});

test('only https origins; plain http only on loopback with the flag', async () => {
  assert.throws(() => directoryOrigin('ftp://agent.example', true), (e: DirectoryError) => e.check === 'directory_origin');
  assert.throws(() => directoryOrigin('http://agent.example', false), (e: DirectoryError) => e.check === 'directory_origin');
  assert.throws(() => directoryOrigin('https://agent.example/keys', false), (e: DirectoryError) => e.check === 'directory_origin');
  assert.throws(() => directoryOrigin('https://user@agent.example', false), (e: DirectoryError) => e.check === 'directory_origin');
  assert.equal(directoryOrigin('https://agent.example', false).origin, 'https://agent.example');
  // One spelling per origin: blocks and budgets are keyed by it.
  assert.equal(directoryOrigin('HTTPS://Agent.Example.:443', false).origin, 'https://agent.example');
  assert.equal(directoryOrigin('http://[::ffff:127.0.0.1]:8080', true).origin, 'http://127.0.0.1:8080');
  assert.equal(directoryOrigin('https://[::ffff:5db8:d70e]', false).origin, 'https://93.184.215.14');
  // With the flag, http is allowed only where every address is loopback.
  const publicName = new KeyDirectories({ allowLoopback: true, resolve: async () => [{ address: '93.184.215.14', family: 4 }] });
  assert.equal(await check(publicName, 'http://agent.example'), 'directory_origin');
});

test('the connection goes to the checked address: a name resolved once, by the checker', async (t) => {
  const agent = await startTestAgent();
  t.after(() => agent.close());
  const port = new URL(agent.origin).port;
  let resolutions = 0;
  const resolve: Resolve = async (hostname) => {
    resolutions++;
    assert.equal(hostname, 'agent.test');
    return [{ address: '127.0.0.1', family: 4 }];
  };
  const directories = new KeyDirectories({ allowLoopback: true, resolve });
  const key = await directories.key(new URL(`http://agent.test:${port}`), agent.keyid);
  assert.equal(key?.keyid, agent.keyid, 'agent.test (which no DNS knows) reached the checked 127.0.0.1');
  assert.equal(resolutions, 1);
  assert.equal(agent.fetches, 1);
  // Cached for the directory's max-age: no second fetch.
  await directories.key(new URL(`http://agent.test:${port}`), agent.keyid);
  assert.equal(agent.fetches, 1);
});

test('names that do not resolve answer 401; a resolver failure of this server is 503-worthy', async () => {
  const missing = new KeyDirectories({ resolve: async () => Promise.reject(Object.assign(new Error('nope'), { code: 'ENOTFOUND' })) });
  assert.equal(await check(missing, 'https://agent.example'), 'directory_unreachable');
  const broken = new KeyDirectories({ resolve: async () => Promise.reject(Object.assign(new Error('temporary'), { code: 'EAI_AGAIN' })) });
  assert.equal(await check(broken, 'https://agent.example'), 'name_resolution');
  const hanging = new KeyDirectories({ timeoutMs: 200, resolve: () => new Promise(() => {}) });
  const started = Date.now();
  assert.equal(await check(hanging, 'https://agent.example'), 'directory_unreachable');
  assert.ok(Date.now() - started < 2000, 'a resolver that never answers costs the timeout');
});
