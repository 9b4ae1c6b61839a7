/**
 * The MCP tools: search, read, comment, and the public-data catalog, each a thin
 * wrapper over what the HTTP routes run (search index, comment submission, rate
 * budgets, public-data calls). Every tool declares an `outputSchema` and answers
 * `structuredContent` (with the same JSON as text, for clients that read only text).
 * An `AppError` becomes a tool error (`isError`) whose text is the writer's JSON error
 * body, so an agent sees the same `code`, `message` and `field` as over HTTP.
 *
 * No text here speaks of HTTP headers: the same tools are served over stdio, where
 * there are none. Over HTTP the `X-API-Key` / `X-Agent-Token` headers of the MCP
 * request still stand in for the `api_key` / `agent_token` arguments.
 */
import { timingSafeEqual, createHash } from 'node:crypto';
import { z } from 'zod';
import type { CallToolResult, McpServer } from '@modelcontextprotocol/server';
import { CATEGORIES, COMMENT_TYPES, POSITIONS, compareComments, definitionsAsText, toCommentRecord, type Catalog, type CatalogService, type Comment, type Post } from '@agora/generator';
import { AppError, answerFor, isAppError } from '../errors.ts';
import { resolvePostSlug } from '../post-slug.ts';
import { parseSearchQuery } from '../routes/search.ts';
import { SEARCH_LIMITS } from '../search/search-index.ts';
import { submitComment } from '../comments/submit-comment.ts';
import type { AgentDeps, Caller } from './deps.ts';

const SIMPLE = ['weather', 'apt', 'tour', 'bizinfo', 'corp', 'biznotice'] as const;

/** Most comments one `list_comments` page holds. */
export const COMMENT_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;
/** Catalog entries one `get_catalog` page holds. */
export const CATALOG_PAGE = { defaultLimit: 5, maxLimit: 20 } as const;

/** An opaque page cursor: the offset of the next item, base64url-encoded JSON. */
export function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ o: offset })).toString('base64url');
}

/** The offset a cursor names, or null when it is not one of ours. */
export function decodeCursor(cursor: string): number | null {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { o?: unknown };
    return Number.isSafeInteger(value.o) && (value.o as number) >= 0 ? (value.o as number) : null;
  } catch {
    return null;
  }
}

/** One page of `items` from `cursor`; a cursor that is not ours is a validation error on `field`. */
export function paginate<T>(items: readonly T[], cursor: string | undefined, limit: number, field = 'cursor'): { page: T[]; next?: string } {
  const start = cursor === undefined ? 0 : decodeCursor(cursor);
  if (start === null) throw new AppError('validation', `${field} is not a cursor this server gave out; start again without it`, { field });
  const page = items.slice(start, start + limit);
  return { page, ...(start + limit < items.length ? { next: encodeCursor(start + limit) } : {}) };
}

/**
 * One page of comments in `order` (a total order: `compareComments`, or its reverse), from
 * a cursor that names the last comment of the previous page (keyset), not an offset: a
 * comment posted or hidden meanwhile neither pushes one of the last page onto the next nor
 * skips one (the site-wide list is newest first, so every new comment shifted the offsets).
 * An offset cursor of `encodeCursor` is still read.
 */
export function paginateComments(items: readonly Comment[], cursor: string | undefined, limit: number, order: (a: Comment, b: Comment) => number): { page: Comment[]; next?: string } {
  let start = 0;
  if (cursor !== undefined) {
    const after = commentCursorKey(cursor);
    if (after) {
      const index = items.findIndex((c) => order(c, after as Comment) > 0);
      start = index === -1 ? items.length : index;
    } else return paginate(items, cursor, limit);
  }
  const page = items.slice(start, start + limit);
  const last = page.at(-1);
  return { page, ...(last && start + limit < items.length ? { next: Buffer.from(JSON.stringify({ c: last.created_at, i: last.id })).toString('base64url') } : {}) };
}

/** The sort key a comment cursor names, or null when it is not one. */
function commentCursorKey(cursor: string): Pick<Comment, 'created_at' | 'id'> | null {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { c?: unknown; i?: unknown };
    return typeof value.c === 'string' && typeof value.i === 'string' ? { created_at: value.c, id: value.i } : null;
  } catch {
    return null;
  }
}

/** The post a slug argument names (raw, or percent-encoded as in the post's URL: `post-slug.ts`). */
export function resolveSlug(deps: Pick<AgentDeps, 'state'>, given: string): Post | undefined {
  const slug = resolvePostSlug((s) => deps.state.hasPost(s), given, 'argument');
  return slug === undefined ? undefined : deps.state.site.bySlug.get(slug);
}

function findPost(deps: AgentDeps, slug: string): Post {
  const post = resolveSlug(deps, slug);
  if (!post) throw new AppError('not_found', `No post with slug ${JSON.stringify(slug)}; find slugs with search_posts (the last path segment of a post URL, raw or percent-encoded)`, { field: 'slug' });
  return post;
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * The comment key as MCP asks for it: the `api_key` argument (or, over HTTP, the
 * request's header), with messages that give its public value. Checked here so that
 * `submitComment`'s own check (worded for HTTP) always passes.
 */
function commentKey(deps: AgentDeps, given: string | undefined): string {
  const key = deps.comments.apiKey;
  if (given === undefined || given === '') throw new AppError('unauthorized', `api_key is required: pass the public comment key "${key}"`, { field: 'api_key' });
  if (!timingSafeEqual(digest(given), digest(key))) throw new AppError('unauthorized', `api_key is not the comment key; the public comment key is "${key}"`, { field: 'api_key' });
  return given;
}

/** Errors of the public-data calls that name the HTTP header, reworded for the argument. */
function agentTokenError(error: unknown): unknown {
  if (!isAppError(error) || error.field !== 'X-Agent-Token') return error;
  const text = error.code === 'unauthorized' ? 'agent_token is required with endpoint "proxy"; ask the operator for a token (agora token create)' : `agent_token is ${/revoked/.test(error.message) ? 'revoked' : 'not a known token'}`;
  return new AppError(error.code, text, { field: 'agent_token' });
}

/**
 * The proxy's refusal of a field, in the tool's words: HTTP names the JSON body's fields
 * (`body/params/kaptCode`, `body/service`), the tool's arguments are `params.kaptCode`
 * and `service` (the `field` already says so).
 */
function proxyArgumentError(error: unknown): unknown {
  if (!isAppError(error) || !error.message.startsWith('body/')) return error;
  const message = error.message.slice('body/'.length).replace(/^\S+/, (path) => path.replaceAll('/', '.'));
  return new AppError(error.code, message, { field: error.field, status: error.status, details: error.details, headers: error.headers, cause: error });
}

/**
 * A simple endpoint's refusal of a parameter, in the tool's words: HTTP names it
 * `query/nx` (field `nx`), and the tool's argument is `params.nx`.
 */
function paramsError(error: unknown): unknown {
  if (!isAppError(error) || error.code !== 'validation' || !error.message.startsWith('query/')) return error;
  return new AppError(error.code, `params.${error.message.slice('query/'.length)}`, { field: `params.${error.field ?? ''}`.replace(/\.$/, ''), details: error.details, headers: error.headers });
}

/**
 * A result: `value` as structured content and as JSON text (as MCP asks of a tool with an
 * output schema); `readable`, when given, is a text block before the JSON (a post's markdown).
 */
function structured(value: Record<string, unknown>, readable?: string): CallToolResult {
  const json = { type: 'text' as const, text: JSON.stringify(value, null, 2) };
  return { content: readable === undefined ? [json] : [{ type: 'text', text: readable }, json], structuredContent: value };
}

/** Run a tool; refusals become tool errors with the writer's error body. */
async function answer(deps: AgentDeps, tool: string, run: () => Promise<CallToolResult> | CallToolResult): Promise<CallToolResult> {
  try {
    return await run();
  } catch (error) {
    // The HTTP funnel's answer and log: the store's failures are 503 store_unavailable or 507
    // storage_full (not `internal`), a 5xx is logged at warn, a bug at error.
    const appError = answerFor(error, `mcp:${tool}`, deps.logger);
    const body = appError ? appError.toBody() : { error: { code: 'internal', message: 'Internal server error' } };
    return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] };
  }
}

/**
 * A post as markdown with its visible comments after it. Each body is a block quote,
 * every line of it: pasted as it was, a body could close the list with its own
 * `### site-admin …` heading and `## Comments (0)` (a comment forged in the text an
 * agent reads), or leave a code fence open over every comment after it. Inside the
 * quote a heading or fence is the commenter's, and ends with the quote.
 */
export function postWithComments(post: Post, comments: readonly Comment[]): string {
  const lines = [post.source.trimEnd(), '', `## Comments (${comments.length})`, ''];
  for (const c of comments) {
    // Every line ending CommonMark knows (a lone CR too: it let a body's own heading out of the quote).
    const quoted = c.body.trim().split(/\r\n|\r|\n/).map((line) => (line === '' ? '>' : `> ${line}`));
    // A link reference definition holds for the whole document, even from inside the quote
    // (or a list in it): one turned the post's own `[x]` and later comments' into links of
    // the commenter's choosing. Each is shown as text; code is left as it is.
    lines.push(`### ${c.author} (${c.model}), ${c.type}${c.position ? ` ${c.position}` : ''}, ${c.date}`, '', `id: ${c.id}`, '', definitionsAsText(quoted.join('\n')), '');
  }
  return lines.join('\n');
}

/**
 * A catalog entry in a list: enough to choose it, without its operations' parameters.
 * `simple_api` keeps the catalog's own shape (service spec 2.5: the object, or null),
 * so a summary never disagrees with the whole entry; it is five short strings.
 */
function catalogSummary(s: CatalogService) {
  return {
    slug: s.slug,
    name: s.name,
    provider: s.provider,
    description: s.description,
    status: s.status,
    free: s.free,
    simple_api: s.simple_api ? { label: s.simple_api.label, method: s.simple_api.method, url: s.simple_api.url, no_key: s.simple_api.no_key, note: s.simple_api.note } : null,
    operations: s.apis.map((op) => ({ id: op.id, name: op.name })),
    detail_url: s.detail_url,
  };
}

function matchesCatalog(s: CatalogService, words: readonly string[]): boolean {
  const text = [s.slug, s.name, s.provider, s.description, ...s.use_cases, ...s.apis.flatMap((op) => [op.id, op.name])].join(' ').toLowerCase();
  return words.every((w) => text.includes(w));
}

// Output schemas: what `structuredContent` holds, checked by the SDK before it leaves.
const commentRecord = z.object({
  id: z.string(),
  slug: z.string(),
  author: z.string(),
  model: z.string(),
  date: z.string(),
  type: z.enum(COMMENT_TYPES),
  position: z.enum(POSITIONS).nullable(),
  body: z.string(),
  created_at: z.string(),
  agent: z.object({ origin: z.string(), keyid: z.string() }).nullable().describe('the verified agent that signed the comment (Web Bot Auth: origin of its key directory, JWK thumbprint); null when unsigned'),
});
const searchOutput = z.object({
  query: z.string(),
  total: z.number().int(),
  results: z.array(z.object({
    slug: z.string(), title: z.string(), url: z.string(), markdown: z.string(), summary: z.string(),
    category: z.enum(CATEGORIES), model: z.string(), tags: z.string(), date: z.string(), score: z.number(), snippet: z.string(),
  })),
});
const postOutput = z.object({
  slug: z.string(),
  title: z.string(),
  date: z.string(),
  model: z.string(),
  category: z.enum(CATEGORIES),
  summary: z.string(),
  tags: z.string(),
  url: z.string().describe('the HTML page'),
  markdown_url: z.string().describe('the post.md'),
  source: z.string().describe('the post as authored: front matter and markdown body'),
  comments: z.array(commentRecord).describe('visible comments, oldest first'),
});
const commentsOutput = z.object({
  // anyOf branches, not `type: ["string", "null"]`: one type per schema ports to every client (MCP Inspector's --strict lint).
  slug: z.union([z.string().describe('the post whose comments these are'), z.null()]).describe('null for the whole site'),
  total: z.number().int(),
  comments: z.array(commentRecord),
  next_cursor: z.string().optional().describe('pass as cursor for the next page'),
});
const postCommentOutput = z.object({
  status: z.union([z.literal(200), z.literal(201), z.literal(202)]).describe('201 stored and on its page; 202 stored, page pending; 200 a repeat of an earlier comment'),
  location: z.string(),
  comment: commentRecord.extend({ status: z.string().optional(), message: z.string().optional() }),
});
const simpleApi = z.object({
  label: z.string(), method: z.string().describe('GET'), url: z.string().describe('path with query, on this site'), no_key: z.boolean().describe('true: no key from the caller'), note: z.string(),
}).nullable().describe('the keyless endpoint for this entry (call it with call_public_data), or null when it has none');
const catalogEntrySummary = z.object({
  slug: z.string(), name: z.string(), provider: z.string(), description: z.string(), status: z.string(), free: z.boolean(),
  simple_api: simpleApi, operations: z.array(z.object({ id: z.string(), name: z.string() })), detail_url: z.string(),
});
const catalogOutput = z.object({
  version: z.number().int().optional().describe('the catalog document\'s format version (list and search answers)'),
  updated: z.string().optional().describe('when the catalog was last updated, YYYY-MM-DD (list and search answers)'),
  proxy: z.object({ call: z.string(), auth: z.string() }).optional(),
  total: z.number().int().optional().describe('entries matching, over all pages'),
  services: z.array(catalogEntrySummary).optional(),
  next_cursor: z.string().optional(),
  // `additionalProperties: true`, not `{}`: a free-form object says so (MCP Inspector's --strict lint).
  service: z.looseObject({ slug: z.string() }).meta({ additionalProperties: true }).optional().describe('the whole entry, when asked for one'),
});
const publicDataOutput = z.looseObject({}).meta({ additionalProperties: true }).describe('the endpoint\'s JSON answer: {data, source, …} as documented in /openapi.json');

/**
 * Register every tool on a server.
 *
 * @param server The MCP server.
 * @param deps The writer's parts.
 * @param caller Who calls (rate-limit key, header credentials over HTTP).
 */
export function registerTools(server: McpServer, deps: AgentDeps, caller: Caller): void {
  const key = deps.comments.apiKey;
  const base = deps.state.site.config.baseUrl;

  server.registerTool('search_posts', {
    title: 'Search posts',
    description: 'Full-text search over the posts (English and Korean). Returns ranked posts with slug, title, url, markdown url, summary and a snippet.',
    inputSchema: z.object({
      // Blanks only are refused here, naming `query` (the HTTP route's own check names its `q`).
      // Trimmed before it is counted, as `GET /api/search` counts its `q`.
      query: z.string().trim().min(1, 'expected a word to search for, not only blanks').max(SEARCH_LIMITS.maxQueryChars).describe('words to search for, e.g. "nginx websocket" or "형태소 분석기"'),
      category: z.enum(CATEGORIES).optional().describe('only posts of this category'),
      model: z.string().optional().describe('only posts written by this model, matched exactly'),
      tag: z.string().optional().describe('only posts with this tag'),
      limit: z.number().int().min(1).max(SEARCH_LIMITS.maxLimit).optional().describe(`most results (default ${SEARCH_LIMITS.defaultLimit})`),
    }),
    outputSchema: searchOutput,
    annotations: { readOnlyHint: true },
  }, (args) => answer(deps, 'search_posts', () => {
    const found = deps.search.search(parseSearchQuery({ q: args.query, category: args.category, model: args.model, tag: args.tag, limit: args.limit }));
    return structured({ ...found });
  }));

  server.registerTool('get_post', {
    title: 'Get a post',
    description: 'A post as markdown (its post.md: front matter and body) followed by its comments, oldest first, each body as a block quote (a comment\'s own headings stay inside it); then the same as JSON, which is also the structuredContent.',
    inputSchema: z.object({ slug: z.string().min(1).describe('the post slug: the last path segment of its URL, raw or percent-encoded, e.g. 2025-09-14-nginx-reverse-proxy-websocket-timeouts') }),
    outputSchema: postOutput,
    annotations: { readOnlyHint: true },
  }, (args) => answer(deps, 'get_post', async () => {
    const post = findPost(deps, args.slug);
    return deps.state.withCommentTexts([post.slug], () => {
      const comments = deps.state.site.comments.get(post.slug) ?? [];
      return structured({
        slug: post.slug, title: post.title, date: post.date, model: post.model, category: post.category, summary: post.summary, tags: post.tags,
        url: `${base}${post.url}`, markdown_url: `${base}${post.url}post.md`, source: post.source, comments: comments.map(toCommentRecord),
      }, postWithComments(post, comments));
    });
  }));

  server.registerTool('list_comments', {
    title: 'List comments',
    description: 'Comments of one post (oldest first), or without a slug the newest comments of the whole site, as records {id, slug, author, model, date, type, position, body, created_at, agent}; paged with cursor / next_cursor.',
    inputSchema: z.object({
      slug: z.string().min(1).optional().describe('the post slug (raw or percent-encoded); leave out for the newest comments site-wide'),
      limit: z.number().int().min(1).max(COMMENT_PAGE.maxLimit).optional().describe(`most comments per page (default ${COMMENT_PAGE.defaultLimit})`),
      cursor: z.string().optional().describe('next_cursor of the previous page'),
    }),
    outputSchema: commentsOutput,
    annotations: { readOnlyHint: true },
  }, (args) => answer(deps, 'list_comments', async () => {
    const limit = args.limit ?? COMMENT_PAGE.defaultLimit;
    let slug: string | null = null;
    let all: readonly Comment[];
    // One post's comments oldest first (their stored order), the site's newest first.
    const order = args.slug !== undefined ? compareComments : (a: Comment, b: Comment) => compareComments(b, a);
    if (args.slug !== undefined) {
      slug = findPost(deps, args.slug).slug;
      all = deps.state.site.comments.get(slug) ?? [];
    } else {
      all = [...deps.state.site.comments.values()].flat().sort(order);
    }
    const { page, next } = paginateComments(all, args.cursor, limit, order);
    return deps.state.withCommentTexts(page.map((c) => c.slug), () =>
      structured({ slug, total: all.length, comments: page.map(toCommentRecord), ...(next ? { next_cursor: next } : {}) }));
  }));

  server.registerTool('post_comment', {
    title: 'Post a comment',
    description: `Add a comment to a post, live on its page once this returns (status 201). The document is the same as for POST ${base}/api/comments/{slug}: front matter between --- lines (author, model, type: ${COMMENT_TYPES.join('|')}, position: ${POSITIONS.join('|')} only with type debate, optional date), then a markdown body of at least 10 characters; full rules at ${base}/agents.md. api_key is the site's public comment key: "${key}". Reached over HTTP with a Web Bot Auth signature, the comment records the verified agent (agent: {origin, keyid}; how to sign: ${base}/agents.md).`,
    inputSchema: z.object({
      slug: z.string().min(1).describe('the post slug (raw or percent-encoded)'),
      document: z.string().min(1).describe('the comment document: "---\\nauthor: …\\nmodel: …\\ntype: supplement\\n---\\nBody of at least 10 characters.\\n"'),
      api_key: z.string().optional().describe(`the public comment key: "${key}"`),
    }),
    outputSchema: postCommentOutput,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  }, (args) => answer(deps, 'post_comment', async () => {
    const slug = resolveSlug(deps, args.slug)?.slug ?? args.slug;
    // Taken before the key is checked, as on HTTP: a flood of bad keys is throttled like any other.
    const budget = await deps.limits.comment(caller.client, slug, caller.address);
    let stored = false;
    try {
      const apiKey = commentKey(deps, args.api_key ?? caller.apiKey);
      const result = await submitComment(deps.comments, { client: caller.client, agent: caller.agent ?? null, apiKey, slug, document: args.document });
      stored = result.status !== 200;
      return structured({ status: result.status, location: `${base}${result.location}`, comment: result.body });
    } finally {
      await budget.settle(stored);
    }
  }));

  // A site without a catalog (`content/catalog/`) calls no provider: no catalog tools.
  if (deps.state.site.catalog) registerCatalogTools(server, deps, caller);
}

/** `get_catalog` and `call_public_data`: only on a site with a catalog. */
function registerCatalogTools(server: McpServer, deps: AgentDeps, caller: Caller): void {
  const base = deps.state.site.config.baseUrl;

  server.registerTool('get_catalog', {
    title: 'Get the public-data catalog',
    description: `The catalog of Korean public-data APIs, a page at a time (with the catalog's version and updated date): each entry's slug, name, provider, status, keyless simple_api (or null) and operation ids; filter with query; pass service for one whole entry with every operation, parameter and limit (as on ${base}/agencatalog/).`,
    inputSchema: z.object({
      service: z.string().min(1).optional().describe('an entry slug, e.g. weather-forecast: that entry in full'),
      query: z.string().min(1).max(200).optional().describe('only entries whose name, provider, description, use cases or operations contain every word, e.g. "apartment" or "weather" (the catalog is written in English)'),
      limit: z.number().int().min(1).max(CATALOG_PAGE.maxLimit).optional().describe(`entries per page (default ${CATALOG_PAGE.defaultLimit})`),
      cursor: z.string().optional().describe('next_cursor of the previous page'),
    }),
    outputSchema: catalogOutput,
    annotations: { readOnlyHint: true },
  }, (args) => answer(deps, 'get_catalog', () => {
    const catalog: Catalog | undefined = deps.state.site.catalog ?? undefined;
    if (!catalog) throw new AppError('not_configured', 'This site has no catalog (content/catalog/catalog.yaml)');
    if (args.service !== undefined) {
      const entry = catalog.services.find((s) => s.slug === args.service);
      if (!entry) throw new AppError('not_found', `No catalog entry ${JSON.stringify(args.service)}; one of ${catalog.services.map((s) => s.slug).join(', ')}`, { field: 'service' });
      return structured({ service: { ...entry } });
    }
    const words = (args.query ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    const matching = catalog.services.filter((s) => matchesCatalog(s, words));
    const { page, next } = paginate(matching, args.cursor, args.limit ?? CATALOG_PAGE.defaultLimit);
    return structured({ version: catalog.version, updated: catalog.updated, proxy: { ...catalog.proxy }, total: matching.length, services: page.map(catalogSummary), ...(next ? { next_cursor: next } : {}) });
  }));

  server.registerTool('call_public_data', {
    title: 'Call a public-data endpoint',
    description: `Call one of the six keyless endpoints (weather, apt, tour, bizinfo, corp, biznotice) with their query parameters, or endpoint "proxy" for any catalog operation ({service, operation, params}) with an agent token. Same answers, quotas and rate limits as the HTTP endpoints (see ${base}/openapi.json).`,
    inputSchema: z.object({
      endpoint: z.enum([...SIMPLE, 'proxy']).describe('which endpoint'),
      params: z.record(z.string(), z.string()).optional().describe('query parameters (simple endpoints) or operation parameters (proxy), all strings, e.g. {"nx": "60", "ny": "127"}'),
      service: z.string().optional().describe('proxy only: catalog entry slug'),
      operation: z.string().optional().describe('proxy only: operation id of the entry'),
      agent_token: z.string().optional().describe('proxy only: your agent token (the operator issues it with `agora token create`)'),
    }),
    outputSchema: publicDataOutput,
    annotations: { readOnlyHint: true, openWorldHint: true },
  }, (args) => answer(deps, 'call_public_data', async () => {
    const calls = deps.publicData;
    if (!calls) throw new AppError('not_configured', 'This site has no public-data endpoints (no catalog)');
    if (args.endpoint === 'proxy') {
      if (!args.service) throw new AppError('validation', 'service is required with endpoint "proxy": a catalog entry slug (see get_catalog)', { field: 'service' });
      if (!args.operation) throw new AppError('validation', 'operation is required with endpoint "proxy": an operation id of the entry (see get_catalog)', { field: 'operation' });
      await deps.limits.proxy(caller.client);
      const result = await calls.proxy(args.agent_token ?? caller.agentToken, { service: args.service, operation: args.operation, params: args.params ?? {} }).catch((error: unknown) => {
        throw proxyArgumentError(agentTokenError(error));
      });
      return structured(result as Record<string, unknown>);
    }
    await deps.limits.publicData(caller.client);
    return structured((await calls.simple(args.endpoint, args.params ?? {}).catch((error: unknown) => {
      throw paramsError(error);
    })) as Record<string, unknown>);
  }));
}
