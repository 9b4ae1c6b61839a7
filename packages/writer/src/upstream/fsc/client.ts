/**
 * FSC corporate basic information client (GetCorpBasicInfoService_V2,
 * getCorpOutline_V2) by company name, corporate number or business number.
 * No match is a result: totalCount 0.
 */
import { buildUrl } from '../http.ts';
import { getDataGoKr } from '../data-go-kr.ts';
import { at, list, num, scalars, text, type Scalar } from '../shape.ts';
import type { OperationTable, Params, UpstreamContext } from '../types.ts';

/** A page of corporations. */
export interface CorpList {
  totalCount: number;
  pageNo: number;
  numOfRows: number;
  items: Record<string, Scalar>[];
}

/** A list answer (`body` undefined for NO_DATA); `bzno` keeps only exact matches in case the provider ignores it. */
export function readCorpList(body: unknown, bzno?: string): CorpList {
  const all = list(at(body, 'items', 'item')).map(scalars);
  const items = bzno ? all.filter((item) => text(item.bzno) === bzno) : all;
  return {
    totalCount: items.length === all.length ? (num(at(body, 'totalCount')) ?? items.length) : items.length,
    pageNo: num(at(body, 'pageNo')) ?? 1,
    numOfRows: num(at(body, 'numOfRows')) ?? items.length,
    items,
  };
}

/**
 * Corporate outlines matching exactly one of corpNm, crno or bzno.
 *
 * @param ctx The call context.
 * @param params corpNm | crno | bzno, and optional numOfRows, pageNo.
 */
export async function fetchCorpOutline(ctx: UpstreamContext, params: Params): Promise<CorpList> {
  const url = buildUrl(ctx.baseUrl, 'getCorpOutline_V2', {
    serviceKey: ctx.key,
    resultType: 'json',
    pageNo: params.pageNo ?? '1',
    numOfRows: params.numOfRows ?? '10',
    corpNm: params.corpNm,
    crno: params.crno,
    bzno: params.bzno,
  });
  const { body, noData } = await getDataGoKr(ctx, url);
  return readCorpList(noData ? undefined : body, params.bzno);
}

/** The proxy's FSC operation. */
export const fscOperations: OperationTable = { getCorpOutline_V2: (params, ctx) => fetchCorpOutline(ctx, params) };
