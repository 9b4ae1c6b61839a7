/**
 * MOLIT RTMS apartment-trade client (RTMSDataSvcAptTrade). The provider answers XML;
 * the result is JSON trades.
 */
import { buildUrl } from '../http.ts';
import { getDataGoKr } from '../data-go-kr.ts';
import type { OperationTable } from '../types.ts';
import { readTradeList } from './schema.ts';

/** The proxy's RTMS operation. */
export const rtmsOperations: OperationTable = {
  getRTMSDataSvcAptTrade: async (p, ctx) => {
    const url = buildUrl(ctx.baseUrl, 'getRTMSDataSvcAptTrade', { serviceKey: ctx.key, LAWD_CD: p.LAWD_CD, DEAL_YMD: p.DEAL_YMD, pageNo: p.pageNo ?? '1', numOfRows: p.numOfRows ?? '100' });
    const { body, noData } = await getDataGoKr(ctx, url);
    return readTradeList(noData ? undefined : body);
  },
};
