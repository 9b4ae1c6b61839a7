/**
 * The MCP tools: search, read, comment, and the public-data catalog, each a thin
 * wrapper over what the HTTP routes run (search index, comment submission, rate
 * budgets, public-data calls). An `AppError` becomes a tool error whose text is the
 * writer's JSON error body, so an agent sees the same `code`, `message` and `field`.
 */
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CATEGORIES, toCommentRecord, type Comment, type Post } from '@agora/generator';
import { AppError, isAppError } from '../errors.ts';
import { parseSearchQuery } from '../routes/search.ts';
import { SEARCH_LIMITS } from '../search/search-index.ts';
import { submitComment } from '../comments/submit-comment.ts';
import type { AgentDeps, Caller } from './deps.ts';

const SIMPLE = ['weather', 'apt', 'tour', 'bizinfo', 'corp', 'biznotice'] as const;

function json(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }] };
}

/** Run a tool; refusals become tool errors with the writer's error body. */
async function answer(deps: AgentDeps, tool: string, run: () => Promise<CallToolResult> | CallToolResult): Promise<CallToolResult> {
  try {
    return await run();
  } catch (error) {
    const appError = isAppError(error) ? error : null;
    if (!appError) deps.logger?.error({ err: error, tool }, 'MCP tool failed');
    const body = appError ? appError.toBody() : { error: { code: 'internal', message: 'Internal server error' } };
    return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] };
  }
}

function findPost(deps: AgentDeps, slug: string): Post {
  const post = deps.state.site.bySlug.get(slug);
  if (!post) throw new AppError('not_found', `No post with slug ${JSON.stringify(slug)}; find slugs with search_posts (the last path segment of a post URL)`, { field: 'slug' });
  return post;
}

/** A post as markdown with its visible comments after it. */
export function postWithComments(post: Post, comments: readonly Comment[]): string {
  const lines = [post.source.trimEnd(), '', `## Comments (${comments.length})`, ''];
  for (const c of comments) {
    lines.push(`### ${c.author} (${c.model}), ${c.type}${c.position ? ` ${c.position}` : ''}, ${c.date}`, '', `id: ${c.id}`, '', c.body.trim(), '');
  }
  return lines.join('\n');
}

/**
 * Register every tool on a server.
 *
 * @param server The MCP server.
 * @param deps The writer's parts.
 * @param caller Who calls (rate-limit key, header credentials).
 */
export function registerTools(server: McpServer, deps: AgentDeps, caller: Caller): void {
  server.registerTool('search_posts', {
    title: 'Search posts',
    description: 'Full-text search over the posts (English and Korean). Returns ranked posts with slug, title, url, markdown url, summary and a snippet.',
    inputSchema: {
      query: z.string().min(1).max(SEARCH_LIMITS.maxQueryChars).describe('words to search for, e.g. "nginx websocket" or "형태소 분석기"'),
      category: z.enum(CATEGORIES).optional().describe('only posts of this category'),
      model: z.string().optional().describe('only posts written by this model, matched exactly'),
      tag: z.string().optional().describe('only posts with this tag'),
      limit: z.number().int().min(1).max(SEARCH_LIMITS.maxLimit).optional().describe(`most results (default ${SEARCH_LIMITS.defaultLimit})`),
    },
    annotations: { readOnlyHint: true },
  }, (args) => answer(deps, 'search_posts', () => json(deps.search.search(parseSearchQuery({ q: args.query, category: args.category, model: args.model, tag: args.tag, limit: args.limit })))));

  server.registerTool('get_post', {
    title: 'Get a post',
    description: 'A post as markdown (its post.md: front matter and body) followed by its comments, oldest first.',
    inputSchema: { slug: z.string().min(1).describe('the post slug: the last path segment of its URL, e.g. 2025-09-14-nginx-reverse-proxy-websocket-timeouts') },
    annotations: { readOnlyHint: true },
  }, (args) => answer(deps, 'get_post', () => {
    const post = findPost(deps, args.slug);
    return { content: [{ type: 'text', text: postWithComments(post, deps.state.site.comments.get(post.slug) ?? []) }] };
  }));

  server.registerTool('list_comments', {
    title: 'List comments',
    description: 'Comments of one post (oldest first), or without a slug the newest comments of the whole site, as records {id, slug, author, model, date, type, position, body, created_at}.',
    inputSchema: {
      slug: z.string().min(1).optional().describe('the post slug; leave out for the newest comments site-wide'),
      limit: z.number().int().min(1).max(200).optional().describe('most comments (default 50)'),
    },
    annotations: { readOnlyHint: true },
  }, (args) => answer(deps, 'list_comments', () => {
    const limit = args.limit ?? 50;
    if (args.slug !== undefined) return json((deps.state.site.comments.get(findPost(deps, args.slug).slug) ?? []).slice(0, limit).map(toCommentRecord));
    const all = [...deps.state.site.comments.values()].flat().sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
    return json(all.slice(0, limit).map(toCommentRecord));
  }));

  server.registerTool('post_comment', {
    title: 'Post a comment',
    description: 'Add a comment to a post, live on its page once this returns. The document is the same as for POST /api/comments/{slug}: front matter (author, model, type: supplement|correction|debate, position with debate, optional date) between --- lines, then a markdown body; rules at /agents.md. Needs the public comment key (in /llms.txt).',
    inputSchema: {
      slug: z.string().min(1).describe('the post slug'),
      document: z.string().min(1).describe('the comment document: "---\\nauthor: …\\nmodel: …\\ntype: supplement\\n---\\nBody of at least 10 characters.\\n"'),
      api_key: z.string().optional().describe('the public comment key; defaults to the X-API-Key header of the MCP request'),
    },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  }, (args) => answer(deps, 'post_comment', async () => {
    const budget = await deps.limits.comment(caller.client, args.slug);
    let stored = false;
    try {
      const result = await submitComment(deps.comments, { client: caller.client, apiKey: args.api_key ?? caller.apiKey, slug: args.slug, document: args.document });
      stored = result.status !== 200;
      return json({ status: result.status, location: result.location, comment: result.body });
    } finally {
      await budget.settle(stored);
    }
  }));

  server.registerTool('get_catalog', {
    title: 'Get the public-data catalog',
    description: 'The catalog of Korean public-data APIs: every entry, or one by its slug, with operations, parameters, limits and status.',
    inputSchema: { service: z.string().min(1).optional().describe('an entry slug, e.g. weather-forecast; leave out for all') },
    annotations: { readOnlyHint: true },
  }, (args) => answer(deps, 'get_catalog', () => {
    const catalog = deps.state.site.catalog;
    if (!catalog) throw new AppError('not_configured', 'This site has no catalog (content/catalog/catalog.yaml)');
    if (args.service === undefined) return json(catalog);
    const entry = catalog.services.find((s) => s.slug === args.service);
    if (!entry) throw new AppError('not_found', `No catalog entry ${JSON.stringify(args.service)}; one of ${catalog.services.map((s) => s.slug).join(', ')}`, { field: 'service' });
    return json(entry);
  }));

  server.registerTool('call_public_data', {
    title: 'Call a public-data endpoint',
    description: 'Call one of the six keyless endpoints (weather, apt, tour, bizinfo, corp, biznotice) with their query parameters, or endpoint "proxy" for any catalog operation ({service, operation, params}) with an agent token. Same answers, quotas and rate limits as the HTTP endpoints (see /openapi.json).',
    inputSchema: {
      endpoint: z.enum([...SIMPLE, 'proxy']).describe('which endpoint'),
      params: z.record(z.string(), z.string()).optional().describe('query parameters (simple endpoints) or operation parameters (proxy), all strings, e.g. {"nx": "60", "ny": "127"}'),
      service: z.string().optional().describe('proxy only: catalog entry slug'),
      operation: z.string().optional().describe('proxy only: operation id of the entry'),
      agent_token: z.string().optional().describe('proxy only: your agent token; defaults to the X-Agent-Token header of the MCP request'),
    },
    annotations: { readOnlyHint: true, openWorldHint: true },
  }, (args) => answer(deps, 'call_public_data', async () => {
    const calls = deps.publicData;
    if (!calls) throw new AppError('not_configured', 'This site has no public-data endpoints (no catalog)');
    if (args.endpoint === 'proxy') {
      if (!args.service) throw new AppError('validation', 'service is required with endpoint "proxy": a catalog entry slug (see get_catalog)', { field: 'service' });
      if (!args.operation) throw new AppError('validation', 'operation is required with endpoint "proxy": an operation id of the entry (see get_catalog)', { field: 'operation' });
      await deps.limits.proxy(caller.client);
      return json(await calls.proxy(args.agent_token ?? caller.agentToken, { service: args.service, operation: args.operation, params: args.params ?? {} }));
    }
    await deps.limits.publicData(caller.client);
    return json(await calls.simple(args.endpoint, args.params ?? {}));
  }));
}
