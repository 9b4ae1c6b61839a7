/** @module @agora/writer: the comment and view writer, the public-data endpoints, and the server. */
export { createApp, type AppDeps } from './app.ts';
export { startServer, type StartOptions, type RunningServer } from './server.ts';
export { createLogger, type LoggerOptions } from './logger.ts';
export { AppError, ERROR_CODES, type ErrorCode, type ErrorBody } from './errors.ts';
export { openStore } from './store/open.ts';
export { loadSnapshot } from './store/snapshot.ts';
export { StoreError, type Store, type StoreRole, type CommentStore, type ViewStore, type TokenStore, type QuotaStore, type CommentChange } from './store/types.ts';
export { ViewCounter } from './views/view-counter.ts';
export { RebuildQueue } from './rebuild/queue.ts';
export { Publisher } from './rebuild/publisher.ts';
export { CommentRenderer } from './comments/comment-renderer.ts';
export { parseCommentDocument, validateCommentFields, decodeUtf8, COMMENT_LIMITS } from './validate/comment-document.ts';
export { moderate, publish, type ModerationAction } from './moderation.ts';
export { withStore } from './store/with-store.ts';
