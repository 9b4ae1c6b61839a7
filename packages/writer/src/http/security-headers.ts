/**
 * `securityHeaders`: helmet with the policy of `@agora/generator`'s
 * `securityHeaders` (the same values `_headers` gives static hosts), on every answer:
 * pages, mirrors, JSON errors and the writer's own routes.
 */
import helmet from 'helmet';
import type { RequestHandler } from 'express';
import { contentSecurityPolicy, SECURITY_HEADERS, type SiteConfig } from '@agora/generator';

/**
 * Create the middleware.
 *
 * @param site Site settings; a separate `writerUrl` is allowed for the view counter's fetch.
 * @example
 * app.use(securityHeaders(config.site));
 */
export function securityHeaders(site: Pick<SiteConfig, 'writerUrl'>): RequestHandler {
  return helmet({
    // Exactly these directives: helmet's defaults would add `upgrade-insecure-requests`
    // (breaks plain-http local use) and allow inline styles.
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(site) },
    crossOriginOpenerPolicy: { policy: SECURITY_HEADERS['Cross-Origin-Opener-Policy'] },
    crossOriginResourcePolicy: { policy: SECURITY_HEADERS['Cross-Origin-Resource-Policy'] },
    referrerPolicy: { policy: SECURITY_HEADERS['Referrer-Policy'] },
    xFrameOptions: { action: 'deny' },
    // Ignored by browsers over plain http; behind TLS it pins https for the host only.
    strictTransportSecurity: { maxAge: 180 * 24 * 3600, includeSubDomains: false },
  });
}
