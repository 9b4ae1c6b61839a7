/**
 * The stdio server of `agora mcp` when a writer already holds the data folder: every
 * request is passed to that writer's `POST /mcp` (an SDK client pinned to 2026-07-28)
 * and its answer, results and JSON-RPC errors alike, passed back. The running writer
 * owns the store and `dist/`, so a comment posted here is stored, rebuilt and rate
 * limited exactly as one posted over HTTP, and nothing on disk has two writers.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { ProtocolError, Server } from '@modelcontextprotocol/server';
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
 * A request the writer refused before its MCP server read it (a body over 64 KB: 413; a
 * start not caught up: 503) answers with a JSON-RPC error body, which the SDK client
 * throws as "Error POSTing to endpoint: <that body>" (data `{status, text}`): passed back
 * here as the writer's own error (-32000, the writer's error object as `data`), as
 * `POST /mcp` answers it, not as an internal error (-32603) quoting the HTTP body.
 */
function writersOwnError(error: unknown): unknown {
  const text = (error as { data?: { text?: unknown } } | null)?.data?.text;
  if (typeof text !== 'string') return error;
  try {
    const answer = JSON.parse(text) as { jsonrpc?: unknown; error?: { code?: unknown; message?: unknown; data?: unknown } };
    const refused = answer.error;
    if (answer.jsonrpc !== '2.0' || typeof refused?.code !== 'number' || typeof refused.message !== 'string') return error;
    return new ProtocolError(refused.code, refused.message, refused.data);
  } catch {
    return error;
  }
}

/** The system's code of a connection that failed (`ECONNREFUSED`, `UND_ERR_SOCKET`, …), or null for any other error. */
function connectionFailure(error: unknown): string | null {
  for (let e = error as { message?: unknown; code?: unknown; cause?: unknown } | null, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    if (typeof e.code === 'string' && /^(E[A-Z]+|UND_ERR_[A-Z_]+)$/.test(e.code)) return e.code;
  }
  return (error as { message?: unknown } | null)?.message === 'fetch failed' ? 'fetch failed' : null;
}

/**
 * A writer that stopped under the session (or restarted elsewhere): said with its address,
 * what to do, and that a `post_comment` cut off on the way may have been stored (its 201
 * was lost, not its comment), instead of the SDK's bare -32603 "fetch failed".
 */
function unreachableWriter(error: unknown, endpoint: URL): unknown {
  const code = connectionFailure(error);
  if (code === null) return error;
  return new ProtocolError(-32603, `The writer at ${endpoint.href} cannot be reached (${code}): it stopped or is restarting. Start it again (\`agora start\`) and repeat the call; a post_comment cut off on the way may have been stored, so check with list_comments before posting it again.`, { writer: endpoint.href, cause: code });
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
 * @param endpoint Its `/mcp` URL, named when it stops answering.
 */
export function bridgeServer(client: Client, endpoint: URL): Server {
  const identity = client.getServerVersion() ?? { name: 'agora', version: '1.0.0' };
  const instructions = client.getInstructions();
  const server = new Server(identity, { capabilities: client.getServerCapabilities() ?? {}, ...(instructions ? { instructions } : {}) });
  const pass = <T extends object>(answer: Promise<T>) => answer.then(asOwn, (error: unknown) => Promise.reject(unreachableWriter(writersOwnError(error), endpoint)));
  server.setRequestHandler('tools/list', (request) => pass(client.listTools(own(request.params))));
  server.setRequestHandler('tools/call', (request) => pass(client.callTool(own(request.params)!)));
  server.setRequestHandler('resources/list', (request) => pass(client.listResources(own(request.params))));
  server.setRequestHandler('resources/templates/list', (request) => pass(client.listResourceTemplates(own(request.params))));
  server.setRequestHandler('resources/read', (request) => pass(client.readResource(own(request.params)!)));
  // Its params are checked here, before they are passed on, as the writer's own server does.
  invalidParamsAnswered(server);
  return server;
}
