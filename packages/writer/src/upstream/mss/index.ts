/** @module mss: MSS support-notice client (XML to JSON). */
export { fetchNotices, mssOperations } from './client.ts';
export { readNoticeList, type Notice, type NoticeList } from './schema.ts';
export { toExcerpt, EXCERPT_MAX } from './excerpt.ts';
