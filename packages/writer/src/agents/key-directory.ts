/**
 * `KeyDirectories`: the public keys of a signing agent, fetched from
 * `<origin>/.well-known/http-message-signatures-directory` and nothing else.
 *
 * A request names the origin (`Signature-Agent`), so the fetch is aimed by a stranger:
 * - only `https://<host>[:port]` origins (plain `http` only for loopback hosts with
 *   `allowLoopback`), no user info, path, query or fragment;
 * - every address the host resolves to must be public unicast (`address-policy.ts`),
 *   and the socket connects to those checked addresses (a `lookup` that answers them),
 *   so DNS cannot be asked twice and answer differently; IP literals are checked too;
 * - no redirect is followed; the answer must be 200 JSON `{"keys": [JWK…]}`, at most
 *   `maxBytes`, within `timeoutMs` in all (name resolution included);
 * - a directory that carries its own signature (`Signature`/`Signature-Input` with tag
 *   `http-message-signatures-directory`) must verify with one of its keys;
 * - directories are cached for their HTTP freshness less their `Age` (`Cache-Control: max-age`,
 *   `Expires`; 5 min by default, at most a day, `no-store` not at all), at most
 *   `maxEntries` origins; failures for `failureTtlMs`; concurrent fetches of one origin
 *   share one request; a new fetch first asks the caller's `beforeFetch` (the writer:
 *   a point of the sender's address budget, so a throttled client aims no fetch);
 * - an origin has one spelling (`directoryOrigin`): an IPv4-mapped IPv6 literal is its
 *   IPv4 address, a trailing dot is dropped.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { verify as verifyMessage } from 'http-message-sig';
import { jwkToKeyID, HTTP_MESSAGE_SIGNATURES_DIRECTORY } from 'web-bot-auth';
import { helpers, verifierFromJWK } from 'web-bot-auth/crypto';
import { eachSignature } from './signature-fields.ts';
import { refusedAddress } from './address-policy.ts';

/** Which step of the fetch failed: the JSON error's `check`. */
export type DirectoryCheck = 'directory_origin' | 'directory_address' | 'directory_unreachable' | 'directory_invalid' | 'directory_signature' | 'name_resolution';

/** A directory that could not be used. `name_resolution` means this server cannot resolve names (503), the rest are the agent's (401). */
export class DirectoryError extends Error {
  constructor(
    readonly check: DirectoryCheck,
    message: string,
  ) {
    super(message);
    this.name = 'DirectoryError';
  }
}

/** A resolver: every address of a name (`dns.promises.lookup` with `all: true` by default). */
export type Resolve = (hostname: string) => Promise<{ address: string; family: number }[]>;

/** Options of `KeyDirectories`. */
export interface KeyDirectoryOptions {
  /** Allow `http` and loopback addresses (`AGORA_AGENT_DIRECTORY_ALLOW_LOOPBACK=1`; tests and local development only). */
  allowLoopback?: boolean;
  /** The whole fetch, resolution included (ms, default 3000). */
  timeoutMs?: number;
  /** Largest directory body (bytes, default 64 KiB). */
  maxBytes?: number;
  /** Most origins cached (default 1000). */
  maxEntries?: number;
  /** How long a failed fetch is remembered (ms, default 10 s). */
  failureTtlMs?: number;
  resolve?: Resolve;
  now?: () => number;
}

/** One public key of a directory. */
export interface DirectoryKey {
  /** JWK thumbprint (RFC 7638), the `keyid` of signatures. */
  keyid: string;
  jwk: JsonWebKey;
}

interface Entry {
  at: number;
  until: number;
  keys?: Map<string, DirectoryKey>;
  /** Keys the directory lists past the `MAX_KEYS` read. */
  unread?: number;
  error?: DirectoryError;
}

const DIRECTORY_TAG = 'http-message-signatures-directory';
const DEFAULT_TTL_S = 300;
const MAX_TTL_S = 86_400;
/** A key missing from a cached directory is looked for again at most this often (key rotation). */
export const REFETCH_MISSING_KEY_S = 30;
const REFETCH_MISSING_KEY_MS = REFETCH_MISSING_KEY_S * 1000;
/** Keys of a directory read (and thumbprinted); the rest are not. */
export const MAX_DIRECTORY_KEYS = 100;

const defaultResolve: Resolve = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/**
 * The directory origin named by a `Signature-Agent` value (a URL), or a `directory_origin` error.
 *
 * @param value The URL as sent.
 * @param allowLoopback Whether `http:` is allowed (for loopback hosts only; checked again on the address).
 */
export function directoryOrigin(value: string, allowLoopback: boolean): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new DirectoryError('directory_origin', `Signature-Agent ${JSON.stringify(value)} is not a URL`);
  }
  if (url.protocol !== 'https:' && !(allowLoopback && url.protocol === 'http:')) throw new DirectoryError('directory_origin', `Signature-Agent must be an https origin (got ${url.protocol})`);
  if (url.username || url.password || (url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) throw new DirectoryError('directory_origin', 'Signature-Agent must be an origin (scheme, host and port only)');
  return canonicalHost(url);
}

/**
 * `url` with its host in the one spelling an origin is known by, so a block or a budget
 * cannot be walked around by writing it another way (WHATWG URL already lowers the case,
 * drops a default port and normalises IPv6): an IPv4-mapped IPv6 literal becomes its
 * IPv4 address, a trailing dot is dropped. `agora agents block` uses it too.
 */
export function canonicalHost(url: URL): URL {
  const bare = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(bare) === 6) {
    const v6 = ipaddr.IPv6.parse(bare);
    if (v6.isIPv4MappedAddress()) url.hostname = v6.toIPv4Address().toString();
  } else if (url.hostname.endsWith('.')) url.hostname = url.hostname.replace(/\.+$/, '');
  return url;
}

/**
 * Seconds of freshness left (RFC 9111 4.2): the lifetime from `Cache-Control: max-age` or
 * `Expires` (less `Date`), 5 min without either, less the response's current age (`Age`,
 * 4.2.3: a CDN's cached copy is that much older), at most a day. The age was ignored, so a
 * copy a CDN served near its end was kept for a whole max-age more.
 */
function freshness(res: IncomingMessage, now: number): number {
  const cc = String(res.headers['cache-control'] ?? '').toLowerCase();
  if (/(^|[\s,])(no-store|no-cache)([\s,=]|$)/.test(cc)) return 0;
  const age = /^\s*(\d+)\s*$/.exec(String(res.headers.age ?? ''));
  const ageS = age?.[1] ? Number(age[1]) : 0;
  const left = (lifetime: number) => Math.max(0, Math.min(MAX_TTL_S, lifetime - ageS));
  const maxAge = /(?:^|[\s,])max-age\s*=\s*"?(\d+)/.exec(cc);
  if (maxAge?.[1]) return left(Number(maxAge[1]));
  const expires = Date.parse(String(res.headers.expires ?? ''));
  if (Number.isFinite(expires)) {
    const date = Date.parse(String(res.headers.date ?? ''));
    return left(Math.floor((expires - (Number.isFinite(date) ? date : now)) / 1000));
  }
  return left(DEFAULT_TTL_S);
}

/**
 * The RFC 9421 algorithm a directory key signs with: `ed25519` for an Ed25519 OKP key,
 * `rsa-pss-sha512` for an RSA key that states no JWK `alg` (it is optional, RFC 7517 4.4,
 * and no part of the thumbprint) or states `PS512`; null for any other key (an RSA key
 * given to `RS256` is not one to verify RSA-PSS with).
 */
export function keyAlgorithm(jwk: JsonWebKey): 'ed25519' | 'rsa-pss-sha512' | null {
  if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519') return 'ed25519';
  if (jwk.kty === 'RSA' && (jwk.alg === undefined || jwk.alg === 'PS512')) return 'rsa-pss-sha512';
  return null;
}

/**
 * web-bot-auth's verifier for a directory key. It takes an RSA key only with `alg: "PS512"`
 * and failed every other with "Unsupported algorithm: undefined", so an RSA key without
 * `alg` signed nothing, and a directory it signed refused every key of its agent.
 */
export function verifierForKey(jwk: JsonWebKey): ReturnType<typeof verifierFromJWK> {
  return verifierFromJWK(jwk.kty === 'RSA' && jwk.alg === undefined ? { ...jwk, alg: 'PS512' } : jwk);
}

/** The key directories of signing agents, fetched safely and cached. */
export class KeyDirectories {
  private readonly cache = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<Entry>>();
  private readonly allowLoopback: boolean;
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly maxEntries: number;
  private readonly failureTtlMs: number;
  private readonly resolve: Resolve;
  private readonly now: () => number;

  constructor(options: KeyDirectoryOptions = {}) {
    this.allowLoopback = options.allowLoopback ?? false;
    this.timeoutMs = options.timeoutMs ?? 3000;
    this.maxBytes = options.maxBytes ?? 64 * 1024;
    this.maxEntries = options.maxEntries ?? 1000;
    this.failureTtlMs = options.failureTtlMs ?? 10_000;
    this.resolve = options.resolve ?? defaultResolve;
    this.now = options.now ?? Date.now;
  }

  /** Whether `http:` origins on loopback are allowed. */
  get loopbackAllowed(): boolean {
    return this.allowLoopback;
  }

  /**
   * The key `keyid` of the directory at `origin`, or null when the directory does not list it.
   *
   * @throws DirectoryError when the directory cannot be fetched or used.
   */
  async key(origin: URL, keyid: string, beforeFetch?: () => Promise<void>): Promise<DirectoryKey | null> {
    let entry = await this.entry(origin.origin, false, beforeFetch);
    if (entry.keys && !entry.keys.has(keyid) && this.now() - entry.at > REFETCH_MISSING_KEY_MS) entry = await this.entry(origin.origin, true, beforeFetch);
    if (entry.error) throw entry.error;
    const key = entry.keys?.get(keyid) ?? null;
    // "Lists no key" would be untrue of a key past the ones read.
    if (!key && entry.unread) throw new DirectoryError('directory_invalid', `the key directory of ${origin.origin} lists ${MAX_DIRECTORY_KEYS + entry.unread} keys; only the first ${MAX_DIRECTORY_KEYS} are read and none has thumbprint ${keyid}: list the keys that sign among the first ${MAX_DIRECTORY_KEYS}`);
    return key;
  }

  /** Milliseconds since the copy of `origin`'s directory in use was fetched (or looked up again), null when none is cached. */
  copyAge(origin: URL): number | null {
    const cached = this.cache.get(origin.origin);
    return cached?.keys ? this.now() - cached.at : null;
  }

  /**
   * The cached directory of `origin`, or a fetch of it: a new fetch (not one already under
   * way, not a cache hit) first calls `beforeFetch`, which may throw (the caller's budget).
   */
  private async entry(origin: string, refresh: boolean, beforeFetch?: () => Promise<void>): Promise<Entry> {
    const cached = this.cache.get(origin);
    if (!refresh && cached && cached.until > this.now()) return cached;
    let pending = this.inflight.get(origin);
    if (!pending && beforeFetch) {
      await beforeFetch();
      pending = this.inflight.get(origin);
    }
    if (!pending) {
      pending = this.load(origin, refresh ? cached : undefined).finally(() => this.inflight.delete(origin));
      this.inflight.set(origin, pending);
    }
    return pending;
  }

  /** Fetch `origin`'s directory; `previous` is the cached copy a lookup of a missing key refreshes. */
  private async load(origin: string, previous?: Entry): Promise<Entry> {
    const at = this.now();
    let entry: Entry;
    try {
      const { keys, unread, ttlS } = await this.fetchDirectory(new URL(origin));
      entry = { at, until: at + ttlS * 1000, keys, unread };
    } catch (error) {
      const e = error instanceof DirectoryError ? error : new DirectoryError('directory_unreachable', `the key directory of ${origin} could not be fetched: ${(error as Error).message}`);
      // A failure of this server's own resolver is not the agent's: not remembered.
      entry = { at, until: e.check === 'name_resolution' ? 0 : at + this.failureTtlMs, error: e };
    }
    // A lookup of a key the fresh cached copy lacks that fails is this caller's answer only: the
    // copy stays for its freshness (its keys kept verifying), counted as looked up now (30 s).
    const kept = entry.error && previous?.keys && previous.until > at ? { ...previous, at } : entry;
    this.cache.delete(origin);
    if (kept.until > at) this.cache.set(origin, kept);
    while (this.cache.size > this.maxEntries) this.cache.delete(this.cache.keys().next().value as string);
    return entry;
  }

  /** Resolve and check every address of the host (IP literals included). */
  private async addresses(url: URL): Promise<{ address: string; family: number }[]> {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    let found: { address: string; family: number }[];
    if (isIP(host)) found = [{ address: host, family: isIP(host) }];
    else {
      try {
        found = await this.resolve(host);
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === 'ENOTFOUND' || code === 'ENODATA') throw new DirectoryError('directory_unreachable', `${host} does not resolve (${code})`);
        throw new DirectoryError('name_resolution', `this server cannot resolve names right now (${code ?? (error as Error).message})`);
      }
    }
    if (found.length === 0) throw new DirectoryError('directory_unreachable', `${host} has no address`);
    for (const { address } of found) {
      const why = refusedAddress(address, this.allowLoopback);
      if (why) throw new DirectoryError('directory_address', `the key directory host ${host} is refused: ${why}`);
    }
    if (url.protocol === 'http:' && !found.every(({ address }) => refusedAddress(address, false) !== null && refusedAddress(address, true) === null)) {
      throw new DirectoryError('directory_origin', 'plain http key directories are allowed on loopback addresses only');
    }
    return found;
  }

  private async fetchDirectory(origin: URL): Promise<{ keys: Map<string, DirectoryKey>; unread: number; ttlS: number }> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.timeoutMs);
    try {
      const timedOut = new Promise<never>((_, reject) => controller.signal.addEventListener('abort', () => reject(new DirectoryError('directory_unreachable', `the key directory of ${origin.origin} did not answer within ${this.timeoutMs} ms`)), { once: true }));
      timedOut.catch(() => {});
      const addresses = await Promise.race([this.addresses(origin), timedOut]);
      const { res, body } = await Promise.race([this.get(origin, addresses, controller.signal), timedOut]);
      return { ...(await this.parse(origin, res, body)), ttlS: freshness(res, this.now()) };
    } finally {
      clearTimeout(timer);
    }
  }

  /** GET the directory, connecting only to `addresses`. */
  private get(origin: URL, addresses: { address: string; family: number }[], signal: AbortSignal): Promise<{ res: IncomingMessage; body: Buffer }> {
    const url = new URL(HTTP_MESSAGE_SIGNATURES_DIRECTORY, origin);
    // The socket asks this for the host's address: only the checked ones are given.
    const pinned: LookupFunction = (_hostname, options, callback) => {
      const family = typeof options === 'object' ? options.family : undefined;
      const usable = addresses.filter((a) => !family || a.family === family);
      const list = usable.length > 0 ? usable : addresses;
      if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, list);
      else callback(null, list[0]!.address, list[0]!.family);
    };
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const req = request(url, { method: 'GET', lookup: pinned, agent: false, signal, headers: { accept: 'application/http-message-signatures-directory+json, application/json', 'user-agent': 'agora-writer (key directory)' } }, (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          res.resume();
          return reject(new DirectoryError('directory_unreachable', `the key directory answered ${status} (a redirect): redirects are not followed; serve it at ${url.href}`));
        }
        if (status !== 200) {
          res.resume();
          return reject(new DirectoryError('directory_unreachable', `the key directory answered ${status}`));
        }
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > this.maxBytes) {
          res.destroy();
          return reject(new DirectoryError('directory_invalid', `the key directory is larger than ${this.maxBytes} bytes`));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > this.maxBytes) {
            res.destroy();
            reject(new DirectoryError('directory_invalid', `the key directory is larger than ${this.maxBytes} bytes`));
          } else chunks.push(chunk);
        });
        res.on('end', () => resolve({ res, body: Buffer.concat(chunks) }));
        res.on('error', (error) => reject(new DirectoryError('directory_unreachable', `the key directory could not be read: ${error.message}`)));
      });
      req.on('error', (error) => reject(new DirectoryError('directory_unreachable', `the key directory of ${origin.origin} could not be fetched: ${(error as { code?: string }).code ?? error.message}`)));
      req.end();
    });
  }

  /** The keys of a directory body, by thumbprint; its own signatures checked where present. */
  private async parse(origin: URL, res: IncomingMessage, body: Buffer): Promise<{ keys: Map<string, DirectoryKey>; unread: number }> {
    let value: unknown;
    try {
      value = JSON.parse(body.toString('utf8'));
    } catch {
      throw new DirectoryError('directory_invalid', 'the key directory is not JSON');
    }
    const list = (value as { keys?: unknown })?.keys;
    if (!Array.isArray(list)) throw new DirectoryError('directory_invalid', 'the key directory is not {"keys": [JWK…]}');
    const keys = new Map<string, DirectoryKey>();
    for (const jwk of list.slice(0, MAX_DIRECTORY_KEYS)) {
      if (typeof jwk !== 'object' || jwk === null || typeof (jwk as JsonWebKey).kty !== 'string') continue;
      try {
        const keyid = await jwkToKeyID(jwk as JsonWebKey, helpers.WEBCRYPTO_SHA256, helpers.BASE64URL_DECODE);
        keys.set(keyid, { keyid, jwk: jwk as JsonWebKey });
      } catch {
        // A key this server cannot use (unknown type) is skipped, not fatal.
      }
    }
    const input = res.headers['signature-input'];
    const signature = res.headers['signature'];
    if (input !== undefined || signature !== undefined) {
      const pairs = eachSignature(String(input ?? ''), String(signature ?? ''));
      if (pairs === null) throw new DirectoryError('directory_signature', 'the key directory carries a malformed Signature or Signature-Input');
      for (const pair of pairs) {
        // Every response field as served (trimmed, a repeated one joined with ", ", RFC 9421 2.1):
        // a signature may cover more than `"@authority";req` (`content-type`, `content-digest` …),
        // and given only its own two fields, every other covered one was signed as empty.
        const given: Record<string, string> = { 'signature-input': pair.input, signature: pair.signature };
        const headers = {
          get(name: string): string | null {
            const key = name.toLowerCase();
            if (Object.hasOwn(given, key)) return given[key]!;
            const value = res.headers[key];
            return value === undefined ? null : (Array.isArray(value) ? value : [value]).map((v) => v.trim()).join(', ');
          },
          set() {},
        };
        const message = {
          request: { method: 'GET', url: new URL(HTTP_MESSAGE_SIGNATURES_DIRECTORY, origin).href, headers: { host: origin.host } },
          response: { status: res.statusCode ?? 200, headers },
        };
        try {
          await verifyMessage(message, async (data, sig, params) => {
            if (params.tag !== DIRECTORY_TAG) throw new Error(`tag must be ${DIRECTORY_TAG}`);
            const key = typeof params.keyid === 'string' ? keys.get(params.keyid) : undefined;
            if (!key) throw new Error('keyid names no key of the directory');
            await (await verifierForKey(key.jwk))(data, sig, params as never);
          });
        } catch (error) {
          throw new DirectoryError('directory_signature', `the key directory's own signature does not verify: ${(error as Error).message}`);
        }
      }
    }
    return { keys, unread: Math.max(0, list.length - MAX_DIRECTORY_KEYS) };
  }
}
