/**
 * A stdio session that answers every request it read. The SDK's stdio transport ends the
 * session at the end of input and drops the requests still in flight (the MCP stdio
 * binding lets it); a client that writes its requests and closes stdin at once
 * (`printf … | agora mcp`) then lost answers, a stored comment's 201 among them, and
 * `process.exit` cut a long last answer short. Here the transport reads a copy of stdin
 * that ends only once every request read has been answered (or `graceMs` passed), and
 * writes through a stream whose answers are counted; `finished` resolves once the
 * transport is done and stdout has taken every byte.
 *
 * The session reads the lines itself and answers what the SDK's transport let pass in
 * silence, as `POST /mcp` does: a JSON-RPC batch (an array line; the 2025-03-26 revision
 * says a server MUST accept one) goes to the transport one message a line and its
 * answers leave as one array; a line that is not JSON gets the parse error (-32700), an
 * empty or malformed batch the invalid request (-32600), both with `id` null.
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

/** The longest line read, as the SDK's stdio transport allows (a longer one is dropped). */
const MAX_LINE_BYTES = 10 * 1024 * 1024;

/**
 * Calls `onLine` with each complete, non-blank line of a byte stream, split on the bytes
 * (a character cut between two chunks stays whole), and `onOverflow` when a line grows
 * past `MAX_LINE_BYTES` (that line is dropped).
 */
function lines(onLine: (line: string, bytes: Buffer) => void, onOverflow: () => void = () => {}): (chunk: Buffer) => void {
  let rest: Buffer = Buffer.alloc(0);
  let skipping = false;
  return (chunk) => {
    const data = rest.length > 0 ? Buffer.concat([rest, chunk]) : chunk;
    let start = 0;
    for (let end = data.indexOf(0x0a); end !== -1; end = data.indexOf(0x0a, start)) {
      const bytes = data.subarray(start, end);
      start = end + 1;
      if (skipping) skipping = false;
      else {
        const line = bytes.toString('utf8');
        if (line.trim() !== '') onLine(line, bytes);
      }
    }
    rest = data.subarray(start);
    if (rest.length > MAX_LINE_BYTES) {
      rest = Buffer.alloc(0);
      if (!skipping) onOverflow();
      skipping = true;
    }
  };
}

/** A JSON-RPC error answer to a line that could not be read as a request (`id` null). */
const refusal = (code: number, message: string) => `${JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } })}\n`;

/** Why a batch cannot be served, or null when it can (the checks of `POST /mcp`). */
function badBatch(batch: unknown[]): string | null {
  if (batch.length === 0) return 'Invalid Request: empty JSON-RPC batch';
  if (!batch.every((m) => typeof m === 'object' && m !== null && !Array.isArray(m) && (m as { jsonrpc?: unknown }).jsonrpc === '2.0')) return 'Invalid Request: the JSON-RPC batch contains an invalid message';
  const modern = batch.some((m) => typeof (m as { params?: { _meta?: Record<string, unknown> } }).params?._meta?.['io.modelcontextprotocol/protocolVersion'] === 'string');
  return modern ? 'Invalid Request: JSON-RPC batches may not contain requests for protocol revision 2026-07-28 or later' : null;
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
  const transport = new StdioServerTransport(input, output);
  // A batch's requests, by id, until each is answered: then their answers leave as one array.
  const batches = new Map<Id, { ids: Id[]; answers: Map<Id, unknown>; refused: unknown[] }>();
  const send = transport.send.bind(transport);
  transport.send = async (message) => {
    const id = (message as { id?: unknown }).id;
    const batch = (typeof id === 'string' || typeof id === 'number') && !('method' in message) ? batches.get(id) : undefined;
    if (!batch) return send(message);
    batch.answers.set(id as Id, message);
    if (batch.answers.size < batch.ids.length) return;
    for (const each of batch.ids) batches.delete(each);
    output.write(`${JSON.stringify([...batch.ids.map((each) => batch.answers.get(each)), ...batch.refused])}\n`);
  };
  const feed = (line: string, bytes: Buffer) => {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch (error) {
      output.write(refusal(-32700, `Parse error: the line is not JSON (${(error as Error).message}); send one JSON-RPC message, or a batch, per line`));
      return;
    }
    if (!Array.isArray(message)) {
      idsOf(line, 'requests').forEach((id) => due.add(id));
      input.write(Buffer.concat([bytes, Buffer.from('\n')]));
      return;
    }
    const refused = badBatch(message);
    if (refused) return void output.write(refusal(-32600, refused));
    // A member that is no request, notification or response (`{"jsonrpc": "2.0", "id": 2}`): the
    // transport dropped it, and the batch's answer lacked it. Its -32600 goes into the array.
    const invalid = (m: object) => !('method' in m) && !('result' in m) && !('error' in m);
    const refusedMembers = (message as object[]).filter(invalid).map((m) => {
      const id = (m as { id?: unknown }).id;
      return { jsonrpc: '2.0', id: typeof id === 'string' || typeof id === 'number' ? id : null, error: { code: -32600, message: 'Invalid Request: a batch member that is no request, notification or response' } };
    });
    const ids = idsOf(line, 'requests');
    if (ids.length === 0 && refusedMembers.length > 0) output.write(`${JSON.stringify(refusedMembers)}\n`);
    const batch = { ids, answers: new Map<Id, unknown>(), refused: refusedMembers };
    for (const id of ids) {
      due.add(id);
      batches.set(id, batch);
    }
    for (const each of message as object[]) if (!invalid(each)) input.write(`${JSON.stringify(each)}\n`);
  };
  process.stdin.on('data', lines(feed, () => output.write(refusal(-32600, `Invalid Request: a line over ${MAX_LINE_BYTES} bytes; it was dropped`))));
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
  return { transport, finished };
}
