/** @module @agora/writer: the comment and view writer, the public-data endpoints, and the server. */
export { createApp, type AppDeps } from './app.ts';
export { startServer, type StartOptions, type RunningServer } from './server.ts';
export { AppError, ERROR_CODES, type ErrorCode, type ErrorBody } from './errors.ts';
export { CommentStore } from './store/comments.ts';
export { ViewCounter } from './store/views.ts';
export { RebuildQueue } from './rebuild/queue.ts';
export { parseCommentDocument, validateCommentFields, decodeUtf8, COMMENT_LIMITS } from './validate/comment-document.ts';
export { moderate, type ModerationAction } from './moderation.ts';
