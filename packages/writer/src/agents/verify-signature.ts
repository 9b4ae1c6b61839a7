/**
 * Web Bot Auth (draft-ietf-webbotauth-httpsig-protocol on RFC 9421): who signed a
 * request, checked in this order, each failure a 401 `signature_invalid` whose `check`
 * says which (cheap checks first, so a bad request costs no fetch):
 *
 *   headers      Signature, Signature-Input and Signature-Agent all present (none: unsigned, null)
 *   signature_input  one signature, a dictionary of inner lists
 *   tag          `web-bot-auth`
 *   components   `@authority` and `signature-agent` covered; every covered field present
 *   created / expires  integers; created at most `CLOCK_SKEW_S` in the future; expires not
 *                passed (strictly, as http-message-sig's own check is); at most
 *                `MAX_SIGNATURE_LIFETIME_S` between them
 *   nonce        present, at most 256 characters
 *   keyid, alg   keyid present; alg, when given, `ed25519` or `rsa-pss-sha512`
 *   authority    the signed `@authority` is a host this writer answers for
 *   signature_agent  an origin (`https:`; `http:` on loopback with the flag): a string, or the
 *                dictionary member covered as `"signature-agent";key="…"` (else the one named like the signature)
 *   (blocked origin: 403 `agent_blocked`)
 *   directory_*  the key directory fetched safely (`key-directory.ts`); a writer that
 *                cannot resolve names answers 503 `resolver_unavailable`
 *   keyid        the directory lists the key
 *   signature    the signature verifies (http-message-sig builds the signature base,
 *                web-bot-auth's verifier checks it with WebCrypto: Ed25519, RSA-PSS)
 *   (blocked key: 403 `agent_blocked`)
 *   nonce        not accepted before within its window (the store: every node)
 *
 * The whole verification is bounded by the directory fetch's timeout.
 */
import { verify as verifyMessage } from 'http-message-sig';
import { HTTP_MESSAGE_SIGNATURE_TAG } from 'web-bot-auth';
import { SIGNATURE_MAX_LIFETIME_S, type CommentAgent } from '@agora/generator';
import { AppError } from '../errors.ts';
import type { AgentStore } from '../store/types.ts';
import { eachSignature, parseSignatureInput, signatureAgentMember, signatureAgentUrl } from './signature-fields.ts';
import { DirectoryError, directoryOrigin, keyAlgorithm, REFETCH_MISSING_KEY_S, verifierForKey, type KeyDirectories } from './key-directory.ts';

/** Longest accepted `expires - created` (s): nonces are kept this long (plus the skew). One value with what agents are told (agents.md). */
export const MAX_SIGNATURE_LIFETIME_S = SIGNATURE_MAX_LIFETIME_S;
/** Clock difference tolerated between the agent and this writer (s). */
export const CLOCK_SKEW_S = 60;

/** A verified agent. */
export type VerifiedAgent = CommentAgent;

/** What verification needs. */
export interface SignatureDeps {
  directories: KeyDirectories;
  agents: AgentStore;
  /** Host names (no port) a signature's `@authority` may name: the hosts this writer answers for. */
  hosts: readonly string[];
  now?: () => number;
  /** Called before a key directory is fetched (not for a cached one): throws to refuse the fetch (the sender's budget is spent). */
  beforeFetch?: () => Promise<void>;
}

/** The parts of a request that are signed or name the signer. */
export interface SignedRequest {
  method: string;
  /** Path and query as received. */
  url: string;
  /** `http` or `https`, as the client used it. */
  protocol: string;
  /** Host (and port) the client addressed. */
  host: string;
  header(name: string): string | undefined;
  /** Every header as received (names in lower case), for the components a signature covers. */
  headers(): Record<string, string | string[] | undefined>;
}

/**
 * The header a failed check is about: the signature's parameters are in
 * `Signature-Input`, the agent and its key directory in `Signature-Agent`, the bytes in
 * `Signature` (every refusal named `Signature` before).
 */
function headerOf(check: string): string {
  if (check === 'signature_agent' || check.startsWith('directory_')) return 'Signature-Agent';
  if (['signature_input', 'components', 'created', 'expires', 'keyid', 'alg', 'nonce', 'tag'].includes(check)) return 'Signature-Input';
  return 'Signature';
}

function fail(check: string, message: string, field = headerOf(check)): AppError {
  return new AppError('signature_invalid', `Web Bot Auth signature refused (${check}): ${message}; see /agents.md ("Signed agents")`, { field, details: { check } });
}

function blocked(what: string): AppError {
  return new AppError('agent_blocked', `This agent is blocked on this site (${what}).`, { field: 'Signature-Agent' });
}

/** The host name of a `host[:port]` authority, lower-case, brackets kept for IPv6. */
function hostName(authority: string): string {
  const m = /^(\[[^\]]+\]|[^:]+)(?::\d+)?$/.exec(authority.trim().toLowerCase());
  return m?.[1] ?? '';
}

/**
 * The verified agent of a request, null when it carries no signature.
 *
 * @throws AppError 401 `signature_invalid` (with `check`), 403 `agent_blocked`, 503 `resolver_unavailable`.
 */
export async function verifyAgentRequest(request: SignedRequest, deps: SignatureDeps): Promise<VerifiedAgent | null> {
  const signature = request.header('signature');
  const input = request.header('signature-input');
  const agentHeader = request.header('signature-agent');
  if (signature === undefined && input === undefined && agentHeader === undefined) return null;
  if (!signature || !input || !agentHeader) throw fail('headers', 'a signed request carries Signature, Signature-Input and Signature-Agent', !signature ? 'Signature' : !input ? 'Signature-Input' : 'Signature-Agent');
  const members = parseSignatureInput(input);
  if (!members || members.length !== 1) throw fail('signature_input', 'Signature-Input must hold exactly one signature (a structured dictionary with one inner list)');
  const { label, components, componentParams, params } = members[0]!;
  if (params.get('tag') !== HTTP_MESSAGE_SIGNATURE_TAG) throw fail('tag', `the signature's tag must be "${HTTP_MESSAGE_SIGNATURE_TAG}"`);
  for (const needed of ['@authority', 'signature-agent']) if (!components.includes(needed)) throw fail('components', `the signature must cover "${needed}" (covers ${components.map((c) => `"${c}"`).join(' ') || 'nothing'})`);
  // RFC 9421 2.5: a covered field the message does not carry fails the signature base. It was
  // signed as an empty value, so a signature "covering" content-digest sent without one bound no body.
  const absent = components.find((c) => !c.startsWith('@') && request.header(c) === undefined);
  if (absent !== undefined) throw fail('components', `the signature covers "${absent}", which the request does not carry`);
  const created = params.get('created');
  const expires = params.get('expires');
  // Named after the one that is missing or not an integer (a missing expires was called `created`).
  if (!Number.isInteger(created) || !Number.isInteger(expires)) {
    const which = Number.isInteger(created) ? 'expires' : 'created';
    throw fail(which, `created and expires are required (integer seconds); ${which} is ${params.has(which) ? 'not an integer' : 'missing'}`);
  }
  const now = (deps.now ?? Date.now)() / 1000;
  if ((created as number) > now + CLOCK_SKEW_S) throw fail('created', `created is in the future (more than ${CLOCK_SKEW_S} s ahead of this server's clock)`);
  // Strict: http-message-sig's verify refuses a passed `expires` itself, with no skew.
  if ((expires as number) < now) throw fail('expires', 'the signature has expired (expires is past by this server\'s clock)');
  if ((expires as number) <= (created as number) || (expires as number) - (created as number) > MAX_SIGNATURE_LIFETIME_S) throw fail('expires', `expires must follow created by at most ${MAX_SIGNATURE_LIFETIME_S} s`);
  const nonce = params.get('nonce');
  if (typeof nonce !== 'string' || nonce === '' || nonce.length > 256) throw fail('nonce', 'a nonce (a string of at most 256 characters) is required');
  const keyid = params.get('keyid');
  if (typeof keyid !== 'string' || keyid === '') throw fail('keyid', 'keyid (the JWK thumbprint of the key) is required');
  const alg = params.get('alg');
  if (alg !== undefined && alg !== 'ed25519' && alg !== 'rsa-pss-sha512') throw fail('alg', 'alg must be ed25519 or rsa-pss-sha512 when given');
  if (!deps.hosts.includes(hostName(request.host))) throw fail('authority', `the signed @authority ${JSON.stringify(request.host)} is not a host of this site`);
  // A dictionary Signature-Agent's member, covered as `"signature-agent";key="<member>"` (RFC 9421
  // 2.1.2, as the Web Bot Auth draft has agents sign it): the origin is that member, and what is
  // signed is its value alone. http-message-sig signs a field whole, whatever its parameters, so
  // it is handed the member's value as the field's (a valid signature of this form was refused).
  const memberKeys = components.flatMap((c, i) => (c === 'signature-agent' && componentParams[i]!.has('key') ? [componentParams[i]!.get('key')] : []));
  if (memberKeys.length > 1) throw fail('components', 'the signature must cover one Signature-Agent member, not several');
  let agentUrl: string | null;
  let signedAgentValue = agentHeader;
  if (memberKeys.length === 1) {
    const member = typeof memberKeys[0] === 'string' ? signatureAgentMember(agentHeader, memberKeys[0]) : null;
    if (!member) throw fail('signature_agent', `the signature covers "signature-agent";key=${JSON.stringify(memberKeys[0])}, but Signature-Agent has no such member (a dictionary such as ${JSON.stringify(String(memberKeys[0]))}="https://agent.example")`);
    agentUrl = member.url;
    signedAgentValue = member.serialized;
  } else agentUrl = signatureAgentUrl(agentHeader, label);
  if (!agentUrl) throw fail('signature_agent', 'Signature-Agent must be the origin of the key directory, as a structured string ("https://agent.example")');
  let origin: URL;
  try {
    origin = directoryOrigin(agentUrl, deps.directories.loopbackAllowed);
  } catch (error) {
    throw fail('signature_agent', (error as Error).message);
  }
  const blocks = await deps.agents.blocks();
  if (blocks.some((b) => b.kind === 'origin' && b.value === origin.origin)) throw blocked(`origin ${origin.origin}`);
  let key;
  try {
    key = await deps.directories.key(origin, keyid, deps.beforeFetch);
  } catch (error) {
    if (!(error instanceof DirectoryError)) throw error;
    if (error.check === 'name_resolution') throw new AppError('resolver_unavailable', `This server cannot check the signature now: ${error.message}. Nothing was stored; try again shortly.`, { headers: { 'Retry-After': '5' }, details: { check: error.check } });
    throw fail(error.check, error.message);
  }
  if (!key) {
    // The copy consulted may be up to 30 s old: a key the agent just added is not in it yet.
    const ageMs = deps.directories.copyAge(origin);
    const copy = ageMs !== null ? ` (as fetched ${Math.round(ageMs / 1000)} s ago; a key missing from it is looked up again once the copy is ${REFETCH_MISSING_KEY_S} s old)` : '';
    throw fail('keyid', `the key directory of ${origin.origin}${copy} lists no key with thumbprint ${keyid}`);
  }
  // The directory's own validity window for a key (the draft's JWK `nbf` and `exp`, NumericDate
  // seconds): a key its agent retired kept signing until it was taken out of the directory.
  const { nbf, exp } = key.jwk as { nbf?: unknown; exp?: unknown };
  if (typeof exp === 'number' && now >= exp) throw fail('keyid', `the key ${keyid} of ${origin.origin} expired (its exp ${new Date(exp * 1000).toISOString()} is past by this server's clock)`);
  if (typeof nbf === 'number' && now + CLOCK_SKEW_S < nbf) throw fail('keyid', `the key ${keyid} of ${origin.origin} is not valid yet (its nbf is ${new Date(nbf * 1000).toISOString()})`);
  // RFC 9421 3.2: an `alg` the signer states must be the key's own.
  const keyAlg = keyAlgorithm(key.jwk);
  if (alg !== undefined && alg !== keyAlg) throw fail('alg', `alg ${alg} is not the algorithm of key ${keyid} (${keyAlg ?? [key.jwk.kty, key.jwk.alg].filter(Boolean).join(' ')})`);
  try {
    // Every header the client sent and the whole target URI: a signature may cover more
    // than the two required components (`content-digest`, `content-type`, `@target-uri` …).
    // A covered field's value is the value as sent, trimmed, a repeated field's values joined
    // with ", " (RFC 9421 2.1). Given a plain object, http-message-sig squeezed every run of
    // whitespace inside a value to one space, so a signature over a header that has two
    // spaces in a row (as web-bot-auth's own signer keeps them) never verified; it reads a
    // `get` as it is. `@signature-params` is the member's serialization (2.3), not the raw text.
    const pair = eachSignature(input, signature)?.[0];
    const given: Record<string, string> = { host: request.host, 'signature-agent': signedAgentValue, 'signature-input': pair?.input ?? input, signature: pair?.signature ?? signature };
    const sent = request.headers();
    const headers = {
      get(name: string): string | null {
        const key = name.toLowerCase();
        if (Object.hasOwn(given, key)) return given[key]!;
        const value = Object.hasOwn(sent, key) ? sent[key] : undefined;
        return value === undefined ? null : (Array.isArray(value) ? value : [value]).map((v) => v.trim()).join(', ');
      },
      set() {},
    };
    const message = { method: request.method, url: `${request.protocol}://${request.host}${request.url}`, protocol: request.protocol, headers };
    await verifyMessage(message, async (data, sig, p) => {
      await (await verifierForKey(key.jwk))(data, sig, p as never);
    });
  } catch (error) {
    throw fail('signature', `the signature does not verify with key ${keyid} of ${origin.origin} (${(error as Error).message})`);
  }
  if (blocks.some((b) => b.kind === 'key' && b.value === keyid)) throw blocked(`key ${keyid}`);
  const until = new Date(((expires as number) + CLOCK_SKEW_S) * 1000);
  if (!(await deps.agents.claimNonce(`${keyid}:${nonce}`, until))) throw fail('nonce', 'this nonce was already used: sign each request anew');
  return { origin: origin.origin, keyid };
}
