/**
 * K-apt apartment complex client (AptBasisInfoServiceV5): basic info
 * (getAphusBassInfoV5) and detail info (getAphusDtlInfoV5) by kaptCode.
 */
import { buildUrl } from '../http.ts';
import { getDataGoKr } from '../data-go-kr.ts';
import type { OperationTable, UpstreamContext } from '../types.ts';
import { readApt, type AptResult } from './schema.ts';

/** The two operations, by public id. */
export const KAPT_OPERATIONS = ['getAphusBassInfoV5', 'getAphusDtlInfoV5'] as const;

/**
 * Basic or detail information of one complex.
 *
 * @param ctx The call context.
 * @param operation `getAphusBassInfoV5` or `getAphusDtlInfoV5`.
 * @param kaptCode The complex code, e.g. `A10027875`.
 */
export async function fetchApt(ctx: UpstreamContext, operation: (typeof KAPT_OPERATIONS)[number], kaptCode: string): Promise<AptResult> {
  const url = buildUrl(ctx.baseUrl, operation, { serviceKey: ctx.key, kaptCode, _type: 'json' });
  const { body, noData } = await getDataGoKr(ctx, url);
  return readApt(noData ? undefined : body, kaptCode);
}

/** The proxy's K-apt operations. */
export const kaptOperations: OperationTable = Object.fromEntries(
  KAPT_OPERATIONS.map((operation) => [operation, (params, ctx) => fetchApt(ctx, operation, params.kaptCode ?? '')]),
);
