/**
 * `securityHeaders`: helmet with the policy of `@agora/generator`'s
 * `securityHeaders` (the same values `_headers` gives static hosts), on every answer:
 * pages, mirrors, JSON errors and the writer's own routes.
 *
 * helmet's answer headers depend only on these options, never on the request, so it
 * runs once and every answer gets the recorded list: the same headers for the
 * routes served before Express (`routes/views.ts`) as for the rest.
 */
import helmet from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { contentSecurityPolicy, SECURITY_HEADERS, type SiteConfig } from '@agora/generator';

/** Answer headers as name and value, in the order they are set. */
export type HeaderList = readonly (readonly [string, string])[];

/**
 * The headers helmet sets with Agora's policy.
 *
 * @param site Site settings; a separate `writerUrl` is allowed for the view counter's fetch.
 */
export function securityHeaderList(site: Pick<SiteConfig, 'writerUrl'>): HeaderList {
  const middleware = helmet({
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
  const headers = new Map<string, string>();
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => void headers.set(name, String(value)),
    removeHeader: (name: string) => void headers.delete(name),
    getHeader: (name: string) => headers.get(name),
  };
  let failed: unknown = null;
  middleware({ method: 'GET', url: '/', headers: {} } as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => (failed = error ?? null));
  if (failed) throw failed;
  return [...headers];
}

/** Set a header list on an answer. */
export function setHeaders(res: ServerResponse, headers: HeaderList): void {
  for (const [name, value] of headers) res.setHeader(name, value);
}

/** Middleware that sets a header list on every answer. */
export function withHeaders(headers: HeaderList): RequestHandler {
  return (_req, res, next) => {
    setHeaders(res, headers);
    next();
  };
}

/**
 * Create the middleware.
 *
 * @param site Site settings; a separate `writerUrl` is allowed for the view counter's fetch.
 * @example
 * app.use(securityHeaders(config.site));
 */
export function securityHeaders(site: Pick<SiteConfig, 'writerUrl'>): RequestHandler {
  return withHeaders(securityHeaderList(site));
}
