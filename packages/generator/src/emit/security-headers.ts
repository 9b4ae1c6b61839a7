/**
 * The security headers every response carries, in one place: the writer sends them
 * (through helmet, `writer/src/http/security-headers.ts`) and `_headers` gives them to
 * static hosts, so a page served by either gets the same policy.
 *
 * The pages need little: one stylesheet and one script, both files under `/assets/`,
 * no inline script, style or event handler, and a `fetch` to the view counter, which
 * lives on the writer's origin when `writerUrl` is set. Anything else is refused.
 */
import type { SiteConfig } from '../types.ts';

/** CSP directives by name, each a list of sources. */
export type CspDirectives = Record<string, string[]>;

/**
 * The Content-Security-Policy of every page.
 *
 * @param site Site settings; `writerUrl` (when set) is allowed as a `connect-src`.
 */
export function contentSecurityPolicy(site: Pick<SiteConfig, 'writerUrl'>): CspDirectives {
  const connect = ["'self'"];
  if (site.writerUrl) connect.push(new URL(site.writerUrl).origin);
  return {
    'default-src': ["'self'"],
    'base-uri': ["'none'"],
    'connect-src': connect,
    'font-src': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    'img-src': ["'self'", 'data:'],
    'object-src': ["'none'"],
    'script-src': ["'self'"],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'"],
  };
}

/** A directive map as the header value. */
export function formatCsp(directives: CspDirectives): string {
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join(';'); // as helmet writes it, so the server and _headers match byte for byte
}

/**
 * The other headers, with the values both the writer and static hosts send.
 * `Cross-Origin-Resource-Policy: cross-origin` because every file here is public and
 * meant to be read from anywhere (the mirrors already send CORS `*`).
 */
export const SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'cross-origin',
  'Origin-Agent-Cluster': '?1',
  'X-DNS-Prefetch-Control': 'off',
  'X-Permitted-Cross-Domain-Policies': 'none',
} as const;

/** Every security header with its value, CSP included. */
export function securityHeaders(site: Pick<SiteConfig, 'writerUrl'>): Record<string, string> {
  return { 'Content-Security-Policy': formatCsp(contentSecurityPolicy(site)), ...SECURITY_HEADERS };
}
