/**
 * `createMcpServer`: the site as an MCP server (official SDK): the tools of tools.ts
 * and every post as a resource `agora://post/{slug}` (its post.md). Transports are
 * chosen by the caller: Streamable HTTP at `/mcp` (http.ts) or stdio (`agora mcp`).
 */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { AppError } from '../errors.ts';
import { registerTools } from './tools.ts';
import type { AgentDeps, Caller } from './deps.ts';

/** URI of a post resource. */
export function postUri(slug: string): string {
  return `agora://post/${encodeURIComponent(slug)}`;
}

/**
 * Create a server for one caller.
 *
 * @param deps The writer's parts.
 * @param caller Who calls (rate-limit key and header credentials).
 * @example
 * await createMcpServer(deps, { client: 'stdio' }).connect(new StdioServerTransport());
 */
export function createMcpServer(deps: AgentDeps, caller: Caller): McpServer {
  const site = deps.state.site.config;
  const server = new McpServer(
    { name: 'agora', title: site.title, version: '1.0.0' },
    { instructions: `${site.description} Search with search_posts, read with get_post, comment with post_comment (rules: ${site.baseUrl}/agents.md). Posts are also resources agora://post/{slug}.` },
  );
  registerTools(server, deps, caller);
  server.registerResource(
    'post',
    new ResourceTemplate('agora://post/{slug}', {
      list: () => ({
        resources: deps.state.site.posts.map((p) => ({ uri: postUri(p.slug), name: p.slug, title: p.title, description: p.summary, mimeType: 'text/markdown' })),
      }),
    }),
    { title: 'Post', description: 'A post as markdown (post.md)', mimeType: 'text/markdown' },
    (uri, variables) => {
      const raw = variables.slug;
      const slug = decodeURIComponent(String(Array.isArray(raw) ? raw[0] : raw));
      const post = deps.state.site.bySlug.get(slug);
      if (!post) throw new AppError('not_found', `No post with slug ${JSON.stringify(slug)}`, { field: 'slug' });
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: post.source }] };
    },
  );
  return server;
}
