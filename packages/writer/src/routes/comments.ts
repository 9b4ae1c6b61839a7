/**
 * `POST /api/comments/{slug}`: key, post, media type, size, document — checked in that
 * order, each failure a JSON error that changes nothing. Then the comment is stored
 * durably (fsync or COMMIT), and the post's own outputs (its page, `/api/post/{slug}`,
 * `/api/comments/{slug}`) are rebuilt before the answer:
 *
 * - 201 when they show it ("stored and rebuilt", as the specification says);
 * - 202 with `status: "pending"` when the rebuild failed or took longer than
 *   `rebuildWaitMs`: the comment is kept (posting again would duplicate it) and the
 *   rebuild is retried until the page shows it.
 *
 * Site-wide lists follow within the aggregate delay (see `rebuild/aggregates.ts`).
 */
import { Router, raw, type Request } from 'express';
import { randomUUID, timingSafeEqual, createHash } from 'node:crypto';
import { toCommentRecord, toUrlSegment, type Comment, type SiteBuild } from '@agora/generator';
import { AppError } from '../errors.ts';
import { COMMENT_LIMITS, decodeUtf8, parseCommentDocument } from '../validate/comment-document.ts';
import type { Logger } from 'pino';
import type { Store } from '../store/types.ts';
import type { RebuildQueue } from '../rebuild/queue.ts';
import type { DuplicateGuard } from '../http/duplicate-guard.ts';

export interface CommentRouteDeps {
  state: SiteBuild;
  store: Store;
  rebuild: RebuildQueue;
  logger?: Logger;
  apiKey: string;
  now?: () => Date;
  /** Longest wait for the rebuild before answering 201 anyway (ms, default 5000). */
  rebuildWaitMs?: number;
  /** Answers a repeated comment (same post, author, body) with the first one (200) instead of storing it. */
  duplicates?: DuplicateGuard;
}

const digest = (s: string) => createHash('sha256').update(s).digest();

function checkKey(req: Request, apiKey: string): void {
  const given = req.get('x-api-key');
  if (given === undefined || given === '') throw new AppError('unauthorized', 'X-API-Key header is required; its public value is in /llms.txt and /openapi.json', { field: 'X-API-Key' });
  if (!timingSafeEqual(digest(given), digest(apiKey))) throw new AppError('unauthorized', 'X-API-Key is not the comment key; see /llms.txt', { field: 'X-API-Key' });
}

function checkMediaType(req: Request): void {
  const type = req.get('content-type') ?? '';
  const [essence, ...params] = type.split(';').map((s) => s.trim().toLowerCase());
  const charset = params.find((p) => p.startsWith('charset='))?.slice(8).replace(/"/g, '');
  if (essence !== 'text/plain' || (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8')) {
    throw new AppError('unsupported_media_type', `Content-Type must be text/plain; charset=utf-8 (got ${type ? JSON.stringify(type) : 'none'})`, { field: 'Content-Type' });
  }
}

const readBody = raw({ type: () => true, limit: COMMENT_LIMITS.maxBytes });

export function commentRoutes(deps: CommentRouteDeps): Router {
  const router = Router();
  const now = deps.now ?? (() => new Date());
  router.post('/api/comments/:slug', (req, _res, next) => {
    checkKey(req, deps.apiKey);
    if (!deps.state.hasPost(req.params.slug as string)) throw new AppError('not_found', `No post with slug ${JSON.stringify(req.params.slug)}`, { field: 'slug' });
    checkMediaType(req);
    const length = Number(req.get('content-length'));
    if (Number.isFinite(length) && length > COMMENT_LIMITS.maxBytes) {
      throw new AppError('payload_too_large', `body must be at most ${COMMENT_LIMITS.maxBytes} bytes`, { field: 'body' });
    }
    next();
  }, readBody, async (req, res) => {
    const slug = req.params.slug as string;
    const bytes: Uint8Array = Buffer.isBuffer(req.body) ? req.body : new Uint8Array();
    const at = now();
    const input = parseCommentDocument(decodeUtf8(bytes), at.toISOString().slice(0, 10));
    const firstId = deps.duplicates?.check(slug, input.author, input.body);
    const first = firstId ? await deps.store.comments.get(firstId) : null;
    if (first && !first.hidden) return void res.status(200).location(`/api/comments/${toUrlSegment(slug)}#${first.id}`).json(toCommentRecord(first));
    const comment: Comment = { id: randomUUID(), slug, ...input, created_at: at.toISOString() };
    await deps.store.comments.add(comment);
    deps.duplicates?.remember(slug, input.author, input.body, comment.id);
    const published = await Promise.race([
      deps.rebuild.schedule([slug]),
      new Promise<false>((r) => setTimeout(() => r(false), deps.rebuildWaitMs ?? 5000).unref()),
    ]);
    const record = toCommentRecord(comment);
    res.location(`/api/comments/${toUrlSegment(slug)}#${comment.id}`);
    if (published) return void res.status(201).json(record);
    deps.logger?.warn({ id: comment.id, slug }, 'comment stored; its page is not rebuilt yet (202)');
    res.status(202).json({
      ...record,
      status: 'pending',
      message: 'Stored. The post\'s page does not show it yet; the server keeps rebuilding it. Do not post it again.',
    });
  });
  return router;
}
