/** Comments as table rows: the column list, row → `Comment`, and comments → column arrays for `unnest`. */
import type { Comment } from '@agora/generator';

export const COMMENT_COLUMNS = 'id, slug, author, model, date, type, position, body, created_at, hidden, hidden_reason, html, html_key, agent_origin, agent_keyid';

export interface CommentRow {
  id: string;
  slug: string;
  author: string;
  model: string;
  date: string;
  type: Comment['type'];
  position: Comment['position'];
  body: string;
  created_at: string;
  hidden: boolean;
  hidden_reason: string | null;
  html: string | null;
  html_key: string | null;
  agent_origin: string | null;
  agent_keyid: string | null;
}

/** A row as the `Comment` every engine returns (`hidden` only when true and `hidden_reason` only when set, as the embedded store keeps them). */
export function toComment(row: CommentRow): Comment {
  const comment: Comment = {
    id: row.id,
    slug: row.slug,
    author: row.author,
    model: row.model,
    date: row.date,
    type: row.type,
    position: row.position,
    body: row.body,
    created_at: row.created_at,
  };
  if (row.hidden) comment.hidden = true;
  if (row.hidden_reason !== null) comment.hidden_reason = row.hidden_reason;
  if (row.html !== null && row.html_key !== null) {
    comment.html = row.html;
    comment.html_key = row.html_key;
  }
  if (row.agent_origin !== null && row.agent_keyid !== null) comment.agent = { origin: row.agent_origin, keyid: row.agent_keyid };
  return comment;
}

/**
 * INSERT of many comments as one statement with one array parameter per column, so a
 * batch of any size is one round trip with a fixed statement text.
 */
export const INSERT_COMMENTS = `
  INSERT INTO comments (${COMMENT_COLUMNS})
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::boolean[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[])`;

/** The fifteen column arrays of `INSERT_COMMENTS`. */
export function commentColumns(comments: readonly Comment[]): unknown[] {
  return [
    comments.map((c) => c.id),
    comments.map((c) => c.slug),
    comments.map((c) => c.author),
    comments.map((c) => c.model),
    comments.map((c) => c.date),
    comments.map((c) => c.type),
    comments.map((c) => c.position ?? null),
    comments.map((c) => c.body),
    comments.map((c) => c.created_at),
    comments.map((c) => c.hidden === true),
    comments.map((c) => c.hidden_reason ?? null),
    comments.map((c) => c.html ?? null),
    comments.map((c) => c.html_key ?? null),
    comments.map((c) => c.agent?.origin ?? null),
    comments.map((c) => c.agent?.keyid ?? null),
  ];
}
