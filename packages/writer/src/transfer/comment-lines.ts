/**
 * The comment export format: JSON Lines, one comment per line, in the record shape of
 * `GET /api/comments/{slug}` (`id, slug, author, model, date, type, position, body,
 * created_at, agent`) plus `hidden` (and `hidden_reason` when the writer hid it). It is the
 * backup and restore path and the way between store engines. `agent` (the verified
 * signer of a Web Bot Auth request, or null) is kept as the file says: the file is the
 * operator's own backup, and the signature it came with cannot be checked again.
 *
 * Import judges every line as POST does: the same rules (`validateCommentFields`, the
 * rendering-work limits included), then the body is rendered and stored with its HTML
 * (`renderImported`), so a file can never bring in what the API would refuse and no
 * start renders an imported comment again. Every refused line is reported as
 * `file:line` with the reason.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { CommentRenderPool, commentHtmlKey, firstInvalidUtf8, frontMatterLine, toCommentRecord, type Comment } from '@agora/generator';
import { checkRenderedBody, COMMENT_LIMITS, validateCommentFields } from '../validate/comment-document.ts';
import { isAppError } from '../errors.ts';
import type { CommentStore } from '../store/types.ts';

/** One comment as the export (and `agora comments list --json`) shows it: the public record plus its hidden state. */
export function toExportRecord(c: Comment): ReturnType<typeof toCommentRecord> & { hidden: boolean; hidden_reason?: string } {
  return { ...toCommentRecord(c), hidden: c.hidden === true, ...(c.hidden_reason ? { hidden_reason: c.hidden_reason } : {}) };
}

/** One comment as a line (without the newline). */
export function toLine(c: Comment): string {
  return JSON.stringify(toExportRecord(c));
}

/** Write every stored comment, in batches, to `write`; returns how many. */
export async function exportComments(comments: CommentStore, write: (chunk: string) => Promise<void> | void): Promise<number> {
  let n = 0;
  for await (const batch of comments.scan()) {
    await write(batch.map((c) => `${toLine(c)}\n`).join(''));
    n += batch.length;
  }
  return n;
}

/** A line that cannot be imported. */
export class ImportLineError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    reason: string,
  ) {
    super(`${file}:${line}: ${reason}`);
    this.name = 'ImportLineError';
  }
}

const ID = /^[A-Za-z0-9_-]{1,100}$/;
/** How far another machine's clock may run ahead of this one's. */
const CLOCK_SKEW_MS = 5 * 60_000;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;

/** Check one parsed line; returns the comment or throws the reason. */
export function commentFromLine(value: unknown, knownPost: (slug: string) => boolean, now: Date = new Date()): Comment {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('expected a JSON object');
  const o = value as Record<string, unknown>;
  const allowed = new Set(['id', 'slug', 'author', 'model', 'date', 'type', 'position', 'body', 'created_at', 'hidden', 'hidden_reason', 'agent']);
  for (const key of Object.keys(o)) if (!allowed.has(key)) throw new Error(`\`${key}\` is not a comment field`);
  if (typeof o.id !== 'string' || !ID.test(o.id)) throw new Error('`id` must be 1–100 letters, digits, `-` or `_`');
  if (typeof o.slug !== 'string' || !knownPost(o.slug)) throw new Error(`\`slug\` ${JSON.stringify(o.slug)} is not a post of this site`);
  if (typeof o.created_at !== 'string' || !INSTANT.test(o.created_at) || Number.isNaN(Date.parse(o.created_at))) throw new Error('`created_at` must be an ISO 8601 UTC instant like 2025-11-20T08:15:00.000Z');
  // A comment is stored when it arrives: one from the future (and its date, judged on its own day) is refused as POST would refuse it.
  if (Date.parse(o.created_at) > now.getTime() + CLOCK_SKEW_MS) throw new Error(`\`created_at\` ${o.created_at} is in the future; a comment's created_at is when it was stored (at most ${now.toISOString()})`);
  if (o.hidden !== undefined && typeof o.hidden !== 'boolean') throw new Error('`hidden` must be true or false');
  if (o.hidden_reason !== undefined && typeof o.hidden_reason !== 'string') throw new Error('`hidden_reason` must be text');
  if (typeof o.body !== 'string') throw new Error('`body` must be text');
  const agent = o.agent as { origin?: unknown; keyid?: unknown } | null | undefined;
  if (agent !== undefined && agent !== null) {
    const keys = typeof agent === 'object' ? Object.keys(agent) : [];
    let origin: string | null = null;
    try {
      origin = typeof agent.origin === 'string' ? new URL(agent.origin).origin : null;
    } catch {
      origin = null;
    }
    if (keys.length !== 2 || origin === null || origin !== agent.origin || typeof agent.keyid !== 'string' || !/^[A-Za-z0-9_-]{1,128}$/.test(agent.keyid)) {
      throw new Error('`agent` must be null or {"origin": "https://…", "keyid": "<JWK thumbprint>"}');
    }
  }
  if (o.date === undefined || o.date === null) throw new Error('`date` is required (YYYY-MM-DD)');
  let input;
  try {
    input = validateCommentFields(o, o.created_at.slice(0, 10));
  } catch (error) {
    if (isAppError(error)) throw new Error(`${error.field ? `\`${error.field}\`: ` : ''}${error.message}`);
    throw error;
  }
  // The size POST allows, measured on the shortest document a client could have sent for it
  // (quotes only where YAML needs them, no `date`: POST takes today's): a comment posted at
  // the limit, exported, failed its own import (16,405 bytes with a date line and quotes).
  // Nor a line break after the body: POST takes a document that ends with its body (one
  // posted at exactly 16,384 bytes that way was refused here as 16,385).
  const lines = [frontMatterLine('author', input.author), frontMatterLine('model', input.model), `type: ${input.type}`, ...(input.position ? [`position: ${input.position}`] : [])];
  const bytes = Buffer.byteLength(`---\n${lines.join('\n')}\n---\n${input.body}`);
  if (bytes > COMMENT_LIMITS.maxBytes) throw new Error(`\`body\`: as a posted document this comment is ${bytes} bytes; POST takes at most ${COMMENT_LIMITS.maxBytes} (413 payload_too_large)`);
  return {
    id: o.id,
    slug: o.slug,
    ...input,
    created_at: o.created_at,
    ...(o.hidden === true ? { hidden: true } : {}),
    ...(o.hidden === true && typeof o.hidden_reason === 'string' ? { hidden_reason: o.hidden_reason } : {}),
    ...(agent ? { agent: { origin: agent.origin as string, keyid: agent.keyid as string } } : {}),
  };
}

/** Every line of a file, checked: the comments, the line of each, and the lines refused. */
export interface CheckedLines {
  comments: Comment[];
  lineOf: Map<string, number>;
  refused: ImportLineError[];
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
/** The first line drops a byte order mark (an editor's "UTF-8 with BOM"), as POST drops one before a document. */
const STRICT_UTF8_FIRST = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** A line's bytes as text; refused, naming the first bad byte, when they are not UTF-8. */
function decodeLine(bytes: Buffer, first: boolean): string {
  try {
    return (first ? STRICT_UTF8_FIRST : STRICT_UTF8).decode(bytes);
  } catch {
    const at = Math.max(0, firstInvalidUtf8(bytes));
    throw new Error(`not valid UTF-8: byte 0x${(bytes[at] ?? 0).toString(16).toUpperCase().padStart(2, '0')} at byte ${at + 1} of the line is not (a POST of such a body is refused); save the export as UTF-8`);
  }
}

/** Read and check every line of `file`; every bad line is in `refused`, with its reason. */
export async function readCommentLines(file: string, knownPost: (slug: string) => boolean): Promise<CheckedLines> {
  const comments: Comment[] = [];
  const refused: ImportLineError[] = [];
  const lineOf = new Map<string, number>();
  // Read as latin1 (one character per byte) and decoded strictly per line: a stream read as
  // utf8 turns bytes that are no UTF-8 into U+FFFD, so such a body was stored with
  // characters nobody wrote where POST refuses it (400 `body must be valid UTF-8 text`).
  // Line ends are ASCII bytes, never inside a UTF-8 sequence, so the lines are the same.
  const lines = createInterface({ input: createReadStream(file, { encoding: 'latin1' }), crlfDelay: Infinity });
  let n = 0;
  for await (const raw of lines) {
    n++;
    try {
      const text = decodeLine(Buffer.from(raw, 'latin1'), n === 1);
      if (text.trim() === '') continue;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        throw new Error(`not valid JSON (${(error as Error).message})`);
      }
      const comment = commentFromLine(value, knownPost);
      const first = lineOf.get(comment.id);
      if (first !== undefined) throw new Error(`id \`${comment.id}\` is already on line ${first}`);
      lineOf.set(comment.id, n);
      comments.push(comment);
    } catch (error) {
      refused.push(new ImportLineError(file, n, (error as Error).message));
    }
  }
  return { comments, lineOf, refused };
}

/**
 * Render every checked comment, as POST does before storing, and set its HTML on it.
 * Returns the lines whose body the renderer failed on (refused like any bad line).
 */
export async function renderImported(file: string, checked: CheckedLines): Promise<ImportLineError[]> {
  const pool = new CommentRenderPool({ budgetMs: 5000, maxWorkers: 2 });
  try {
    const outcomes = await pool.render(checked.comments.map((c) => [c.id, c.body] as const));
    const refused: ImportLineError[] = [];
    for (const comment of checked.comments) {
      const outcome = outcomes.get(comment.id) ?? { error: 'no rendering came back' };
      if ('html' in outcome) {
        comment.html = outcome.html;
        comment.html_key = commentHtmlKey(comment.body);
        try {
          checkRenderedBody(outcome.html);
        } catch (error) {
          refused.push(new ImportLineError(file, checked.lineOf.get(comment.id) ?? 0, `\`body\`: ${(error as Error).message}`));
        }
      } else refused.push(new ImportLineError(file, checked.lineOf.get(comment.id) ?? 0, `\`body\`: cannot be rendered (${outcome.error})`));
    }
    return refused;
  } finally {
    await pool.close();
  }
}
