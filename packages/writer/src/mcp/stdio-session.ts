/**
 * A stdio session that answers every request it read. The SDK's stdio transport ends the
 * session at the end of input and drops the requests still in flight (the MCP stdio
 * binding lets it); a client that writes its requests and closes stdin at once
 * (`printf … | agora mcp`) then lost answers, a stored comment's 201 among them, and
 * `process.exit` cut a long last answer short. Here the transport reads a copy of stdin
 * that ends only once every request read has been answered (or `graceMs` passed), and
 * writes through a stream whose answers are counted; `finished` resolves once the
 * transport is done and stdout has taken every byte.
 */
import { PassThrough } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

type Id = string | number;

/** The ids of the JSON-RPC requests (`pick: 'requests'`) or answers (`'answers'`) in one line. */
function idsOf(line: string, pick: 'requests' | 'answers'): Id[] {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return [];
  }
  const ids: Id[] = [];
  for (const m of Array.isArray(message) ? message : [message]) {
    if (typeof m !== 'object' || m === null) continue;
    const { id, method } = m as { id?: unknown; method?: unknown };
    if (typeof id !== 'string' && typeof id !== 'number') continue;
    if ((pick === 'requests') === (typeof method === 'string')) ids.push(id);
  }
  return ids;
}

/** Calls `onLine` with each complete line of a byte stream. */
function lines(onLine: (line: string) => void): (chunk: Buffer) => void {
  let rest = '';
  return (chunk) => {
    const text = rest + chunk.toString('utf8');
    const parts = text.split('\n');
    rest = parts.pop() ?? '';
    for (const part of parts) if (part.trim() !== '') onLine(part);
  };
}

export interface StdioSession {
  /** The transport to serve (`serveStdio(factory, { transport })`). */
  transport: StdioServerTransport;
  /** Resolves once input ended, every request read was answered and stdout took it all. */
  finished: Promise<void>;
}

/**
 * Open the session on `process.stdin` / `process.stdout`.
 *
 * @param graceMs Longest wait, after the end of input, for the answers still due.
 */
export function openStdioSession(graceMs = 60_000): StdioSession {
  const input = new PassThrough();
  const output = new PassThrough();
  output.pipe(process.stdout, { end: false });
  const due = new Set<Id>();
  let inputEnded = false;
  let grace: NodeJS.Timeout | null = null;
  const endInput = () => {
    if (grace) clearTimeout(grace);
    if (!input.writableEnded) input.end();
  };
  const maybeEnd = () => inputEnded && due.size === 0 && endInput();
  process.stdin.on('data', lines((line) => idsOf(line, 'requests').forEach((id) => due.add(id))));
  process.stdin.on('data', (chunk: Buffer) => input.write(chunk));
  output.on('data', lines((line) => {
    for (const id of idsOf(line, 'answers')) due.delete(id);
    maybeEnd();
  }));
  process.stdin.once('end', () => {
    inputEnded = true;
    grace = setTimeout(endInput, graceMs);
    grace.unref();
    maybeEnd();
  });
  const finished = new Promise<void>((resolve) => {
    input.once('end', () => {
      // The transport closes on its input's end; what it wrote is in `output`, on its way to stdout.
      setImmediate(() => {
        output.unpipe(process.stdout);
        const rest = output.read() as Buffer | null;
        process.stdout.write(rest ?? '', () => resolve());
      });
    });
  });
  return { transport: new StdioServerTransport(input, output), finished };
}
