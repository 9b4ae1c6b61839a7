/**
 * Small builders for the OpenAPI document: references, parameters, JSON and text
 * responses, and the shared error answers. Every path module is written with these.
 */
import type { SiteConfig } from '../../types.ts';
import type { Example, Header, MediaType, Parameter, Response, Schema, SecurityRequirement, Server } from './types.ts';

/** What path builders may read: the site configuration only, so the document is stable across content edits. */
export interface OpenApiContext {
  config: SiteConfig;
  /** The site has a catalog (`content/catalog/`): its pages, the proxy and the public-data endpoints exist. */
  catalog: boolean;
}

/** No authentication (the document declares no global security). */
export const PUBLIC: SecurityRequirement[] = [];

/** Reference to a schema in `components.schemas`. */
export function ref(name: string): Schema {
  return { $ref: `#/components/schemas/${name}` };
}

/** A `YYYY-MM-DD` date string. */
export function dateString(description: string): Schema {
  return { type: 'string', format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$', description };
}

/** A string of digits of a fixed length. */
export function digits(length: number, description: string): Schema {
  return { type: 'string', pattern: `^[0-9]{${length}}$`, description };
}

/**
 * The `servers` of an operation answered by the writer process, to spread into it: the
 * writer's own origin when it runs apart from the static site, else nothing (the
 * document's server).
 *
 * @param ctx
 *   Build context.
 */
export function writerServers(ctx: OpenApiContext): { servers?: Server[] } {
  const url = ctx.config.writerUrl;
  return url ? { servers: [{ url, description: 'Writer origin (comment posts, view counts, public-data calls)' }] } : {};
}

/** A required path parameter. */
export function pathParam(name: string, description: string, schema: Schema, examples?: Record<string, Example>): Parameter {
  return { name, in: 'path', required: true, description, schema, ...(examples ? { examples } : {}) };
}

/** A query parameter, optional unless `required` is set. */
export function queryParam(name: string, description: string, schema: Schema, required = false): Parameter {
  return { name, in: 'query', required, description, schema };
}

/**
 * Path parameter holding a post slug. A slug is any string; its path segment is the
 * slug's file name (see `paths.ts`) percent-encoded as a URL path segment.
 */
export function slugParam(): Parameter {
  return pathParam(
    'slug',
    'The post slug. Slugs are usually `YYYY-MM-DD-words`, but any string is possible: the value is the slug with `%`, `/`, `\\`, control characters and a leading `.` percent-encoded (its file name), and that is percent-encoded once more as a path segment.',
    { type: 'string', minLength: 1 },
    { plain: { summary: 'A typical slug', value: '2025-01-10-nginx-reverse-proxy' } },
  );
}

/** JSON content of a response or request. */
export function json(schema: Schema, example?: unknown): Record<string, MediaType> {
  return { 'application/json': example === undefined ? { schema } : { schema, example } };
}

/** A 200/201 JSON response. */
export function jsonResponse(description: string, schema: Schema, example?: unknown, headers?: Record<string, Header>): Response {
  return { description, ...(headers ? { headers } : {}), content: json(schema, example) };
}

/** A response with a text body of the given media type. */
export function textResponse(description: string, mediaType: string, example: string): Response {
  return { description, content: { [mediaType]: { schema: { type: 'string' }, example } } };
}

/** The 404 of a page or document: an HTML page for browsers (`Accept: text/html`), else the JSON error. */
export function notFoundPage(description: string): Response {
  return {
    description: `${description} Browsers get a short HTML page; other clients the JSON error.`,
    content: { 'text/html': { schema: { type: 'string' } }, 'application/json': { schema: ref('Error'), example: { error: { code: 'not_found', message: 'Nothing at GET /guide/no-such-post/' } } } },
  };
}

/** An error answer with the shared `Error` body and an example. */
export function errorResponse(description: string, code: string, message: string, field?: string, headers?: Record<string, Header>): Response {
  const error = field === undefined ? { code, message } : { code, message, field };
  return jsonResponse(description, ref('Error'), { error }, headers);
}

/**
 * The 503 of a read that needs the built site (search, a page or `.md` file asked for as
 * markdown or JSON) while the writer starts: it waits for the catch-up at most 30 s, or is
 * refused at once while something keeps the writer from catching up (named in the message).
 */
export function startingRefusal(what: string): Response {
  return errorResponse(
    `The writer is starting and has not caught up (\`starting\`): ${what} waits for it at most 30 s, then gets this; at once while something keeps the start from catching up (the database away, \`dist/\` full), which the message names. Retry after \`Retry-After\` seconds.`,
    'starting',
    'The writer is starting and has not caught up yet; nothing was stored. Retry shortly.',
    undefined,
    retryAfter('Seconds to wait before trying again.'),
  );
}

/** What the writer says of a path whose parameter is not valid percent-encoding (`%ZZ`). */
export const BAD_PATH_ERROR = { code: 'validation', message: 'The path is not valid percent-encoding', field: 'path' } as const;

/**
 * The 400 of a path parameter that is not valid percent-encoding: the writer's answer
 * (a static host answers 404 instead). `outcome`: what that means for the request.
 */
export function badPathEncoding(outcome = ''): Response {
  const said = 'A path parameter is not valid percent-encoding (`%ZZ`): the writer\'s answer (a static host answers 404).';
  return errorResponse(outcome ? `${said} ${outcome}` : said, BAD_PATH_ERROR.code, BAD_PATH_ERROR.message, BAD_PATH_ERROR.field);
}

/**
 * The 408 of a request whose body does not arrive within the writer's request deadline
 * (`limits.requestTimeoutMs`): Node's HTTP layer answers it with the writer's JSON error
 * and closes the connection. `outcome`: what that means for the request.
 */
export function requestTimeout(outcome: string): Response {
  return errorResponse(
    `The request's body did not arrive within the request deadline (\`limits.requestTimeoutMs\`, default 10 s; a body sent slowly, bit by bit): the connection is closed. ${outcome} Send the whole request at once.`,
    'request_timeout',
    "The request's headers and body did not arrive in time; send them at once",
  );
}

/** `Retry-After` in seconds, required (429, 503 `store_unavailable`, 507) unless `required` is false. */
export function retryAfter(description: string, required = true): Record<string, Header> {
  return { 'Retry-After': { description, required, schema: { type: 'integer', minimum: 0, description: 'Delay in seconds (RFC 9110 delay-seconds).' } } };
}

/** `Retry-After` of a public-data 503: sent when the provider said when to come back (its rate or its quota), absent otherwise. */
export const UPSTREAM_RETRY_AFTER: Record<string, Header> = retryAfter(
  'With `upstream_unavailable` from the provider\'s own limits: seconds to wait (1 for its per-second rate; until midnight Korea time, UTC+9, for its daily quota). Absent when no time is known (`not_configured`, the provider down).',
  false,
);

/** `Retry-After` of a public-data 429. */
export const RETRY_AFTER: Record<string, Header> = retryAfter(
  'Seconds until the spent budget resets: the daily quota at midnight Korea time (UTC+9), or the per-address window (`RateLimit` says which).',
);

/**
 * `RateLimit-Policy` and `RateLimit` (draft-ietf-httpapi-ratelimit-headers): sent on
 * every answer a budget counted (2xx and errors alike), one item per budget; absent
 * when the operator turned the budgets of the route off (`limits` in agora.config.json).
 */
export const RATE_LIMIT_HEADERS: Record<string, Header> = {
  'RateLimit-Policy': {
    description: 'The budgets that counted this request, each `"name";q=<requests>;w=<window seconds>`, e.g. `"comments-ip";q=10;w=60, "comments-post";q=60;w=3600, "comments-site";q=1000;w=3600` (`comments-agent` instead of `comments-ip` for a request signed by a verified agent: its origin\'s budget; beside it `comments-agents-ip`, the budget all agents signing from one address share, five times `comments-ip`).',
    schema: { type: 'string', pattern: '^"[a-z-]+";q=[0-9]+;w=[0-9]+(, "[a-z-]+";q=[0-9]+;w=[0-9]+)*$' },
  },
  RateLimit: {
    description: 'What is left of each budget: `"name";r=<requests left>;t=<seconds to the reset>`, e.g. `"comments-ip";r=9;t=60`.',
    schema: { type: 'string', pattern: '^"[a-z-]+";r=[0-9]+;t=[0-9]+(, "[a-z-]+";r=[0-9]+;t=[0-9]+)*$' },
  },
};

/** A response with the rate-limit headers added to its own. */
export function rateLimited(response: Response): Response {
  return { ...response, headers: { ...(response.headers ?? {}), ...RATE_LIMIT_HEADERS } };
}

/** Every response of a rate-limited operation with the rate-limit headers. */
export function allRateLimited(responses: Record<string, Response>): Record<string, Response> {
  return Object.fromEntries(Object.entries(responses).map(([status, response]) => [status, rateLimited(response)]));
}

/** The 429 of a per-address budget of the writer's own routes. */
export function tooManyRequests(what: string, example: string): Response {
  return rateLimited(errorResponse(`Over a budget: ${what}. Wait \`Retry-After\` seconds; \`RateLimit\` shows every budget.`, 'rate_limited', example, undefined, retryAfter('Seconds until the exceeded budget resets.')));
}

/**
 * The errors shared by the simple endpoints and the proxy: quota, and provider
 * trouble mapped to 502/503/504 (never passed through raw).
 */
export function upstreamErrors(): Record<string, Response> {
  return {
    '429': errorResponse(
      'The daily quota is spent (per provider from the catalog, and per token for the proxy). It resets at midnight Korea time (KST, UTC+9); `Retry-After` gives the seconds until then.',
      'rate_limited',
      'Daily quota of 1000 calls for tourism-content is spent; it resets at midnight KST.',
      undefined,
      RETRY_AFTER,
    ),
    '502': errorResponse('The provider answered with an error or a malformed body.', 'upstream_error', 'The provider answered with result code 10 (INVALID_REQUEST_PARAMETER_ERROR).'),
    '503': errorResponse(
      'The provider key is not configured on this server (`not_configured`; the message names the missing setting), or the provider is unavailable, over its rate or out of its quota (`upstream_unavailable`, with `Retry-After` when the provider\'s limit says how long).',
      'not_configured',
      'The provider key for tourism-content is not configured on this server.',
      undefined,
      UPSTREAM_RETRY_AFTER,
    ),
    '504': errorResponse('The provider did not answer in time.', 'upstream_timeout', 'The provider did not answer in time.'),
  };
}
