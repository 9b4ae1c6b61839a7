/**
 * `POST /mcp`: the MCP server over Streamable HTTP, stateless (a fresh server and
 * transport per request, so any writer node can answer any request). The caller's
 * address is its rate-limit key, as on the HTTP routes.
 */
import express, { Router } from 'express';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { AppError } from '../errors.ts';
import { clientKey } from '../http/client-key.ts';
import { createMcpServer } from './server.ts';
import type { AgentDeps } from './deps.ts';

/** JSON-RPC bodies: a comment document (16 KiB) escaped in JSON fits well within this. */
const BODY_LIMIT = '64kb';

/**
 * The `/mcp` router.
 *
 * @param deps The writer's parts.
 * @example
 * app.use(mcpRoutes(agents));
 */
export function mcpRoutes(deps: AgentDeps): Router {
  const router = Router();
  const parse = express.json({ limit: BODY_LIMIT, type: () => true });
  router.post('/mcp', parse, async (req, res) => {
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
