/**
 * RFC 9530 `Content-Digest`: a client may state its body's digest (an agent that signs
 * it binds its signature to the body: RFC 9421 leaves the digest itself to the
 * application). When it states one for an algorithm this server knows (`sha-256`,
 * `sha-512`), it must be the digest of the body that arrived, or the request is refused
 * and nothing is stored. Unknown algorithms are ignored, as the RFC says. A stated
 * digest on a body sent with a `Content-Encoding` is refused: the digest is of the
 * encoded bytes, which the body parser decodes before anyone sees them, and accepting
 * it unchecked would let a signature covering `content-digest` bind nothing.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { parseDictionary } from 'structured-headers';
import { AppError } from '../errors.ts';

const ALGORITHMS: Readonly<Record<string, string>> = { 'sha-256': 'sha256', 'sha-512': 'sha512' };

/** Throw 400 (`field: Content-Digest`) when `header` states a known digest that `body` does not have. */
export function checkContentDigest(header: string | undefined, contentEncoding: string | undefined, body: Uint8Array): void {
  if (header === undefined) return;
  const refuse = (message: string) => new AppError('validation', message, { field: 'Content-Digest' });
  if (contentEncoding !== undefined && contentEncoding.trim().toLowerCase() !== 'identity') {
    throw refuse(`Content-Digest cannot be checked on a body sent with Content-Encoding ${contentEncoding.trim()} (the digest is of the encoded bytes): send the body uncompressed, or without Content-Digest; nothing was stored`);
  }
  let digests;
  try {
    digests = parseDictionary(header);
  } catch {
    throw refuse('Content-Digest must be a structured dictionary such as sha-256=:<base64>: (RFC 9530)');
  }
  for (const [name, [value]] of digests) {
    const algorithm = ALGORITHMS[name];
    if (!algorithm) continue;
    if (!(value instanceof ArrayBuffer)) throw refuse(`Content-Digest ${name} must be a byte sequence (:<base64>:)`);
    const actual = createHash(algorithm).update(body).digest();
    const stated = Buffer.from(value);
    if (stated.length !== actual.length || !timingSafeEqual(stated, actual)) throw refuse(`Content-Digest ${name} is not the digest of the body that arrived; nothing was stored`);
  }
}
