/**
 * The writer's side of the comment rules: the rules, the parser and the messages live
 * in the generator (`@agora/generator`, comments/), where the OpenAPI document,
 * llms.txt and the agent instructions are generated from them too. This adapter only
 * turns a `CommentRuleError` into a 400 `AppError` naming the field (also
 * `comment_too_complex` with `limit`, `value` and `max` for a rendering-work limit).
 */
import {
  assertShowsText,
  COMMENT_RULES,
  CommentRuleError,
  checkCommentText,
  decodeCommentBytes,
  parseCommentDocument as parseDocument,
  validateCommentFields as validateFields,
  type CommentInput,
} from '@agora/generator';
import { AppError } from '../errors.ts';

export type { CommentInput };

/** The limits the writer enforces (kept for existing callers; the source is `COMMENT_RULES`). */
export const COMMENT_LIMITS = {
  maxBytes: COMMENT_RULES.maxBytes,
  minBodyChars: COMMENT_RULES.minBodyChars,
  maxNameChars: COMMENT_RULES.maxNameChars,
} as const;

function asAppError<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof CommentRuleError) {
      // Over a rendering-work limit: 400 `comment_too_complex` naming the limit, the value and the maximum.
      if (error.work) throw new AppError('comment_too_complex', error.message, { field: error.field, details: { ...error.work } });
      throw new AppError('validation', error.message, { field: error.field });
    }
    throw error;
  }
}

/** Decode bytes as strict UTF-8; 400 on anything else. */
export function decodeUtf8(bytes: Uint8Array): string {
  return asAppError(() => decodeCommentBytes(bytes));
}

/** A document given as text (MCP): 400 on a lone surrogate, as its bytes would be over HTTP. */
export function checkText(text: string): string {
  return asAppError(() => checkCommentText(text));
}

/** Parse and validate a comment document. `today` is YYYY-MM-DD (UTC) for the default date. */
export function parseCommentDocument(text: string, today: string): CommentInput {
  return asAppError(() => parseDocument(text, today));
}

/** 400 when a new comment's rendered HTML shows no text (the body was only markup rendering drops). */
export function checkRenderedBody(html: string): void {
  asAppError(() => assertShowsText(html));
}

/** Validate a comment given as fields (an import record) with the rules of a posted document. */
export function validateCommentFields(fields: Record<string, unknown>, today: string): CommentInput {
  return asAppError(() => validateFields(fields, today));
}
