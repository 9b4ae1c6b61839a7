/**
 * A signing agent for tests (Web Bot Auth): a real Ed25519 key pair, its key directory
 * served at `http://127.0.0.1:<port>/.well-known/http-message-signatures-directory`
 * (signed by its own key for the authority it is asked under, as the draft asks, unless
 * told otherwise), and request
 * signatures made by the `web-bot-auth` package exactly as an agent would.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { webcrypto } from 'node:crypto';
import { signatureHeaders, directoryResponseHeaders, HTTP_MESSAGE_SIGNATURES_DIRECTORY, MediaType } from 'web-bot-auth';
import { Ed25519Signer, signerFromJWK } from 'web-bot-auth/crypto';

export interface TestAgent {
  /** `http://127.0.0.1:<port>`: what `Signature-Agent` names. */
  origin: string;
  /** The JWK thumbprint of the key. */
  keyid: string;
  signer: Ed25519Signer;
  /** Directory fetches so far. */
  fetches: number;
  /** What the directory answers (status, extra headers, body override); reset with `{}`. */
  answer: { status?: number; headers?: Record<string, string>; body?: string; unsigned?: boolean; badSignature?: boolean; delayMs?: number; jwkExtra?: Record<string, unknown> };
  /**
   * Headers of a request to `url` signed by this agent.
   *
   * @param url The full URL the request goes to (its authority is signed).
   * @param options Override created/expires (s from now), the nonce, or the Signature-Agent value.
   */
  sign(url: string, options?: SignOptions): Promise<Record<string, string>>;
  close(): Promise<void>;
}

/** How to sign: created/expires (s from now), the nonce, the Signature-Agent value, and, signed with http-message-sig directly, another tag, more components (with the request `method` and `headers` they cover) or a stated `alg`. */
export interface SignOptions {
  createdS?: number;
  expiresS?: number;
  nonce?: string;
  signatureAgent?: string;
  tag?: string;
  components?: string[];
  alg?: string;
  method?: string;
  headers?: Record<string, string>;
}

/** A fresh Ed25519 key pair as JWKs. */
export async function ed25519Keys(): Promise<{ privateJwk: JsonWebKey; publicJwk: JsonWebKey }> {
  const pair = (await webcrypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
  const privateJwk = (await webcrypto.subtle.exportKey('jwk', pair.privateKey)) as JsonWebKey;
  const publicJwk = (await webcrypto.subtle.exportKey('jwk', pair.publicKey)) as JsonWebKey;
  return { privateJwk, publicJwk: { kty: publicJwk.kty!, crv: publicJwk.crv!, x: publicJwk.x! } };
}

/** Start a signing agent with its key directory on a loopback port. */
export async function startTestAgent(): Promise<TestAgent> {
  const { privateJwk, publicJwk } = await ed25519Keys();
  const signer = (await signerFromJWK(privateJwk)) as Ed25519Signer;
  const other = (await signerFromJWK((await ed25519Keys()).privateJwk)) as Ed25519Signer;
  const agent = { fetches: 0, answer: {} } as TestAgent;
  const server: Server = createServer(async (req, res) => {
    agent.fetches++;
    const a = agent.answer;
    if (a.delayMs) await new Promise((r) => setTimeout(r, a.delayMs));
    if (req.url !== HTTP_MESSAGE_SIGNATURES_DIRECTORY) return void res.writeHead(404).end();
    const headers: Record<string, string> = { 'content-type': MediaType.HTTP_MESSAGE_SIGNATURES_DIRECTORY, 'cache-control': 'max-age=60', ...(a.headers ?? {}) };
    if (!a.unsigned) {
      const now = new Date();
      const signed = await directoryResponseHeaders(
        { request: { method: 'GET', url: `http://${req.headers.host}${HTTP_MESSAGE_SIGNATURES_DIRECTORY}`, headers: {} }, response: { status: 200, headers: {} } },
        [a.badSignature ? Object.assign(other, { keyid: signer.keyid }) : signer],
        { created: now, expires: new Date(now.getTime() + 300_000) },
      );
      Object.assign(headers, signed);
    }
    res.writeHead(a.status ?? 200, headers).end(a.body ?? JSON.stringify({ keys: [{ ...publicJwk, ...a.jwkExtra }] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  agent.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  agent.keyid = signer.keyid;
  agent.signer = signer;
  agent.sign = async (url, options = {}) => {
    const now = Date.now();
    const signatureAgent = options.signatureAgent ?? JSON.stringify(agent.origin);
    const request = new Request(url, { method: options.method ?? 'GET', headers: { ...options.headers, 'Signature-Agent': signatureAgent } });
    const created = new Date(now + (options.createdS ?? 0) * 1000);
    const expires = new Date(now + (options.expiresS ?? 300) * 1000);
    const direct = options.tag !== undefined || options.components !== undefined || options.alg !== undefined;
    const headers = direct
      ? await (await import('http-message-sig')).signatureHeaders(request, {
          signer, keyid: signer.keyid, components: options.components ?? ['@authority', 'signature-agent'], created, expires,
          nonce: options.nonce ?? 'n-' + Math.random(), tag: options.tag ?? 'web-bot-auth', ...(options.alg ? { alg: options.alg } : {}),
        })
      : await signatureHeaders(request, signer, { created, expires, ...(options.nonce ? { nonce: options.nonce } : {}) });
    return { 'Signature-Agent': signatureAgent, Signature: headers.Signature, 'Signature-Input': headers['Signature-Input'] };
  };
  agent.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return agent;
}
