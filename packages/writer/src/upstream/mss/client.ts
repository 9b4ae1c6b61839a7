/**
 * MSS small-business support notices client (mssBizService_v2, getbizList_v2). The
 * provider answers XML; the result is JSON notices with excerpts and attachments.
 */
import { buildUrl } from '../http.ts';
import { getDataGoKr } from '../data-go-kr.ts';
import type { OperationTable, Params, UpstreamContext } from '../types.ts';
import { readNoticeList, type NoticeList } from './schema.ts';

/**
 * One page of notices; `q` filters the titles of that page.
 *
 * @param ctx The call context.
 * @param params pageNo, numOfRows, startDate, endDate (YYYY-MM-DD) and q, all optional.
 */
export async function fetchNotices(ctx: UpstreamContext, params: Params): Promise<NoticeList> {
  const pageNo = params.pageNo ?? '1';
  const numOfRows = params.numOfRows ?? '10';
  const url = buildUrl(ctx.baseUrl, 'getbizList_v2', { serviceKey: ctx.key, pageNo, numOfRows, startDate: params.startDate, endDate: params.endDate });
  const { body, noData } = await getDataGoKr(ctx, url);
  return readNoticeList(noData ? undefined : body, params.q, { pageNo: Number(pageNo), numOfRows: Number(numOfRows) });
}

/** The proxy's MSS operation. */
export const mssOperations: OperationTable = { getbizList_v2: (params, ctx) => fetchNotices(ctx, params) };
