/**
 * `POST /mcp`: the MCP server over Streamable HTTP, stateless (a fresh server and
 * transport per request, so any writer node can answer any request). The caller's
 * address is its rate-limit key, as on the HTTP routes.
 */
import express, { Router } from 'express';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { hostHeaderValidation } from '@modelcontextprotocol/sdk/server/middleware/hostHeaderValidation.js';
import type { AgoraConfig } from '@agora/generator';
import { AppError } from '../errors.ts';
import { clientKey } from '../http/client-key.ts';
import { createMcpServer } from './server.ts';
import type { AgentDeps } from './deps.ts';

/** JSON-RPC bodies: a comment document (16 KiB) escaped in JSON fits well within this. */
const BODY_LIMIT = '64kb';

/**
 * Host names `/mcp` answers for. A web page that rebinds its own DNS name to this
 * server's address (DNS rebinding) sends that name as `Host`, so anything else is
 * refused: the site's own host (`AGORA_BASE_URL`), the address the writer listens on,
 * loopback names, and `AGORA_MCP_HOSTS`.
 */
export function mcpHostNames(config: Pick<AgoraConfig, 'host' | 'site'>, extra: readonly string[] = []): string[] {
  const names = new Set(['localhost', '127.0.0.1', '[::1]', ...extra]);
  names.add(new URL(config.site.baseUrl).hostname);
  if (config.host !== '0.0.0.0' && config.host !== '::') names.add(config.host.includes(':') ? `[${config.host}]` : config.host.toLowerCase());
  return [...names];
}

/**
 * The `/mcp` router.
 *
 * @param deps The writer's parts.
 * @param hosts Allowed `Host` names (`mcpHostNames`); other hosts get 403.
 * @example
 * app.use(mcpRoutes(agents, mcpHostNames(config)));
 */
export function mcpRoutes(deps: AgentDeps, hosts: readonly string[]): Router {
  const router = Router();
  const parse = express.json({ limit: BODY_LIMIT, type: () => true });
  // The SDK's own check, before the body is read: a JSON-RPC error with 403.
  router.post('/mcp', hostHeaderValidation([...hosts]), parse, async (req, res) => {
    const server = createMcpServer(deps, { client: clientKey(req), apiKey: req.get('x-api-key'), agentToken: req.get('x-agent-token') });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  router.all('/mcp', (req) => {
    throw new AppError('method_not_allowed', `${req.method} is not allowed on /mcp; this MCP server is stateless: POST JSON-RPC messages (Streamable HTTP)`, { headers: { Allow: 'POST' } });
  });
  return router;
}
