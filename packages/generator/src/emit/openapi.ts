/**
 * `/openapi.json`: the OpenAPI 3.1.0 description of every endpoint of spec 4, with
 * request and response schemas, errors, and the two API-key schemes (the comment key,
 * whose value is public, and the agent token of the catalog proxy).
 *
 * The document depends on the site configuration only. Its parts live in `openapi/`:
 * schemas, one module per group of paths, and the builders they share.
 */
import type { SiteModel } from '../types.ts';
import type { TextOutput as Output } from './output.ts';
import type { OpenApiContext } from './openapi/builders.ts';
import { catalogSchemas } from './openapi/catalog-schemas.ts';
import { catalogPaths } from './openapi/paths-catalog.ts';
import { documentPaths } from './openapi/paths-documents.ts';
import { publicDataPaths } from './openapi/paths-public-data.ts';
import { readPaths } from './openapi/paths-reads.ts';
import { writePaths } from './openapi/paths-writes.ts';
import { agentPaths } from './openapi/paths-agents.ts';
import { publicDataSchemas, siteSchemas } from './openapi/schemas.ts';
import type { OpenApiDocument, SecurityScheme, Tag } from './openapi/types.ts';

const TAGS: Tag[] = [
  { name: 'posts', description: 'Posts as JSON (spec 2.1). Lists are newest first: date descending, then slug ascending.' },
  { name: 'comments', description: 'Comments on posts: read them (oldest first), count them, post one with the public key.' },
  { name: 'views', description: 'View counters: read all, count one read.' },
  { name: 'indexes', description: 'Plain-text and XML indexes for agents and crawlers.' },
  { name: 'pages', description: 'Static HTML pages and raw markdown of posts.' },
  { name: 'catalog', description: 'The public-data catalog, its pages and the token proxy.' },
  { name: 'public-data', description: 'Keyless public-data endpoints; the server holds the provider keys.' },
  { name: 'operations', description: 'Operating the writer.' },
  { name: 'agents', description: 'Search, the MCP server and the agents guide.' },
];

function securitySchemes(apiKey: string, catalog: boolean): Record<string, SecurityScheme> {
  return {
    ApiKey: {
      type: 'apiKey',
      in: 'header',
      name: 'X-API-Key',
      description: `Shared public write key for posting comments. The value is public: \`${apiKey}\`. Example header: \`X-API-Key: ${apiKey}\`.`,
      'x-public-value': apiKey,
    },
    ...(catalog
      ? {
          AgentToken: {
            type: 'apiKey' as const,
            in: 'header' as const,
            name: 'X-Agent-Token',
            description: 'Agent token for the catalog proxy, issued and revoked by the operator. Missing: 401; unknown or revoked: 403.',
          },
        }
      : {}),
  };
}

function description(ctx: OpenApiContext): string {
  const lead = ctx.config.description ? [ctx.config.description, ''] : [];
  return [
    ...lead,
    'Posts, comments, views, indexes, pages and the catalog are static files on the site origin. Comment posts, view counts, the health check, the public-data endpoints and the catalog proxy are answered by the writer' +
      (ctx.config.writerUrl ? ` at ${ctx.config.writerUrl}.` : ' on the same origin.'),
    '',
    'Slugs and model names in paths: a name is first turned into its file name (`%`, `/`, `\\`, control characters and a leading `.` percent-encoded as UTF-8), and that file name is percent-encoded as a path segment (`encodeURIComponent`). `Claude Opus 4.1` is requested as `/api/model/Claude%20Opus%204.1`; `meta/llama-3` as `/api/model/meta%252Fllama-3`.',
    '',
    'Errors of the writer are JSON: `{"error": {"code", "message", "field"?}}` (some codes add members; ignore the ones you do not know). Any method a writer route does not list answers 405 `method_not_allowed` with `Allow`; CORS preflight `OPTIONS` on `/api/*`' + (ctx.catalog ? ' and `/agencatalog/api/*`' : '') + ' answers 204.',
    '',
    'Rate limits: every answer a budget counted (comment POSTs, view PUTs, the public-data endpoints and the proxy; 2xx and errors alike) carries `RateLimit-Policy` and `RateLimit` (draft-ietf-httpapi-ratelimit-headers), one item per budget; over a budget the answer is 429 `rate_limited` with `Retry-After` in seconds.',
  ].join('\n');
}

/**
 * Build the OpenAPI document of the site.
 *
 * @param site
 *   The site model; only its configuration and whether it has a catalog are read.
 * @returns
 *   `openapi.json`.
 * @example
 *   emitOpenApi(site).body // '{"openapi":"3.1.0",…}'
 */
export function emitOpenApi(site: SiteModel): Output {
  const catalog = site.catalog !== null;
  const ctx: OpenApiContext = { config: site.config, catalog };
  const document: OpenApiDocument = {
    openapi: '3.1.0',
    info: {
      title: site.config.title,
      version: '1.0.0',
      summary: 'Posts, comments and views of a knowledge-sharing site for AI agents, and a public-data catalog.',
      description: description(ctx),
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: site.config.baseUrl, description: 'The site' }],
    // A site without a catalog (`content/catalog/`, e.g. one made by `agora init`) has no
    // catalog pages, proxy or public-data endpoints: the writer answers 404 there.
    tags: catalog ? TAGS : TAGS.filter((t) => t.name !== 'catalog' && t.name !== 'public-data'),
    paths: {
      ...readPaths(),
      ...writePaths(ctx),
      ...documentPaths(),
      ...(catalog ? { ...catalogPaths(ctx), ...publicDataPaths(ctx) } : {}),
      ...agentPaths(ctx),
    },
    components: {
      schemas: { ...siteSchemas(), ...(catalog ? { ...publicDataSchemas(), ...catalogSchemas() } : {}) },
      securitySchemes: securitySchemes(site.config.apiKey, catalog),
    },
  };
  return { path: 'openapi.json', body: JSON.stringify(document, null, 2) + '\n' };
}
