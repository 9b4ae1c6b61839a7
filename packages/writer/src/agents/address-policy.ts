/**
 * Which addresses a key directory may be fetched from: public unicast only. The check
 * is made on every address a name resolves to (never on the name), and the connection
 * then goes to a checked address (`key-directory.ts` hands it to the socket), so a
 * name cannot resolve to a public address for the check and a private one for the
 * connection.
 *
 * ipaddr.js names each address's class: loopback (127.0.0.0/8, ::1), private (10/8,
 * 172.16/12, 192.168/16), link-local (169.254/16, fe80::/10), unique local (fc00::/7),
 * carrier-grade NAT, multicast, reserved, and the IPv6 forms that carry an IPv4 address
 * (IPv4-mapped ::ffff:a.b.c.d is judged as the IPv4 address it maps; the deprecated
 * IPv4-compatible ::a.b.c.d, 6to4, Teredo and NAT64 are refused). Only `unicast` is allowed, plus `loopback` with
 * `AGORA_AGENT_DIRECTORY_ALLOW_LOOPBACK=1` (tests and local development only).
 */
import ipaddr from 'ipaddr.js';

/** The class of an address as ipaddr.js names it (`unicast`, `private`, `loopback`, …), or null when it is not an address. */
export function addressClass(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, '').split('%')[0] ?? '';
  if (!ipaddr.isValid(bare)) return null;
  let parsed = ipaddr.parse(bare);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
    // ::a.b.c.d (RFC 4291 2.5.5.1, deprecated), which ipaddr.js calls unicast: a socket may
    // reach the IPv4 address inside (::169.254.169.254). Not :: and ::1, named as they are.
    else if (v6.parts.slice(0, 6).every((p) => p === 0) && (v6.parts[6] !== 0 || (v6.parts[7] ?? 0) > 1)) return 'ipv4Compatible';
  }
  return parsed.range();
}

/**
 * Why an address may not be connected to, or null when it may.
 *
 * @param address An IPv4 or IPv6 address (brackets and zone allowed).
 * @param allowLoopback Whether loopback addresses are allowed (tests, local development).
 */
export function refusedAddress(address: string, allowLoopback: boolean): string | null {
  const kind = addressClass(address);
  if (kind === null) return `${address} is not an IP address`;
  if (kind === 'unicast') return null;
  if (kind === 'loopback' && allowLoopback) return null;
  return `${address} is a ${kind} address${kind === 'loopback' ? ' (AGORA_AGENT_DIRECTORY_ALLOW_LOOPBACK=1 allows it for tests and local development)' : ''}`;
}
