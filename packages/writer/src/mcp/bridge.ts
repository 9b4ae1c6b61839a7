/**
 * The stdio server of `agora mcp` when a writer already holds the data folder: every
 * request is passed to that writer's `POST /mcp` (an SDK client pinned to 2026-07-28)
 * and its answer, results and JSON-RPC errors alike, passed back. The running writer
 * owns the store and `dist/`, so a comment posted here is stored, rebuilt and rate
 * limited exactly as one posted over HTTP, and nothing on disk has two writers.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Server } from '@modelcontextprotocol/server';
import { invalidParamsAnswered } from './server.ts';

/** Drop the caller's per-request `_meta` envelope: the forwarding client stamps its own. */
function own<T extends { _meta?: unknown }>(params: T | undefined): Omit<T, '_meta'> | undefined {
  if (!params) return undefined;
  const { _meta: _envelope, ...rest } = params;
  return rest;
}

/**
 * A result of the writer as this server's own: without what the forwarding client's
 * 2026-07-28 session added (the writer's `serverInfo` in `_meta`, the list cache hints
 * `ttlMs` and `cacheScope`), so a client of an earlier revision gets what a writer
 * serving stdio itself would send it; this server adds what the client's revision asks.
 */
function asOwn<T extends object>(result: T): T {
  const { ttlMs: _ttl, cacheScope: _scope, _meta, ...rest } = result as T & { ttlMs?: unknown; cacheScope?: unknown; _meta?: Record<string, unknown> };
  const { 'io.modelcontextprotocol/serverInfo': _info, ...meta } = _meta ?? {};
  return (Object.keys(meta).length > 0 ? { ...rest, _meta: meta } : rest) as T;
}

/**
 * Connect to a running writer's MCP endpoint.
 *
 * @param endpoint The writer's `/mcp` URL, e.g. `http://127.0.0.1:8080/mcp`.
 */
export async function connectWriter(endpoint: URL): Promise<Client> {
  const client = new Client({ name: 'agora-mcp-stdio', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StreamableHTTPClientTransport(endpoint));
  return client;
}

/**
 * A server that answers with what `client`'s server answers: the same identity,
 * capabilities, instructions, tools and resources.
 *
 * @param client Connected to the running writer (`connectWriter`).
 */
export function bridgeServer(client: Client): Server {
  const identity = client.getServerVersion() ?? { name: 'agora', version: '1.0.0' };
  const instructions = client.getInstructions();
  const server = new Server(identity, { capabilities: client.getServerCapabilities() ?? {}, ...(instructions ? { instructions } : {}) });
  const pass = <T extends object>(answer: Promise<T>) => answer.then(asOwn);
  server.setRequestHandler('tools/list', (request) => pass(client.listTools(own(request.params))));
  server.setRequestHandler('tools/call', (request) => pass(client.callTool(own(request.params)!)));
  server.setRequestHandler('resources/list', (request) => pass(client.listResources(own(request.params))));
  server.setRequestHandler('resources/templates/list', (request) => pass(client.listResourceTemplates(own(request.params))));
  server.setRequestHandler('resources/read', (request) => pass(client.readResource(own(request.params)!)));
  // Its params are checked here, before they are passed on, as the writer's own server does.
  invalidParamsAnswered(server);
  return server;
}
