/**
 * KMA short-term forecast client. Public operation ids map to the real paths
 * (getUltraFcst → getUltraSrtFcst, getVersion → getFcstVersion); the key travels as
 * `serviceKey` and answers are always asked for as JSON.
 */
import { buildUrl } from '../http.ts';
import { getDataGoKr } from '../data-go-kr.ts';
import type { OperationTable, Params, UpstreamContext } from '../types.ts';
import { readKmaPage, type KmaPage } from './schema.ts';
import { latestVilageBase } from './base-time.ts';

/** Real upstream path of each public operation id. */
export const KMA_PATHS: Readonly<Record<string, string>> = {
  getUltraSrtNcst: 'getUltraSrtNcst',
  getUltraFcst: 'getUltraSrtFcst',
  getVilageFcst: 'getVilageFcst',
  getVersion: 'getFcstVersion',
};

const MAX_PAGES = 3;

/**
 * One page of a KMA operation.
 *
 * @param ctx The call context.
 * @param path The real path, e.g. `getVilageFcst`.
 * @param query Query parameters besides serviceKey and dataType.
 */
export async function fetchKmaPage(ctx: UpstreamContext, path: string, query: Record<string, string | undefined>): Promise<KmaPage> {
  // Only the values given replace the defaults: a proxy call without numOfRows passes it as
  // undefined, which overrode the 1000 and left KMA's own default of 10 rows.
  const given = Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined));
  const url = buildUrl(ctx.baseUrl, path, { serviceKey: ctx.key, pageNo: '1', numOfRows: '1000', ...given, dataType: 'JSON' });
  const { body, noData } = await getDataGoKr(ctx, url);
  return noData ? { totalCount: 0, pageNo: Number(query.pageNo ?? 1), numOfRows: 0, items: [] } : readKmaPage(body);
}

/**
 * Every item of a forecast run, following pages (at most three) until totalCount.
 *
 * @param ctx The call context.
 * @param query base_date, base_time, nx and ny.
 */
export async function fetchVilageItems(ctx: UpstreamContext, query: { base_date: string; base_time: string; nx: string; ny: string }): Promise<KmaPage> {
  const first = await fetchKmaPage(ctx, 'getVilageFcst', { ...query, numOfRows: '1000', pageNo: '1' });
  const items = [...first.items];
  for (let page = 2; page <= MAX_PAGES && items.length < first.totalCount && first.items.length > 0; page++) {
    const next = await fetchKmaPage(ctx, 'getVilageFcst', { ...query, numOfRows: '1000', pageNo: String(page) });
    if (next.items.length === 0) break;
    items.push(...next.items);
  }
  return { ...first, items };
}

const forecast = (path: string) => (params: Params, ctx: UpstreamContext) =>
  fetchKmaPage(ctx, path, { base_date: params.base_date, base_time: params.base_time, nx: params.nx, ny: params.ny, pageNo: params.pageNo, numOfRows: params.numOfRows });

/** The proxy's KMA operations. */
export const kmaOperations: OperationTable = {
  getUltraSrtNcst: forecast('getUltraSrtNcst'),
  getUltraFcst: forecast('getUltraSrtFcst'),
  getVilageFcst: forecast('getVilageFcst'),
  getVersion: (params, ctx) => {
    const base = latestVilageBase(ctx.now());
    return fetchKmaPage(ctx, 'getFcstVersion', {
      ftype: params.ftype ?? 'SHRT',
      basedatetime: params.basedatetime ?? `${base.baseDate}${base.baseTime}`,
      pageNo: params.pageNo,
      numOfRows: params.numOfRows ?? '10',
    });
  },
};
