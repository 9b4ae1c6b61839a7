/**
 * NTS business-registration client (api.odcloud.kr nts-businessman v1): POST JSON to
 * `status` and `validate` with the serviceKey in the query. Never retried (POST).
 */
import { buildUrl, failure, requestUpstream } from '../http.ts';
import type { OperationTable, UpstreamContext } from '../types.ts';
import { isNtsOk, readBizStatus, readBizValidation, type BizStatus, type BizValidation } from './schema.ts';

async function post(ctx: UpstreamContext, path: string, json: unknown): Promise<unknown> {
  const url = buildUrl(ctx.baseUrl, path, { serviceKey: ctx.key });
  const { body } = await requestUpstream(ctx, { url, method: 'POST', json });
  if (!isNtsOk(body)) throw failure(ctx, url, 'failed', { detail: 'status_code not OK' });
  return body;
}

/**
 * Status of up to 100 numbers.
 *
 * @param ctx The call context.
 * @param numbers 10-digit numbers without separators.
 */
export async function fetchBizStatus(ctx: UpstreamContext, numbers: readonly string[]): Promise<BizStatus> {
  return readBizStatus(await post(ctx, 'status', { b_no: numbers }));
}

/**
 * Whether a number, opening date and representative match.
 *
 * @param ctx The call context.
 * @param record b_no (10 digits), start_dt (YYYYMMDD) and p_nm.
 */
export async function fetchBizValidation(ctx: UpstreamContext, record: { b_no: string; start_dt: string; p_nm: string }): Promise<BizValidation> {
  return readBizValidation(await post(ctx, 'validate', { businesses: [record] }));
}

/** Split `"124-81-00998, 2208717483"` into digit strings. */
export function splitBusinessNumbers(value: string): string[] {
  return value.split(/[\s,]+/).map((part) => part.replaceAll('-', '')).filter(Boolean);
}

/** The proxy's NTS operations. */
export const ntsOperations: OperationTable = {
  status: (p, ctx) => fetchBizStatus(ctx, splitBusinessNumbers(p.b_no ?? '')),
  validate: (p, ctx) => fetchBizValidation(ctx, { b_no: (p.b_no ?? '').replaceAll('-', ''), start_dt: (p.start_dt ?? '').replaceAll('-', ''), p_nm: p.p_nm ?? '' }),
};
