/**
 * An opt-in recorder of the writer's real answers: status, headers and body of every
 * request a test server answers, for validation against `openapi.json`
 * (test/helpers/openapi-answers.ts). It listens on the HTTP server itself, before
 * Express, so it sees every answer whatever the client (fetch, node:http, the MCP SDK).
 *
 * `startTestServer` turns it on when `AGORA_RECORD_ANSWERS` names a folder: each
 * server writes `answers-<pid>-<n>.jsonl` there, its first line the server's
 * `openapi.json` (`npm run test:contract` records the writer suite, then validates).
 */
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/** One answer as the client received it. */
export interface RecordedAnswer {
  method: string;
  /** The request target as sent (path and query). */
  url: string;
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** UTF-8 text of the body (empty for HEAD and bodiless answers). */
  body: string;
  /** The body was larger than the recorder keeps: not checked. */
  truncated?: boolean;
}

/** Bodies longer than this are not kept (the 28 MB `/api/posts` of a big test site). */
const MAX_BODY = 1 << 20;

/**
 * Record every answer of a server.
 *
 * @param server The HTTP server (`RunningServer.server`).
 * @param sink Called with each finished answer.
 */
export function recordAnswers(server: Server, sink: (answer: RecordedAnswer) => void): void {
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const keep = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
      const buffer = Buffer.isBuffer(chunk) ? chunk : typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : Buffer.from(chunk as Uint8Array);
      size += buffer.length;
      if (size <= MAX_BODY) chunks.push(buffer);
    };
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    res.write = ((...args: unknown[]) => (keep(args[0], args[1]), write(...args))) as typeof res.write;
    res.end = ((...args: unknown[]) => (keep(args[0], args[1]), end(...args))) as typeof res.end;
    res.on('finish', () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(res.getHeaders())) if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
      sink({ method: req.method ?? 'GET', url: req.url ?? '/', status: res.statusCode, headers, body: Buffer.concat(chunks).toString('utf8'), ...(size > MAX_BODY ? { truncated: true } : {}) });
    });
  });
}

let files = 0;

/**
 * Record a server's answers into `dir` when set (the `AGORA_RECORD_ANSWERS` folder).
 *
 * @param server The HTTP server.
 * @param openapiPath Its `dist/openapi.json`, copied into the file's first line.
 * @param dir The folder, or undefined to record nothing.
 */
export function recordAnswersTo(server: Server, openapiPath: string, dir: string | undefined): void {
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `answers-${process.pid}-${++files}.jsonl`);
  writeFileSync(file, JSON.stringify({ openapi: JSON.parse(readFileSync(openapiPath, 'utf8')) as unknown }) + '\n');
  recordAnswers(server, (answer) => appendFileSync(file, JSON.stringify(answer) + '\n'));
}
