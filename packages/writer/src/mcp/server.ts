/**
 * `createMcpServer`: the site as an MCP server (official SDK, `@modelcontextprotocol/server`
 * v2, which speaks the 2026-07-28 revision and the 2025 `initialize` era from the same
 * instance): the tools of tools.ts and every post as a resource `agora://post/{slug}`
 * (its post.md). Transports are chosen by the caller: Streamable HTTP at `/mcp`
 * (http.ts, `createMcpHandler`) or stdio (`agora mcp`, `serveStdio`).
 *
 * Capabilities say only what is true: the tool list never changes and no
 * `list_changed` notification is ever sent (stateless HTTP, and the stdio server does
 * not watch content), so `listChanged` is false for tools and resources.
 */
import { McpServer, ProtocolError, type Server, ProtocolErrorCode, ResourceNotFoundError, ResourceTemplate, specTypeSchemas, type CallToolResult } from '@modelcontextprotocol/server';
import { registerTools, paginate, resolveSlug } from './tools.ts';
import type { AgentDeps, Caller } from './deps.ts';
import { isAppError } from '../errors.ts';

/** Posts one `resources/list` page holds. */
export const RESOURCE_PAGE = 100;

/** URI of a post resource. */
export function postUri(slug: string): string {
  return `agora://post/${encodeURIComponent(slug)}`;
}

/**
 * Arguments a tool's input schema refuses get the writer's JSON error body naming the
 * argument, as every refusal of the tools themselves does (tools.ts), instead of the
 * SDK's plain text. The SDK builds that result in `createToolError`, its one hook for it.
 */
function writerToolErrors(server: McpServer): void {
  const sdk = server as unknown as { createToolError?: (message: string) => CallToolResult };
  if (typeof sdk.createToolError !== 'function') throw new Error('the MCP SDK no longer has createToolError: update writerToolErrors (mcp/server.ts)');
  sdk.createToolError = (message) => {
    const invalid = /^Input validation error: Invalid arguments for tool [^:]+: (.*)$/s.exec(message);
    // The whole path of the first refused argument (`params.nx`, not `params`), as the message says it.
    const field = invalid ? /^([A-Za-z_][^:\s]*): /.exec(invalid[1]!)?.[1] : undefined;
    const body = invalid ? { error: { code: 'validation', message: `invalid arguments: ${invalid[1]}`, ...(field ? { field } : {}) } } : { error: { code: 'internal', message } };
    return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] };
  };
}

/** What a Standard Schema says is wrong with a value. */
type Issues = readonly { message: string; path?: readonly (PropertyKey | { key: PropertyKey })[] }[];
interface RequestSchema {
  '~standard': { validate(value: unknown): { issues?: Issues } | Promise<unknown> };
}
/** The spec's schema of each request this server answers, by method. */
const REQUEST_SCHEMAS = new Map<string, RequestSchema>([
  ['initialize', specTypeSchemas.InitializeRequest],
  ['ping', specTypeSchemas.PingRequest],
  ['tools/list', specTypeSchemas.ListToolsRequest],
  ['tools/call', specTypeSchemas.CallToolRequest],
  ['resources/list', specTypeSchemas.ListResourcesRequest],
  ['resources/templates/list', specTypeSchemas.ListResourceTemplatesRequest],
  ['resources/read', specTypeSchemas.ReadResourceRequest],
]);

type RequestHandler = (request: { method: string; params?: unknown }, ctx: unknown) => unknown;

/**
 * A request whose params the spec's schema refuses (`resources/read` without a `uri`, a
 * numeric `cursor`) is JSON-RPC's invalid params (-32602), naming the param. The SDK
 * (2.4) throws a plain Error for it, which it answers as an internal error (-32603) with
 * the validator's dump. Every handler registered by now is wrapped: the SDK keeps them
 * in one map, its only seam for this. Used by the stdio bridge's server too (bridge.ts).
 */
export function invalidParamsAnswered(server: Server): void {
  const handlers = (server as unknown as { _requestHandlers?: Map<string, RequestHandler> })._requestHandlers;
  if (!(handlers instanceof Map)) throw new Error('the MCP SDK no longer keeps _requestHandlers: update invalidParamsAnswered (mcp/server.ts)');
  for (const [method, handler] of handlers) {
    const schema = REQUEST_SCHEMAS.get(method);
    if (!schema) continue;
    handlers.set(method, (request, ctx) => {
      const checked = schema['~standard'].validate({ method: request.method, params: request.params });
      const issues = checked instanceof Promise ? undefined : (checked as { issues?: Issues }).issues;
      if (issues?.length) {
        const said = issues.slice(0, 3).map((i) => `${(i.path ?? []).map((p) => String(typeof p === 'object' ? p.key : p)).join('.') || 'params'}: ${i.message}`);
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid params for ${method}: ${said.join('; ')}`);
      }
      return handler(request, ctx);
    });
  }
}

/**
 * The requests one server instance answers (one `POST /mcp`, a batch of up to 100 among
 * them, or one stdio connection) start one event-loop turn after another, so other
 * clients' requests are read and answered in between. The SDK starts every member of a
 * batch at once, and the synchronous part of each (a search, a tool list's schemas) ran
 * back to back: one 60 KB batch of 100 `search_posts` held the event loop for ~0.6 s and
 * every other client's request waited for it. Only the starts are ordered: a call that
 * awaits (a provider's answer, the store) lets the next one start.
 */
export function oneTurnEach(server: Server): void {
  const handlers = (server as unknown as { _requestHandlers?: Map<string, RequestHandler> })._requestHandlers;
  if (!(handlers instanceof Map)) throw new Error('the MCP SDK no longer keeps _requestHandlers: update oneTurnEach (mcp/server.ts)');
  let turn: Promise<void> = Promise.resolve();
  for (const [method, handler] of handlers) {
    handlers.set(method, (request, ctx) => {
      // Scheduled once the previous request has started: its setImmediate runs after the next poll for I/O.
      const mine = turn.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
      turn = mine;
      return mine.then(() => handler(request, ctx));
    });
  }
}

/** What the server tells a client when it connects: how to search, read and comment. */
export function serverInstructions(deps: AgentDeps): string {
  const site = deps.state.site.config;
  return [
    `${site.title}: ${site.description}`,
    `Site: ${site.baseUrl} (llms.txt: ${site.baseUrl}/llms.txt).`,
    'Search with search_posts, read with get_post (a slug raw or percent-encoded), list comments with list_comments.',
    `Comment with post_comment: a document with front matter (author, model, type: supplement|correction|debate, position with debate) and a markdown body; pass api_key "${deps.comments.apiKey}", the site's public comment key (rules: ${site.baseUrl}/agents.md).`,
    ...(deps.state.site.catalog ? ['Korean public data: get_catalog, then call_public_data.'] : []),
    'Posts are also resources agora://post/{slug}.',
  ].join('\n');
}

/**
 * Create a server for one caller (one HTTP request, or one stdio connection).
 *
 * @param deps The writer's parts.
 * @param caller Who calls (rate-limit key and header credentials).
 * @example
 * serveStdio(() => createMcpServer(deps, { client: 'stdio' }));
 */
export function createMcpServer(deps: AgentDeps, caller: Caller): McpServer {
  const site = deps.state.site.config;
  const server = new McpServer(
    { name: 'agora', title: site.title, version: '1.0.0', websiteUrl: site.baseUrl },
    { capabilities: { tools: { listChanged: false }, resources: { listChanged: false } }, instructions: serverInstructions(deps) },
  );
  registerTools(server, deps, caller);
  writerToolErrors(server);
  server.registerResource(
    'post',
    new ResourceTemplate('agora://post/{slug}', { list: undefined }),
    { title: 'Post', description: 'A post as markdown (post.md)', mimeType: 'text/markdown' },
    (uri, variables) => {
      const raw = variables.slug;
      const post = resolveSlug(deps, String(Array.isArray(raw) ? raw[0] : raw));
      if (!post) throw new ResourceNotFoundError(uri.href, `No post at ${uri.href}; list posts with resources/list or search_posts`);
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: post.source }] };
    },
  );
  // The SDK's own resources/list has no cursor; the posts are listed a page at a time.
  server.server.setRequestHandler('resources/list', (request) => {
    try {
      const { page, next } = paginate(deps.state.site.posts, request.params?.cursor, RESOURCE_PAGE);
      return {
        resources: page.map((p) => ({ uri: postUri(p.slug), name: p.slug, title: p.title, description: p.summary, mimeType: 'text/markdown' })),
        ...(next ? { nextCursor: next } : {}),
      };
    } catch (error) {
      if (isAppError(error)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, error.message);
      throw error;
    }
  });
  invalidParamsAnswered(server.server);
  oneTurnEach(server.server);
  return server;
}
