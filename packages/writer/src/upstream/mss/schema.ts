/**
 * Reads MSS support-notice XML (`<response><header/><body><items><item>…`), where
 * fileName and fileUrl repeat once per attachment, into JSON notices.
 */
import { at, list, num, text } from '../shape.ts';
import { toExcerpt } from './excerpt.ts';

/** One attachment. */
export interface NoticeFile {
  name: string | null;
  url: string | null;
}

/** One support notice. */
export interface Notice {
  itemId: string | null;
  title: string | null;
  excerpt: string;
  applicationStartDate: string | null;
  applicationEndDate: string | null;
  writerName: string | null;
  writerPosition: string | null;
  writerPhone: string | null;
  viewUrl: string | null;
  files: NoticeFile[];
}

/** A page of notices. */
export interface NoticeList {
  totalCount: number;
  pageNo: number;
  numOfRows: number;
  items: Notice[];
}

function readNotice(raw: unknown): Notice {
  const names = list(at(raw, 'fileName'));
  const urls = list(at(raw, 'fileUrl'));
  const files = Array.from({ length: Math.max(names.length, urls.length) }, (_, i) => ({ name: text(names[i]), url: text(urls[i]) })).filter((f) => f.name || f.url);
  const field = (name: string) => text(at(raw, name));
  return {
    itemId: field('itemId'),
    title: field('title'),
    excerpt: toExcerpt(field('dataContents') ?? ''),
    applicationStartDate: field('applicationStartDate'),
    applicationEndDate: field('applicationEndDate'),
    writerName: field('writerName'),
    writerPosition: field('writerPosition'),
    writerPhone: field('writerPhone'),
    viewUrl: field('viewUrl'),
    files,
  };
}

/**
 * A page of notices (`body` undefined for NO_DATA).
 *
 * @param body `response.body`.
 * @param q Title filter applied to this page only (optional).
 * @param asked The page and size asked for, for an answer that does not repeat them.
 */
export function readNoticeList(body: unknown, q?: string, asked: { pageNo?: number; numOfRows?: number } = {}): NoticeList {
  const all = list(at(body, 'items', 'item')).map(readNotice);
  const needle = q?.toLowerCase();
  return {
    totalCount: num(at(body, 'totalCount')) ?? all.length,
    // NO_DATA has no body: the page asked for, not page 1 of nothing.
    pageNo: num(at(body, 'pageNo')) ?? asked.pageNo ?? 1,
    numOfRows: num(at(body, 'numOfRows')) ?? asked.numOfRows ?? all.length,
    items: needle ? all.filter((n) => n.title?.toLowerCase().includes(needle)) : all,
  };
}
