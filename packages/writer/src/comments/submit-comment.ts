/**
 * Submitting a comment, shared by `POST /api/comments/{slug}` and the MCP tool
 * `post_comment`: the key, the post, the size and the document (its rendering-work
 * limits included) are checked in that order, each failure an `AppError` that changes
 * nothing. Then the body is rendered, fairly between clients (`CommentRenderer`), and
 * the comment is stored durably with its HTML: this is the only time it is judged, so
 * nothing after the answer can take it back. The post's own outputs are rebuilt before
 * the answer (201), or the answer says the page is still pending (202). A repeat
 * within the duplicate window answers the first comment (200).
 */
import { randomUUID, timingSafeEqual, createHash } from 'node:crypto';
import { isLightBody, toCommentRecord, toUrlSegment, type Comment, type CommentAgent, type SiteBuild } from '@agora/generator';
import type { Logger } from 'pino';
import { AppError } from '../errors.ts';
import { checkRenderedBody, checkText, COMMENT_LIMITS, decodeUtf8, parseCommentDocument } from '../validate/comment-document.ts';
import { isStoreOutage, type Store } from '../store/types.ts';
import type { HealthState } from '../health.ts';
import type { Publisher } from '../rebuild/publisher.ts';
import { senderKey, type DuplicateGuard } from '../http/duplicate-guard.ts';
import type { HiddenTwins } from './hidden-twins.ts';
import type { CommentRenderer } from './comment-renderer.ts';

/** What submitting needs. */
export interface CommentSubmitDeps {
  state: SiteBuild;
  store: Store;
  publisher: Publisher;
  renderer: CommentRenderer;
  logger?: Logger;
  apiKey: string;
  now?: () => Date;
  /** Longest wait for the rebuild before answering 202 (ms, default 5000). */
  rebuildWaitMs?: number;
  duplicates?: DuplicateGuard;
  /** The hidden comments: a twin of one is answered with it, never stored again (`hidden-twins.ts`). */
  hidden?: HiddenTwins;
  /** Told when the store fails or stalls, or no renderer answers (`/api/health` says `degraded`, part `store` or `renderer`), and when it works again. */
  health?: HealthState;
}

/** A store write pending this long makes `/api/health` say `degraded` until it ends. */
const STORE_STALL_MS = 5000;

/**
 * Store one comment, telling `/api/health` how the store is doing: a write that fails for
 * the store's sake (database away, disk full, a read-only folder) or waits over
 * `STORE_STALL_MS` (a stalled database) reports part `store`; the next write that
 * succeeds clears it.
 */
async function addToStore(deps: CommentSubmitDeps, comment: Comment): Promise<void> {
  const stall = setTimeout(() => deps.health?.set('store', `a comment write has waited over ${STORE_STALL_MS / 1000} s for the store`), STORE_STALL_MS).unref();
  try {
    await deps.store.comments.add(comment);
    deps.health?.clear('store');
  } catch (error) {
    if (isStoreOutage(error)) deps.health?.set('store', error.message);
    throw error;
  } finally {
    clearTimeout(stall);
  }
}

/** The outcome: the HTTP status it maps to, the body and where the comment lives. */
export interface CommentSubmitted {
  status: 200 | 201 | 202;
  body: Record<string, unknown>;
  location: string;
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/** 401 unless `given` is the comment key (compared in constant time). */
export function checkCommentKey(given: string | undefined, apiKey: string): void {
  if (given === undefined || given === '') throw new AppError('unauthorized', 'X-API-Key header is required; its public value is in /llms.txt and /openapi.json', { field: 'X-API-Key' });
  if (!timingSafeEqual(digest(given), digest(apiKey))) throw new AppError('unauthorized', 'X-API-Key is not the comment key; see /llms.txt', { field: 'X-API-Key' });
}

/** 404 unless the slug names a post. */
export function checkCommentPost(state: Pick<SiteBuild, 'hasPost'>, slug: string): void {
  if (!state.hasPost(slug)) throw new AppError('not_found', `No post with slug ${JSON.stringify(slug)}`, { field: 'slug' });
}

/** 413 over the document size limit. */
export function checkCommentSize(bytes: number): void {
  // `field: body` is the request's body here: the whole document, not its markdown `body` alone (said, since both are named so).
  if (bytes > COMMENT_LIMITS.maxBytes) throw new AppError('payload_too_large', commentSizeMessage(String(bytes)), { field: 'body' });
}

/** The 413's message: the limit, then `size` (`16385`, or what arrived of a body whose size was not given). */
export function commentSizeMessage(size: string): string {
  return `body (the whole document: front matter and markdown together) must be at most ${COMMENT_LIMITS.maxBytes} bytes; this one is ${size}`;
}

/** What the 200 of a resent hidden comment adds to its record. */
const HIDDEN_REPEAT = { status: 'hidden', message: 'A moderator hid this comment: it is stored but shown nowhere, and sending it again does not show it.' } as const;

/**
 * Validate, render, store and publish a document whose key, post and size were checked.
 *
 * @param deps Store, build state, renderer, publisher, duplicate guard.
 * @param client Who sends it (an address or a verified agent): the renderer's fairness key.
 * @param slug The post.
 * @param bytes The document as sent.
 * @param agent The verified agent that signed the request (Web Bot Auth), stored with the comment; null when unsigned.
 */
export async function storeComment(deps: CommentSubmitDeps, client: string, slug: string, bytes: Uint8Array, agent: CommentAgent | null = null): Promise<CommentSubmitted> {
  const received = (deps.now ?? (() => new Date()))();
  const input = parseCommentDocument(decodeUtf8(bytes), received.toISOString().slice(0, 10));
  const where = (id: string) => `/api/comments/${toUrlSegment(slug)}#${id}`;
  const sender = senderKey(input.author, agent);
  // The same comment stored lately, or being stored right now (sent twice at once): answered with it.
  // (No await unless one is under way: two twins in one tick must not both pass.)
  let firstId = deps.duplicates?.check(slug, sender, input.body) ?? deps.hidden?.find(slug, sender, input.body) ?? null;
  const twin = firstId ? undefined : deps.duplicates?.underWay(slug, sender, input.body);
  if (twin) firstId = await twin;
  // A twin of a hidden comment is that comment too: sending it again must not undo a moderator's hide.
  const first = firstId ? await deps.store.comments.get(firstId) : null;
  // A hidden one says so: the 200 must not read as "shown" to an agent that acts on it.
  if (first) return { status: 200, body: { ...toCommentRecord(first), ...(first.hidden ? HIDDEN_REPEAT : {}) }, location: where(first.id) };
  // Being answered (the site-wide flush gives way to it) from the start for a light body;
  // a heavy one may wait seconds for its render and counts only from its store on, so
  // its wait does not switch the giving way off for ordinary comments (`CommentsInFlight`).
  const light = isLightBody(input.body);
  deps.publisher.commentArriving();
  let answered = light ? deps.publisher.answeringComment() : () => {};
  // The post's earlier comments are read back (if their text was dropped) while this one
  // renders and is stored, not after: the rebuild before the 201 then finds them in memory.
  // A failed read is the rebuild's to handle (it reads the post from the store again).
  const texts = deps.state.holdCommentTexts([slug]).catch(() => () => {});
  const settleDuplicates = deps.duplicates?.begin(slug, sender, input.body) ?? (() => {});
  try {
    const t0 = performance.now();
    // A renderer that does not answer or cannot start says so in /api/health until one renders again.
    const rendering = await deps.renderer.render(client, input.body, light).then(
      (r) => (deps.health?.clear('renderer'), r),
      (error: unknown) => {
        if (error instanceof AppError && error.code === 'render_unavailable') deps.health?.set('renderer', error.message);
        throw error;
      },
    );
    checkRenderedBody(rendering.html);
    if (!light) answered = deps.publisher.answeringComment();
    const t1 = performance.now();
    // Stamped after the render: a comment waiting for its turn must not sort before comments stored meanwhile.
    const at = deps.now ? received : new Date();
    // The post's own slug string, not the request's copy: the site model keeps every comment for the writer's life.
    const comment: Comment = { id: randomUUID(), slug: deps.state.site.bySlug.get(slug)?.slug ?? slug, ...input, created_at: at.toISOString(), ...rendering, ...(agent ? { agent: { origin: agent.origin, keyid: agent.keyid } } : {}) };
    // The answer's record is made now: once published, the comment object belongs to the
    // site model, which may drop its text as soon as another post's rebuild ends.
    const record = toCommentRecord(comment);
    await addToStore(deps, comment);
    const t2 = performance.now();
    settleDuplicates(comment.id);
    let giveUp: NodeJS.Timeout | undefined;
    const published = await Promise.race([
      deps.publisher.commentAdded(comment),
      new Promise<false>((r) => (giveUp = setTimeout(() => r(false), deps.rebuildWaitMs ?? 5000).unref())),
    ]);
    // Not left to run out: under load thousands of them (and what they hold) would wait their 5 s.
    clearTimeout(giveUp);
    // Where a comment's time went (the render includes its wait for the client's turn).
    const ms = (n: number) => Math.round(n * 10) / 10;
    deps.logger?.debug({ id: comment.id, slug, client, render_ms: ms(t1 - t0), store_ms: ms(t2 - t1), publish_ms: ms(performance.now() - t2) }, 'comment stored');
    if (published) return { status: 201, body: { ...record }, location: where(comment.id) };
    deps.logger?.warn({ id: comment.id, slug }, 'comment stored; its page is not rebuilt yet (202)');
    return {
      status: 202,
      body: { ...record, status: 'pending', message: 'Stored. The post\'s page does not show it yet; the server keeps rebuilding it. Do not post it again.' },
      location: where(comment.id),
    };
  } finally {
    // Not stored (refused, failed): a twin waiting for it is stored on its own.
    settleDuplicates(null);
    answered();
    void texts.then((release) => release());
  }
}

/**
 * Submit a whole document (the MCP path: everything arrives at once).
 *
 * @param deps As for `storeComment`.
 * @param request Who sends it (and the verified agent, if signed), the key given, the slug and the document text.
 */
export async function submitComment(deps: CommentSubmitDeps, request: { client: string; agent?: CommentAgent | null; apiKey: string | undefined; slug: string; document: string }): Promise<CommentSubmitted> {
  checkCommentKey(request.apiKey, deps.apiKey);
  checkCommentPost(deps.state, request.slug);
  const bytes = new TextEncoder().encode(request.document);
  checkCommentSize(bytes.length);
  checkText(request.document);
  return storeComment(deps, request.client, request.slug, bytes, request.agent ?? null);
}
