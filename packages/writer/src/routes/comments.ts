/**
 * `POST /api/comments/{slug}`: key, post, media type, size, the body's stated
 * `Content-Digest`, document (with its rendering-work limits: 400 `comment_too_complex`) — checked in that order, each failure a JSON error that
 * changes nothing. Then the body is rendered (fairly between client addresses), the
 * comment is stored durably with its HTML (fsync or COMMIT), and the post's own outputs
 * (its page, `/api/post/{slug}`, `/api/comments/{slug}`) are rebuilt before the answer:
 *
 * - 201 when they show it ("stored and rebuilt", as the specification says);
 * - 202 with `status: "pending"` when the rebuild failed or took longer than
 *   `rebuildWaitMs`: the comment is kept (posting again would duplicate it) and the
 *   rebuild is retried until the page shows it.
 *
 * Site-wide lists follow within the aggregate delay (see `rebuild/aggregates.ts`).
 * The checks and the storing are `comments/submit-comment.ts`, shared with MCP.
 */
import { Router, raw, type Request, type RequestHandler } from 'express';
import { AppError } from '../errors.ts';
import { isUtf8 } from '../http/utf8-json.ts';
import { clientKey, verifiedAgent } from '../http/client-key.ts';
import { checkContentDigest } from '../http/content-digest.ts';
import { resolvePostSlug } from '../post-slug.ts';
import { COMMENT_LIMITS } from '../validate/comment-document.ts';
import { checkCommentKey, checkCommentPost, checkCommentSize, commentSizeMessage, storeComment, type CommentSubmitDeps } from '../comments/submit-comment.ts';

export type CommentRouteDeps = CommentSubmitDeps;

function checkMediaType(req: Request): void {
  const type = req.get('content-type') ?? '';
  const essence = type.split(';')[0]!.trim().toLowerCase();
  if (essence !== 'text/plain' || !isUtf8(type)) {
    throw new AppError('unsupported_media_type', `Content-Type must be text/plain; charset=utf-8 (got ${type ? JSON.stringify(type) : 'none'})`, { field: 'Content-Type' });
  }
}

/** The slug the path names (its published, file-name form or the slug itself: `post-slug.ts`). */
const postSlug = (deps: CommentRouteDeps, req: Request): string => {
  const given = req.params.slug as string;
  return resolvePostSlug((slug) => deps.state.hasPost(slug), given, 'path') ?? given;
};

const parseBody = raw({ type: () => true, limit: COMMENT_LIMITS.maxBytes });

/**
 * Read the body, at most `maxBytes`. A body whose size was not given (chunked) or that is
 * larger once decoded (gzip) is stopped past the limit: its 413 names the limit and what
 * arrived, as the one told by `Content-Length` does.
 */
const readBody: RequestHandler = (req, res, next) =>
  parseBody(req, res, (error?: unknown) => {
    const received = (error as { type?: string; received?: number } | undefined)?.type === 'entity.too.large' ? (error as { received?: number }).received : undefined;
    if (received !== undefined) return next(new AppError('payload_too_large', commentSizeMessage(`larger: ${received} bytes arrived before reading stopped`), { field: 'body' }));
    next(error);
  });

export function commentRoutes(deps: CommentRouteDeps): Router {
  const router = Router();
  router.post('/api/comments/:slug', (req, _res, next) => {
    checkCommentKey(req.get('x-api-key'), deps.apiKey);
    checkCommentPost(deps.state, postSlug(deps, req));
    checkMediaType(req);
    const length = Number(req.get('content-length'));
    if (Number.isFinite(length)) checkCommentSize(length);
    next();
  }, readBody, async (req, res) => {
    const bytes: Uint8Array = Buffer.isBuffer(req.body) ? req.body : new Uint8Array();
    checkContentDigest(req.get('content-digest'), req.get('content-encoding'), bytes);
    const answer = await storeComment(deps, clientKey(req), postSlug(deps, req), bytes, verifiedAgent(req));
    res.status(answer.status).location(answer.location).json(answer.body);
  });
  return router;
}
