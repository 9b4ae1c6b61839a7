/**
 * TourAPI 4.0 client (KorService2): keyword, area and location lists and the common
 * detail. Every call carries MobileOS, MobileApp and `_type=json`.
 */
import { buildUrl } from '../http.ts';
import { getDataGoKr } from '../data-go-kr.ts';
import type { OperationTable, Params, UpstreamContext } from '../types.ts';
import { readTourDetail, readTourList } from './schema.ts';

const APP = { MobileOS: 'ETC', MobileApp: 'Agora' };

async function call(ctx: UpstreamContext, operation: string, query: Record<string, string | undefined>): Promise<unknown> {
  const url = buildUrl(ctx.baseUrl, operation, { serviceKey: ctx.key, ...APP, _type: 'json', ...query });
  const { body, noData } = await getDataGoKr(ctx, url);
  return noData ? undefined : body;
}

const pick = (params: Params, names: readonly string[]) => Object.fromEntries(names.map((name) => [name, params[name]]));

/** The four operations by public id; each takes the catalog's parameters. */
export const tourOperations: OperationTable = {
  searchKeyword2: async (p, ctx) => readTourList(await call(ctx, 'searchKeyword2', pick(p, ['keyword', 'contentTypeId', 'numOfRows', 'pageNo', 'arrange']))),
  areaBasedList2: async (p, ctx) => readTourList(await call(ctx, 'areaBasedList2', pick(p, ['areaCode', 'contentTypeId', 'numOfRows', 'pageNo', 'arrange']))),
  locationBasedList2: async (p, ctx) =>
    readTourList(await call(ctx, 'locationBasedList2', { ...pick(p, ['mapX', 'mapY', 'contentTypeId', 'numOfRows', 'pageNo']), radius: p.radius ?? '1000', arrange: p.arrange ?? 'E' })),
  detailCommon2: async (p, ctx) => readTourDetail(await call(ctx, 'detailCommon2', { contentId: p.contentId }), p.contentId ?? ''),
};
