/**
 * `applyConnectionLimits`: deadlines and a cap on the Node HTTP server, so slow or
 * half-open clients cannot hold it (issue 9: a dribbled body was held for 303 s and
 * 3,000 half-open connections were accepted).
 *
 * - `headersTimeout` / `requestTimeout`: a request whose headers or body do not
 *   arrive in time gets 408 and its socket is closed.
 * - `keepAliveTimeout`: idle keep-alive sockets close.
 * - `timeout`: a socket with no traffic at all (a stalled reader) is destroyed.
 * - `maxConnections`: connections past the cap are closed as they arrive; open ones
 *   keep working.
 * - `maxRequestsPerSocket`: after so many requests the answer says `Connection: close`.
 */
import type { Server } from 'node:http';
import type { Limits } from './limits-config.ts';

type ConnectionLimits = Pick<Limits, 'headersTimeoutMs' | 'requestTimeoutMs' | 'keepAliveTimeoutMs' | 'socketIdleTimeoutMs' | 'maxConnections' | 'maxRequestsPerSocket'>;

/**
 * Apply the limits. Call it right after `listen()`, before the server is listening:
 * Node reads how often it checks the deadlines (`connectionsCheckingInterval`,
 * 30 s by default) when listening starts, and a 10 s deadline checked every 30 s
 * would hold a dribbling client for 40 s.
 *
 * @param server The HTTP server (`app.listen(...)`).
 * @param limits The checked settings (`loadLimits`).
 * @example
 * const server = app.listen(port, host);
 * applyConnectionLimits(server, limits);
 */
export function applyConnectionLimits(server: Server, limits: ConnectionLimits): void {
  if (server.listening) {
    throw new Error('Cannot `applyConnectionLimits` on a server that is already listening; call it right after `listen()`');
  }
  const deadlines = [limits.headersTimeoutMs, limits.requestTimeoutMs].filter((ms) => ms > 0);
  // Check a few times per deadline, at most once a second (each check walks the connection list).
  // Public since Node 18.12 but missing from @types/node 20.
  if (deadlines.length > 0) (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = Math.max(50, Math.min(1000, Math.floor(Math.min(...deadlines) / 4)));
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.timeout = limits.socketIdleTimeoutMs;
  server.maxRequestsPerSocket = limits.maxRequestsPerSocket;
  if (limits.maxConnections > 0) server.maxConnections = limits.maxConnections;
}
