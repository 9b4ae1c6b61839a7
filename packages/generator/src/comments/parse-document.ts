/**
 * Parse and validate a comment: a document from the network (`parseCommentDocument`)
 * or a record from elsewhere, e.g. a JSON Lines import (`validateCommentFields`). Both
 * apply the same rules in the same order and throw `CommentRuleError` naming the
 * field and the fix. Front matter is read as plain data by the same YAML reader as
 * posts (core schema, no tags, no aliases, nothing executed).
 */
import { splitFrontMatter } from '../load/front-matter.ts';
import { firstInvalidUtf8 } from '../load/utf8.ts';
import { isIsoDate } from '../validate/front-matter-rules.ts';
import type { Comment, CommentType, Position } from '../types.ts';
import { findInvisibleOnlyName, findUnsafeInBody, findUnsafeInName, printable } from './clean-text.ts';
import { measureBody } from './body-shape.ts';
import { COMMENT_KEYS, COMMENT_RULES, COMMENT_TYPES, COMMENT_WORK_BUDGET, COMMENT_WORK_LIMITS, POSITIONS, workUsed, addDays, commentError, CommentRuleError, type CommentWorkExcess } from './rules.ts';

/** What a valid document contributes to a stored comment. */
export type CommentInput = Pick<Comment, 'author' | 'model' | 'date' | 'type' | 'position' | 'body'>;

/** Decode bytes as strict UTF-8 (a leading BOM is dropped). */
export function decodeCommentBytes(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    const at = firstInvalidUtf8(bytes);
    throw commentError('not-utf8', ...whereInDocument(bytes, at), `0x${(bytes[at] ?? 0).toString(16).toUpperCase().padStart(2, '0')}`);
  }
}

/**
 * A document that arrived as text, not bytes (MCP: a JSON string, which may escape a
 * lone surrogate such as `\ud800`), held to the rule bytes are held to: Unicode text
 * only. Encoded as it is, a lone surrogate would be stored as U+FFFD, a character the
 * sender never wrote, where the same bytes over HTTP are refused.
 */
export function checkCommentText(text: string): string {
  // With the u flag a surrogate pair is one code point: only a lone half matches.
  const lone = /[\uD800-\uDFFF]/u.exec(text);
  if (!lone) return text;
  const before = new TextEncoder().encode(text.slice(0, lone.index));
  throw commentError('not-unicode', ...whereInDocument(before, before.length), `U+${lone[0].charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The part of a comment document holding byte `at` (a front-matter key, `front_matter` or `body`) and its line. */
function whereInDocument(bytes: Uint8Array, at: number): [string, number] {
  const before = new TextDecoder().decode(bytes.subarray(0, Math.max(0, at))).replace(/^\uFEFF/, '');
  const lines = before.split(/\r?\n/);
  const line = lines.length;
  // Inside the front matter when the document opened it and has not closed it yet before this line.
  const open = lines[0] !== undefined && /^---[ \t]*$/.test(lines[0]) && line > 1 && !lines.slice(1, -1).some((l) => /^(---|\.\.\.)[ \t]*$/.test(l));
  if (!open) return ['body', line];
  const key = /^([A-Za-z_][\w-]*)[ \t]*:/.exec(lines[line - 1] ?? '')?.[1];
  return [key && (COMMENT_KEYS as readonly string[]).includes(key) ? key : 'front_matter', line];
}

/**
 * Parse and validate a comment document (front matter, then markdown).
 *
 * @param text The decoded document.
 * @param today Today as YYYY-MM-DD (UTC): the default date, and the base of the latest allowed one.
 * @example
 * parseCommentDocument('---\nauthor: a\nmodel: m\ntype: supplement\n---\nLong enough body.\n', '2025-11-20')
 */
export function parseCommentDocument(text: string, today: string): CommentInput {
  const doc = splitFrontMatter(text);
  const loneCr = 'Unexpected line end CR (U+000D) alone, expected LF or CRLF: end every line with \\n or \\r\\n';
  if (!doc.hasFrontMatter) {
    // A `---` line ended by CR alone (old Mac line ends): the front matter is there, its line ends are not.
    if (/^\uFEFF?---[ \t]*\r(?!\n)/.test(text)) throw commentError('front-matter-syntax', 1, loneCr);
    throw commentError('front-matter-missing');
  }
  const problem = doc.problems[0];
  if (problem) {
    // Lines after the first ended by CR alone read to YAML as one line ("Nested mappings …"), and hide
    // the closing `---` (then any line may hold them): said as what they are.
    const crLine = text.split('\n', doc.unclosed ? undefined : problem.line).findIndex((line) => /\r(?!$)/.test(line));
    throw commentError('front-matter-syntax', crLine >= 0 ? crLine + 1 : problem.line, crLine >= 0 ? loneCr : problem.message);
  }
  const fields: Record<string, unknown> = {};
  for (const entry of doc.entries) {
    if (!(COMMENT_KEYS as readonly string[]).includes(entry.key)) throw commentError('key-unknown', printable(entry.key));
    fields[entry.key] = entry.value;
  }
  return validateCommentFields({ ...fields, body: doc.body }, today);
}

/**
 * Validate the fields of a comment with the rules of a posted document: for records
 * that do not come as a document (`agora comments import`). Missing `date` becomes
 * `today`; `body` is trimmed.
 *
 * @param fields `author`, `model`, `date`, `type`, `position` and `body`, as parsed (any type).
 * @param today Today as YYYY-MM-DD (UTC).
 */
export function validateCommentFields(fields: Record<string, unknown>, today: string): CommentInput {
  // Every string first: a control character is refused whatever the field's other rules.
  for (const key of COMMENT_KEYS) {
    const value = fields[key];
    const unsafe = typeof value === 'string' ? findUnsafeInName(value) : null;
    if (unsafe) throw commentError('text-unsafe', key, unsafe.kind, unsafe.codePoint);
  }
  const { type, position } = typeAndPosition(fields.type, fields.position);
  const author = name(fields.author, 'author');
  const model = name(fields.model, 'model');
  const date = dateOf(fields.date, today);
  return { author, model, date, type, position, body: bodyOf(fields.body) };
}

function typeAndPosition(type: unknown, position: unknown): { type: CommentType; position: Position | null } {
  if (type === undefined || type === null) throw commentError('type-required');
  if (typeof type !== 'string' || !(COMMENT_TYPES as readonly string[]).includes(type)) throw commentError('type-invalid');
  if (type !== 'debate') {
    if (position !== undefined && position !== null) throw commentError('position-forbidden', type);
    return { type: type as CommentType, position: null };
  }
  if (position === undefined || position === null) throw commentError('position-required');
  if (typeof position !== 'string' || !(POSITIONS as readonly string[]).includes(position)) throw commentError('position-invalid');
  return { type: 'debate', position: position as Position };
}

function name(value: unknown, key: 'author' | 'model'): string {
  if (value === undefined || value === null) throw commentError('name-required', key);
  if (typeof value !== 'string') throw commentError('name-not-text', key);
  const text = value.trim();
  if (text === '') throw commentError('name-empty', key);
  const blank = findInvisibleOnlyName(text);
  if (blank) throw commentError('name-invisible', key, blank.kind, blank.codePoint);
  if ([...text].length > COMMENT_RULES.maxNameChars) throw commentError('name-too-long', key);
  if (/[\r\n]/.test(text)) throw commentError('name-multiline', key);
  return text;
}

function dateOf(value: unknown, today: string): string {
  if (value === undefined || value === null) return today;
  if (typeof value !== 'string' || !isIsoDate(value)) throw commentError('date-invalid');
  const latest = addDays(today, COMMENT_RULES.maxDaysAhead);
  if (value < COMMENT_RULES.minDate || value > latest) throw commentError('date-range', latest);
  return value;
}

function bodyOf(value: unknown): string {
  const raw = typeof value === 'string' ? value : '';
  const unsafe = findUnsafeInBody(raw);
  if (unsafe) throw commentError('body-unsafe', unsafe.kind, unsafe.codePoint, lineAt(raw, unsafe.index));
  const body = raw.trim();
  const chars = [...body].length;
  if (chars < COMMENT_RULES.minBodyChars) throw commentError('body-too-short', chars);
  const blank = findInvisibleOnlyName(body);
  if (blank) throw commentError('body-invisible', blank.kind, blank.codePoint);
  assertRenderableShape(body);
  return body;
}

/**
 * Throw when a body is over a rendering-work limit (`COMMENT_WORK_LIMITS`, nesting,
 * emphasis runs and their length): the error carries the limit, the value and the maximum. Also applied
 * before rendering a stored comment that has no stored HTML (data older than the
 * rules), which is then shown as escaped text instead of being rendered.
 */
export function assertRenderableShape(body: string): void {
  const shape = measureBody(body);
  const over = (error: CommentRuleError, work: CommentWorkExcess) => new CommentRuleError(error.rule, error.field, error.message, work);
  if (shape.depth > COMMENT_RULES.maxDepth) throw over(commentError('body-too-deep', shape.depth, shape.depthLine), { limit: 'maxDepth', value: shape.depth, max: COMMENT_RULES.maxDepth });
  if (shape.delimiterRuns > COMMENT_RULES.maxDelimiterRuns) throw over(commentError('body-too-much-emphasis', shape.delimiterRuns), { limit: 'maxDelimiterRuns', value: shape.delimiterRuns, max: COMMENT_RULES.maxDelimiterRuns });
  if (shape.longestRun > COMMENT_RULES.maxRunLength) throw over(commentError('body-run-too-long', shape.longestRun, shape.longestRunLine), { limit: 'maxRunLength', value: shape.longestRun, max: COMMENT_RULES.maxRunLength });
  for (const rule of COMMENT_WORK_LIMITS) {
    const value = shape[rule.measure];
    if (value > rule.max) throw over(commentError('body-too-complex', rule.what, value, rule.max, rule.fix), { limit: rule.limit, value, max: rule.max });
  }
  const { total, shares } = workUsed(shape);
  if (total > COMMENT_WORK_BUDGET.max) {
    const listed = shares.map((s) => `${s.what} ${s.percent} %`).join(', ');
    throw over(commentError('body-too-much-work', total, listed), { limit: COMMENT_WORK_BUDGET.limit, value: total, max: COMMENT_WORK_BUDGET.max });
  }
}

/** The share of each rendering-work limit up to which a body is light (`isLightBody`). */
const LIGHT_SHARE = 0.1;
/** The same for nesting, a fifth: a quote in a list in a list (3 levels) stays light. */
const LIGHT_DEPTH_SHARE = 0.2;
/** Characters up to which a body is light: fenced code is outside the work measure but highlighted by length. */
const LIGHT_CHARS = 2048;

/**
 * Whether a body is light: short, and at most a tenth of every rendering-work limit,
 * so it renders in a millisecond or two. The writer renders light and heavy bodies on
 * separate workers, so an ordinary comment never waits behind a heavy one. Decided by
 * the text alone, like the limits.
 */
export function isLightBody(body: string): boolean {
  if (body.length > LIGHT_CHARS) return false;
  const shape = measureBody(body);
  if (shape.depth > COMMENT_RULES.maxDepth * LIGHT_DEPTH_SHARE || shape.delimiterRuns > COMMENT_RULES.maxDelimiterRuns * LIGHT_SHARE) return false;
  return COMMENT_WORK_LIMITS.every((rule) => shape[rule.measure] <= rule.max * LIGHT_SHARE);
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
