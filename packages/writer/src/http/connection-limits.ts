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
 *
 * What Node itself answers before any route runs (a deadline missed, headers too large,
 * a request that is not HTTP/1.1, an `Expect` it cannot meet) is the writer's JSON
 * error too (`answerClientErrors`).
 */
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { AppError, writeError, type ErrorBody, type ErrorCode } from '../errors.ts';
import type { Limits } from './limits-config.ts';
import { setHeaders, type HeaderList } from './security-headers.ts';

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
/** How a path's errors are shaped (`/mcp`: JSON-RPC), for the answers written straight to a socket. */
export type ShapeFor = (path: string) => ((body: ErrorBody) => unknown) | undefined;

export function applyConnectionLimits(server: Server, limits: ConnectionLimits, headers: HeaderList = [], shapeFor: ShapeFor = () => undefined): void {
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
  answerClientErrors(server, headers, shapeFor);
  answerExpectations(server, headers);
}

/**
 * An `Expect` other than `100-continue` (which Node answers itself): 417 with the JSON
 * error and the headers of every answer, where Node's own 417 had neither. No route
 * runs, so nothing is stored or counted.
 */
function answerExpectations(server: Server, headers: HeaderList): void {
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    setHeaders(res, headers);
    const expect = JSON.stringify(req.headers.expect ?? '');
    writeError(res, new AppError('expectation_failed', `Cannot meet Expect: ${expect.slice(0, 200)}; the only expectation this server meets is 100-continue: send the request without the header`, { field: 'Expect' }));
  });
}

/** Parser errors in one header or in the body's framing: the field they name, and what is wrong. */
const FRAMING_ERRORS: Record<string, [field: string, problem: string]> = {
  HPE_UNEXPECTED_CONTENT_LENGTH: ['Content-Length', 'must be given once, and not with Transfer-Encoding (RFC 9112 6.3)'],
  HPE_INVALID_CONTENT_LENGTH: ['Content-Length', 'must be one whole number of bytes'],
  HPE_INVALID_TRANSFER_ENCODING: ['Transfer-Encoding', 'must end with chunked and not come with Content-Length (RFC 9112 6.3)'],
  HPE_INVALID_CHUNK_SIZE: ['body', 'is not valid chunked encoding: a chunk size must be a hexadecimal number'],
  HPE_INVALID_HEADER_TOKEN: ['headers', 'must be `Name: value` lines whose names and values hold only characters HTTP allows'],
};

/** The answer to an error Node's HTTP parser or its deadlines raise, as Node picks its status. */
function clientErrorAnswer(error: NodeJS.ErrnoException & { rawPacket?: Buffer }): AppError {
  const answer = (code: ErrorCode, message: string, field?: string) => new AppError(code, message, field === undefined ? {} : { field });
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return answer('request_timeout', 'The request\'s headers and body did not arrive in time; send them at once');
    case 'HPE_HEADER_OVERFLOW': {
      // A request line over half the limit: the URI is what is too long (RFC 9110 15.5.15: 414).
      const lineEnd = error.rawPacket?.indexOf('\n') ?? 0;
      if (lineEnd < 0 || lineEnd > 8 * 1024) return answer('uri_too_long', 'The request\'s URI is too long (16 KiB at most, with the headers)', 'path');
      return answer('headers_too_large', 'The request\'s headers are too large (16 KiB at most)', 'headers');
    }
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return answer('payload_too_large', 'The request\'s chunk extensions are too large', 'body');
    default: {
      const framing = error.code === undefined ? undefined : FRAMING_ERRORS[error.code];
      if (framing) return answer('validation', `${framing[0]} ${framing[1]} (${error.code})`, framing[0]);
      return answer('validation', `The request is not valid HTTP/1.1 (${error.code ?? error.message})`);
    }
  }
}

/**
 * Answer what Node's HTTP parser refuses with the writer's JSON error (Node's own answer
 * has no body), then close the connection as Node does; and a CONNECT, which Node
 * closed without a word.
 */
function answerClientErrors(server: Server, headers: HeaderList, shapeFor: ShapeFor): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    // A connection the client reset gets nothing: there is no one to read it.
    if (error.code === 'ECONNRESET') return void socket.destroy(error);
    const current = inProgress.get(socket);
    const queue = waiting.get(socket);
    // After every answer before it on the connection; ended, not destroyed: those answers
    // may still be in the socket's buffer.
    const refuseAfterAnswers = () => {
      answerRaw(socket, headers, clientErrorAnswer(error), undefined, true);
      socket.end();
      socket.setTimeout(1000, () => socket.destroy());
    };
    // The request being answered arrived whole, so the error is in the bytes after it (a
    // Content-Length shorter than the body sent, text after the body). That request is
    // answered first, and the requests parsed behind it, then this refusal: written at
    // once, it was taken for the answer to a comment that was stored all the same, and
    // the connection closed before its 201 went out.
    if (current?.req.complete && queue) return void queue.push(refuseAfterAnswers);
    // No request in progress on a connection that was answered before (kept alive): every
    // answer on it is complete, so the refusal follows them, then the connection ends.
    if (current === undefined && !queue && socket.bytesWritten !== 0) return refuseAfterAnswers();
    // A body that stopped or broke off: its request's route shapes the error (`/mcp` answers JSON-RPC).
    // Its answer not begun, the answers before it on a kept-alive connection are complete: the refusal follows them.
    answerRaw(socket, headers, clientErrorAnswer(error), current === undefined ? undefined : shapeFor(current.path), current !== undefined && !current.res.headersSent);
    socket.destroy(error);
  });
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    socket.on('error', () => {});
    answerRaw(socket, headers, new AppError('method_not_allowed', `CONNECT is not allowed: this is a web site, not a proxy (asked for ${JSON.stringify(req.url ?? '').slice(0, 200)}); allowed: ${SERVED_METHODS}`, { headers: { Allow: SERVED_METHODS } }));
    socket.end();
  });
}

/** The methods some route of the writer answers (the `Allow` of a CONNECT's 405). */
const SERVED_METHODS = 'GET, HEAD, POST, PUT, OPTIONS';

/**
 * Write a JSON error answer straight to a socket Node's HTTP layer gave up (no
 * `ServerResponse`), closing the connection. A socket that already got bytes of an
 * answer, or cannot be written, gets nothing (unless `afterAnswers`: every answer
 * before this one is complete).
 */
function answerRaw(socket: Socket, headers: HeaderList, answer: AppError, shape: (body: ErrorBody) => unknown = (body) => body, afterAnswers = false): void {
  if (!socket.writable || (socket.bytesWritten !== 0 && !afterAnswers)) return;
  // The headers every answer carries (helmet's list), these too.
  const common = [...headers, ...Object.entries(answer.headers)].map(([name, value]) => `${name}: ${value}\r\n`).join('');
  const body = JSON.stringify(shape(answer.toBody()));
  socket.write(
    `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\n${common}Content-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** The requests of each connection that wait for the one being answered (pipelined behind it). */
const waiting = new WeakMap<Socket, (() => void)[]>();
/** The request each connection is being answered for, its answer and its path (its body may still be arriving). */
const inProgress = new WeakMap<Socket, { req: IncomingMessage; res: ServerResponse; path: string }>();

/**
 * Serve the requests of one connection one at a time: a request pipelined behind
 * another starts once that one's answer is done. HTTP/1.1 answers them in order anyway,
 * so this costs the pipelining client nothing it could use; started all at once (Node
 * hands over every request of a 64 KiB read together), 20 connections pipelining 2,000
 * `GET /openapi.json` each without reading the answers held 1.5 GB of file reads and
 * kept every other client waiting 15 s.
 *
 * @example
 * createServer((req, res) => inTurn(req, res, () => app(req, res)));
 */
export function inTurn(req: IncomingMessage, res: ServerResponse, serve: () => void): void {
  const socket = req.socket;
  const queue = waiting.get(socket);
  if (queue) return void queue.push(() => start(req, res, serve));
  waiting.set(socket, []);
  start(req, res, serve);
}

function start(req: IncomingMessage, res: ServerResponse, serve: () => void): void {
  const socket = req.socket;
  inProgress.set(socket, { req, res, path: (req.url ?? '/').split('?', 1)[0]! });
  // 'close' follows every answer, finished or cut off, once.
  res.once('close', () => {
    inProgress.delete(socket);
    const next = waiting.get(socket)?.shift();
    if (next) next();
    else waiting.delete(socket);
  });
  serve();
}

