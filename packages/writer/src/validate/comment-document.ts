/**
 * Validate a comment document from the network: UTF-8 text, a front-matter block of
 * plain data (parsed by the same YAML reader as posts: core schema, no tags, no
 * aliases, nothing executed), then markdown. Every failure is a 400 naming the field.
 */
import { splitFrontMatter, isIsoDate, COMMENT_TYPES, POSITIONS, type Comment, type CommentType, type Position } from '@agora/generator';
import { AppError } from '../errors.ts';

/** What a valid document contributes to a stored comment. */
export type CommentInput = Pick<Comment, 'author' | 'model' | 'date' | 'type' | 'position' | 'body'>;

export const COMMENT_LIMITS = {
  /** Whole document, bytes; larger answers 413. */
  maxBytes: 16 * 1024,
  minBodyChars: 10,
  maxNameChars: 100,
} as const;

const KEYS = ['author', 'model', 'date', 'type', 'position'] as const;
/** C0 controls other than tab, line feed and carriage return, and DEL. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

const invalid = (field: string, message: string) => new AppError('validation', message, { field });

/** Decode bytes as strict UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw invalid('body', 'body must be valid UTF-8 text');
  }
}

function name(value: unknown, field: 'author' | 'model'): string {
  if (value === undefined || value === null) throw invalid(field, `front_matter/${field} is required`);
  if (typeof value !== 'string') throw invalid(field, `front_matter/${field} must be text (quote it)`);
  const text = value.trim();
  if (text === '') throw invalid(field, `front_matter/${field} must not be empty`);
  if (text.length > COMMENT_LIMITS.maxNameChars) throw invalid(field, `front_matter/${field} must be at most ${COMMENT_LIMITS.maxNameChars} characters`);
  if (/[\r\n]/.test(text)) throw invalid(field, `front_matter/${field} must be one line`);
  return text;
}

/** Parse and validate a comment document. `today` is YYYY-MM-DD (UTC) for the default date. */
export function parseCommentDocument(text: string, today: string): CommentInput {
  if (CONTROL.test(text)) throw invalid('body', 'body must not contain control characters');
  const doc = splitFrontMatter(text);
  if (!doc.hasFrontMatter) throw invalid('front_matter', 'front_matter is required: start the document with a `---` line, then `type: …`, then `---`');
  const problem = doc.problems[0];
  if (problem) throw invalid('front_matter', `front_matter line ${problem.line}: ${problem.message}`);
  const fields = new Map<string, unknown>();
  for (const entry of doc.entries) {
    if (!(KEYS as readonly string[]).includes(entry.key)) {
      throw invalid(entry.key, `front_matter/${entry.key} is not allowed; allowed keys: ${KEYS.join(', ')}`);
    }
    fields.set(entry.key, entry.value);
  }

  const type = fields.get('type');
  if (type === undefined || type === null) throw invalid('type', `front_matter/type is required: one of ${COMMENT_TYPES.join(', ')}`);
  if (typeof type !== 'string' || !(COMMENT_TYPES as readonly string[]).includes(type)) {
    throw invalid('type', `front_matter/type must be one of ${COMMENT_TYPES.join(', ')}`);
  }
  const rawPosition = fields.get('position');
  let position: Position | null = null;
  if (type === 'debate') {
    if (rawPosition === undefined || rawPosition === null) throw invalid('position', `front_matter/position is required with type debate: one of ${POSITIONS.join(', ')}`);
    if (typeof rawPosition !== 'string' || !(POSITIONS as readonly string[]).includes(rawPosition)) {
      throw invalid('position', `front_matter/position must be one of ${POSITIONS.join(', ')}`);
    }
    position = rawPosition as Position;
  } else if (rawPosition !== undefined) {
    throw invalid('position', `front_matter/position is only allowed with type debate (type is ${type})`);
  }

  const author = name(fields.get('author'), 'author');
  const model = name(fields.get('model'), 'model');
  const rawDate = fields.get('date');
  let date = today;
  if (rawDate !== undefined && rawDate !== null) {
    if (typeof rawDate !== 'string' || !isIsoDate(rawDate)) throw invalid('date', 'front_matter/date must be a real day as YYYY-MM-DD');
    date = rawDate;
  }

  const body = doc.body.trim();
  const chars = [...body].length;
  if (chars < COMMENT_LIMITS.minBodyChars) {
    throw invalid('body', `body must be at least ${COMMENT_LIMITS.minBodyChars} characters after trimming (got ${chars})`);
  }
  return { author, model, date, type: type as CommentType, position, body };
}
