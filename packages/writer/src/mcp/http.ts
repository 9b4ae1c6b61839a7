/**
 * `POST /mcp`: the MCP server over Streamable HTTP, stateless in both protocol eras:
 * the SDK's `createMcpHandler` builds a fresh server per request, answering 2026-07-28
 * requests (`server/discover`, a `_meta` envelope on every request) and 2025-era ones
 * (`initialize`, then any request) alike, so any writer node can answer any request.
 * The caller's address is its rate-limit key, as on the HTTP routes; a request signed by
 * a verified agent (Web Bot Auth, `agents/identity.ts`) is keyed by the agent, and
 * `post_comment` stores the agent with the comment.
 *
 * Browsers: a request's `Host` and, when sent, its `Origin` must be names this server
 * answers for (one list, `mcpHostNames`), else 403 with a JSON-RPC error; an allowed
 * Origin gets CORS headers (and `OPTIONS` its preflight). Invalid JSON is JSON-RPC's
 * parse error (-32700), JSON that is no message -32600. Every other `/mcp` error (a
 * refused signature, a blocked agent, a spent budget, a body over 64 KB) is a JSON-RPC
 * error too, -32000 with the writer's own error object as `data` (`mcpErrorAnswer`).
 */
import express, { Router, type ErrorRequestHandler, type Request, type RequestHandler } from 'express';
import { createMcpHandler, ProtocolErrorCode, SUPPORTED_PROTOCOL_VERSIONS, type AuthInfo } from '@modelcontextprotocol/server';
import { hostHeaderValidation, toNodeHandler } from '@modelcontextprotocol/node';
import type { ServerResponse } from 'node:http';
import type { AgoraConfig } from '@agora/generator';
import { isJsonRefused, writeError, type AppError, type ErrorBody } from '../errors.ts';
import { utf8Json } from '../http/utf8-json.ts';
import { addressOf, clientKey, verifiedAgent } from '../http/client-key.ts';
import { checkContentDigest } from '../http/content-digest.ts';
import { createMcpServer } from './server.ts';
import type { AgentDeps, Caller } from './deps.ts';

/** JSON-RPC bodies: a comment document (16 KiB) escaped in JSON fits well within this. */
const BODY_LIMIT = '64kb';

/** Headers a browser client may send: MCP's own, the comment key, and Web Bot Auth's signature. */
const ALLOW_HEADERS = ['Content-Type', 'Accept', 'Mcp-Session-Id', 'Mcp-Protocol-Version', 'Mcp-Method', 'Mcp-Name', 'Content-Digest', 'X-API-Key', 'X-Agent-Token', 'Authorization', 'Signature', 'Signature-Input', 'Signature-Agent'].join(', ');

/**
 * Host names `/mcp` answers for. A web page that rebinds its own DNS name to this
 * server's address (DNS rebinding) sends that name as `Host`, so anything else is
 * refused: the site's own host (`AGORA_BASE_URL`), the writer's (`AGORA_WRITER_URL`, where
 * llms.txt and agents.md send MCP clients when a CDN serves the site), the address the
 * writer listens on, loopback names, and `AGORA_MCP_HOSTS`.
 */
export function mcpHostNames(config: Pick<AgoraConfig, 'host' | 'site'>, extra: readonly string[] = []): string[] {
  const names = new Set(['localhost', '127.0.0.1', '[::1]', ...extra]);
  names.add(new URL(config.site.baseUrl).hostname);
  if (config.site.writerUrl) names.add(new URL(config.site.writerUrl).hostname);
  if (config.host !== '0.0.0.0' && config.host !== '::') names.add(config.host.includes(':') ? `[${config.host}]` : config.host.toLowerCase());
  return [...names];
}

/**
 * Where a writer started with `config` listens, as a URL a local process can reach
 * (a wildcard address becomes the loopback one).
 */
export function writerUrl(config: Pick<AgoraConfig, 'host' | 'port'>): string {
  const host = config.host === '0.0.0.0' || config.host === '::' || config.host === '' ? '127.0.0.1' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
}

/**
 * Whether a browser's `Origin` may call `/mcp`. The rule reuses the Host list, so one
 * setting (`AGORA_MCP_HOSTS`) governs both checks: an http(s) origin whose host name is
 * one `mcpHostNames` gives (the base URL's and writer URL's hosts, the listening address,
 * loopback names, `AGORA_MCP_HOSTS`), at any port, as the SDK's own `originValidation` matches. That
 * covers the site's own origin (`baseUrl`) and same-origin use (the Host, already
 * checked, is on the list). `null` (sandboxed frames, `file:`) and any other site are
 * refused: a page elsewhere cannot drive a local writer's tools.
 */
export function originAllowed(origin: string, hosts: readonly string[]): boolean {
  if (!URL.canParse(origin)) return false;
  const url = new URL(origin);
  // Only an origin as browsers write it (scheme://host[:port]): `http://localhost\\@evil.com`
  // parses to the host localhost, and was allowed and echoed back as it came.
  return url.origin === origin.toLowerCase() && (url.protocol === 'http:' || url.protocol === 'https:') && hosts.includes(url.hostname);
}

/** A JSON-RPC error answer (no id when the request was refused before it was read). */
function jsonRpcError(code: number, message: string, data?: unknown, id: string | number | null = null) {
  return { jsonrpc: '2.0' as const, id, error: { code, message, ...(data === undefined ? {} : { data }) } };
}

/**
 * The answer to an error that reached the writer's error funnel on `/mcp`: its status and
 * headers, as a JSON-RPC error (-32000) whose `data` is the writer's error object
 * (`code`, `check`, `field` …), so an MCP client reads it as one of its protocol's errors.
 */
export function mcpErrorAnswer(res: ServerResponse, appError: AppError | null): void {
  writeError(res, appError, mcpErrorShape);
}

/** The writer's error body as `/mcp` answers it: a JSON-RPC error (-32000) carrying it as `data`. */
export const mcpErrorShape = ({ error }: ErrorBody) => jsonRpcError(-32000, error.message, error);

/** Every protocol revision this server speaks: the 2025 era's, then 2026-07-28. */
const REVISIONS = [...SUPPORTED_PROTOCOL_VERSIONS, '2026-07-28'];

/**
 * The Origin check and CORS headers. No Origin (CLI clients, agents, the stdio bridge)
 * passes untouched; an allowed one is echoed (`Vary: Origin`, and the session header
 * exposed, as the transport names it); any other is 403 (MCP Streamable HTTP: servers
 * MUST validate Origin).
 */
function originGuard(hosts: readonly string[]): RequestHandler {
  return (req, res, next) => {
    res.vary('Origin');
    const origin = req.get('origin');
    if (!origin) return next();
    if (!originAllowed(origin, hosts)) {
      // The names themselves are not listed: AGORA_MCP_HOSTS may hold internal ones.
      res.status(403).json(jsonRpcError(-32000, `Invalid Origin: ${origin} may not call /mcp; a browser page may call it only from a host this server answers for (the base URL's and writer URL's hosts, the listening address, loopback names, AGORA_MCP_HOSTS); add the page's host name to AGORA_MCP_HOSTS to allow it`));
      return;
    }
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Expose-Headers', 'Mcp-Session-Id');
    next();
  };
}

/**
 * A body that cannot be read as a request, in JSON-RPC's words (not the writer's
 * `validation` body): not JSON is the parse error (-32700), JSON that is no message (a
 * number, a string) an invalid request (-32600), a charset other than UTF-8 415.
 */
const parseError: ErrorRequestHandler = (error: { type?: string; message?: string; body?: string }, _req, res, next) => {
  if (error?.type === 'charset.unsupported') {
    res.status(415).json(jsonRpcError(-32000, `Unsupported Media Type: ${error.message}; send application/json in UTF-8`));
    return;
  }
  if (error?.type !== 'entity.parse.failed') return next(error);
  if (isJsonRefused(error)) res.status(400).json(jsonRpcError(-32600, `Invalid Request: the body is JSON but not a JSON-RPC message (${JSON.stringify(error.body).slice(0, 60)}); send an object {"jsonrpc": "2.0", "method", …} or a batch of them`));
  else res.status(400).json(jsonRpcError(-32700, `Parse error: the body is not JSON (${error.message}); send one JSON-RPC message or a batch as application/json`));
};

/**
 * Who calls, as the SDK's pass-through `authInfo` (nothing is authenticated: the
 * comment key and agent tokens are checked by the tools): the rate-limit key as
 * `clientId`, the credential headers in `extra`.
 */
function callerInfo(req: Request): AuthInfo {
  return { token: '', clientId: clientKey(req), scopes: [], extra: { apiKey: req.get('x-api-key'), agentToken: req.get('x-agent-token'), agent: verifiedAgent(req), address: addressOf(req) } };
}

function callerOf(info: AuthInfo | undefined): Caller {
  const extra = (info?.extra ?? {}) as { apiKey?: string; agentToken?: string; agent?: Caller['agent']; address?: string };
  return { client: info?.clientId ?? 'unknown', apiKey: extra.apiKey, agentToken: extra.agentToken, agent: extra.agent ?? null, address: extra.address };
}

/**
 * What every `/mcp` request passes first, before its signature is verified or its
 * budget counted: the SDK's own Host check (a JSON-RPC error with 403), then Origin (the
 * same list) and CORS, and the `OPTIONS` preflight. A request from a foreign page or
 * host is refused before it can cost a directory fetch, a nonce or a budget point.
 *
 * @param hosts Allowed `Host` names (`mcpHostNames`).
 */
export function mcpGuard(hosts: readonly string[]): Router {
  const router = Router();
  const validHost = hostHeaderValidation([...hosts]);
  router.all('/mcp', (req, res, next) => (validHost(req, res) ? next() : undefined), originGuard(hosts));
  router.options('/mcp', (_req, res) => {
    res.setHeader('Access-Control-Allow-Methods', 'POST');
    res.setHeader('Access-Control-Allow-Headers', ALLOW_HEADERS);
    res.setHeader('Access-Control-Max-Age', '86400');
    res.status(204).end();
  });
  return router;
}

/** Set a request header, and its entry in `rawHeaders` (which the SDK's request is built from), to lower case. */
function lowerCaseHeader(req: Request, name: string): void {
  const value = req.headers[name];
  if (typeof value === 'string') req.headers[name] = value.toLowerCase();
  for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i]!.toLowerCase() === name) req.rawHeaders[i + 1] = req.rawHeaders[i + 1]!.toLowerCase();
}

/**
 * The `/mcp` router (mounted after `mcpGuard`).
 *
 * @param deps The writer's parts.
 * @example
 * app.use(mcpGuard(hosts)); // before the signature check and the budgets
 * app.use(mcpRoutes(agents));
 */
export function mcpRoutes(deps: AgentDeps): Router {
  const router = Router();
  const handler = createMcpHandler(({ authInfo }) => createMcpServer(deps, callerOf(authInfo)), {
    onerror: (error) => deps.logger?.debug({ err: error }, 'MCP request refused'),
  });
  const node = toNodeHandler(handler, { onerror: (error) => deps.logger?.error({ err: error }, 'MCP handler failed') });
  // The bytes as they arrived (at most BODY_LIMIT): a stated Content-Digest is checked on them.
  const parse = utf8Json({ limit: BODY_LIMIT, type: () => true, verify: (req, _res, buf) => void ((req as Request & { bodyBytes?: Buffer }).bodyBytes = buf) });
  router.post('/mcp', parse, async (req, res) => {
    const bytes = (req as Request & { bodyBytes?: Buffer }).bodyBytes;
    // An empty body reads as {} to the JSON parser: it is no JSON at all.
    if (!bytes?.length) {
      res.status(400).json(jsonRpcError(-32700, 'Parse error: the body is empty; send one JSON-RPC message or a batch as application/json'));
      return;
    }
    // As on POST /api/comments: a signature covering content-digest binds the body only if the digest is the body's.
    checkContentDigest(req.get('content-digest'), req.get('content-encoding'), bytes);
    // A revision this server does not speak, said plainly (the SDK's answer speaks of a missing envelope),
    // as 2026-07-28's UnsupportedProtocolVersionError (-32022, data `supported` and `requested`): the code
    // the revision says a server MUST answer, so that a client retries with a version it lists.
    const revision = req.get('mcp-protocol-version');
    if (revision !== undefined && !REVISIONS.includes(revision)) {
      const id = (req.body as { id?: unknown } | null)?.id;
      res.status(400).json(jsonRpcError(ProtocolErrorCode.UnsupportedProtocolVersion, `Unsupported MCP-Protocol-Version ${JSON.stringify(revision)}: this server speaks ${REVISIONS.join(', ')}`, { supported: REVISIONS, requested: revision }, typeof id === 'string' || typeof id === 'number' ? id : null));
      return;
    }
    (req as Request & { auth?: AuthInfo }).auth = callerInfo(req);
    // Media types are case-insensitive (RFC 9110 8.3.1); the SDK looks for them in lower case only.
    lowerCaseHeader(req, 'accept');
    await node(req, res, req.body);
  });
  router.all('/mcp', (req, res) => {
    res.status(405).setHeader('Allow', 'POST, OPTIONS');
    res.json(jsonRpcError(-32000, `Method not allowed: ${req.method} is not allowed on /mcp; this MCP server is stateless (no event stream, no session to delete): POST JSON-RPC messages (Streamable HTTP)`));
  });
  router.use('/mcp', parseError);
  return router;
}
