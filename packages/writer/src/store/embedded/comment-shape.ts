/** The shape of a stored comment and of a per-post comment file, checked on every read. */
import { COMMENT_TYPES, POSITIONS, type Comment } from '@agora/generator/types';
import { COMMENT_RULES, isIsoDate } from '@agora/generator/stored-comment-rules';
import { isPlainObject } from './data-file.ts';

/** A per-post file: `data/comments/<slug file name>.json`. */
export interface PostCommentsFile {
  slug: string;
  comments: Comment[];
}

const STRING_FIELDS = ['id', 'slug', 'author', 'model', 'date', 'body', 'created_at'] as const;

/** The problem with a stored comment, or null. */
export function commentProblem(value: unknown): string | null {
  if (!isPlainObject(value)) return 'a comment is not an object';
  for (const key of STRING_FIELDS) if (typeof value[key] !== 'string') return `comment field \`${key}\` is not text`;
  if (!(COMMENT_TYPES as readonly unknown[]).includes(value.type)) return `comment \`${String(value.id)}\` has an unknown type`;
  if (value.position !== null && !(POSITIONS as readonly unknown[]).includes(value.position)) return `comment \`${String(value.id)}\` has an unknown position`;
  const fieldProblem = storedFieldProblem(value as unknown as Comment);
  if (fieldProblem) return `comment \`${String(value.id)}\`: ${fieldProblem} (correct it as a POST would have it, or remove the comment)`;
  if (value.hidden !== undefined && typeof value.hidden !== 'boolean') return `comment \`${String(value.id)}\` has a non-boolean \`hidden\``;
  if (value.hidden_reason !== undefined && typeof value.hidden_reason !== 'string') return `comment \`${String(value.id)}\` has a non-text \`hidden_reason\``;
  if ((value.html === undefined) !== (value.html_key === undefined) || (value.html !== undefined && (typeof value.html !== 'string' || typeof value.html_key !== 'string'))) {
    return `comment \`${String(value.id)}\` has \`html\` and \`html_key\` that are not both text (remove both: the writer renders it again)`;
  }
  if (value.agent !== undefined && value.agent !== null && (!isPlainObject(value.agent) || typeof value.agent.origin !== 'string' || typeof value.agent.keyid !== 'string')) {
    return `comment \`${String(value.id)}\` has an \`agent\` that is not {"origin", "keyid"} or null`;
  }
  return null;
}

const PLAIN_NAME = /^[!-~](?:[ -~]*[!-~])?$/;
/** Control characters (line breaks among them) and bidi controls: POST refused them in names before the first release. */
const UNSAFE_IN_NAME = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
const ISO_TIME = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * What no POST or import of any version could have stored in a comment's names and
 * dates, or null: a hand edit of `data/` (`"date": "yesterday"`, a 300-character author,
 * an author with a terminal escape or a bidi override) was published as it was, in pages,
 * JSON-LD and feeds. Only rules every released version kept are checked here: a start
 * must never refuse a comment an earlier version acknowledged (the later name rules,
 * Hangul fillers, noncharacters and invisible characters, are POST's alone).
 */
function storedFieldProblem(c: Comment): string | null {
  for (const key of ['author', 'model'] as const) {
    const text = c[key];
    // Printable ASCII without an outer space (most names) is fine: one test, not four.
    if (text.length <= COMMENT_RULES.maxNameChars && PLAIN_NAME.test(text)) continue;
    const unsafe = UNSAFE_IN_NAME.exec(text);
    if (unsafe) return `\`${key}\` holds a ${/\p{Cc}/u.test(unsafe[0]) ? 'control character' : 'bidirectional control'} (U+${unsafe[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})`;
    if (text.trim() !== text || text === '') return `\`${key}\` is empty, or starts or ends with a space`;
    if (text.length > COMMENT_RULES.maxNameChars && [...text].length > COMMENT_RULES.maxNameChars) return `\`${key}\` is longer than ${COMMENT_RULES.maxNameChars} characters`;
  }
  if (!isIsoDate(c.date)) return `\`date\` is no day written YYYY-MM-DD (${JSON.stringify(c.date.slice(0, 40))})`;
  if (!ISO_TIME.test(c.created_at)) return `\`created_at\` is no ISO 8601 time (${JSON.stringify(c.created_at.slice(0, 40))})`;
  return null;
}

/** The problem with a comment stored in the file of post `slug`, or null. */
export function postCommentProblem(value: unknown, slug: string): string | null {
  const problem = commentProblem(value);
  if (problem) return problem;
  const c = value as Comment;
  return c.slug === slug ? null : `comment \`${c.id}\` belongs to \`${c.slug}\`, not to this file's post \`${slug}\``;
}

/** A shape check for the file of one post's comments. */
export function postFileCheck(slug: string) {
  return (value: unknown): string | null => {
    if (!isPlainObject(value) || !Array.isArray(value.comments)) return 'expected {"slug": "…", "comments": [...]}';
    if (value.slug !== slug) return `the file holds the comments of \`${String(value.slug)}\`, not of \`${slug}\``;
    const ids = new Set<string>();
    for (const c of value.comments) {
      const problem = postCommentProblem(c, slug);
      if (problem) return problem;
      // Two comments with one id: both would be shown, and a moderator could hide only one.
      if (ids.has((c as Comment).id)) return `comment id \`${(c as Comment).id}\` appears twice (remove or rename one copy)`;
      ids.add((c as Comment).id);
    }
    return null;
  };
}
