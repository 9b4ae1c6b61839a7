/**
 * law.go.kr DRF client: `lawSearch.do` and `lawService.do` with the OC key in the
 * query, always asked for as JSON.
 */
import { buildUrl, failure, requestUpstream } from '../http.ts';
import { isRecord, at } from '../shape.ts';
import type { OperationTable, Params, UpstreamContext } from '../types.ts';
import { isLawOk, lawAuthFailure, readLawSearch } from './schema.ts';

async function get(ctx: UpstreamContext, path: string, query: Record<string, string | undefined>): Promise<{ url: URL; body: unknown }> {
  const url = buildUrl(ctx.baseUrl, path, { OC: ctx.key, ...query, type: 'JSON' });
  const { body } = await requestUpstream(ctx, { url });
  const auth = lawAuthFailure(body);
  if (auth !== null) throw failure(ctx, url, 'key', { detail: 'user verification failed' });
  return { url, body };
}

async function search(params: Params, ctx: UpstreamContext) {
  const target = params.target ?? 'law';
  const { url, body } = await get(ctx, 'lawSearch.do', { target, query: params.query, page: params.page, display: params.display });
  const result = readLawSearch(body, target);
  if (!result) throw failure(ctx, url, 'malformed', { detail: 'no search result' });
  const code = Object.values(isRecord(body) ? body : {}).map((root) => at(root, 'resultCode'))[0];
  if (!isLawOk(code)) throw failure(ctx, url, 'failed', { detail: `resultCode ${String(code)}` });
  return result;
}

async function service(params: Params, ctx: UpstreamContext) {
  const { url, body } = await get(ctx, 'lawService.do', { target: params.target, MST: params.MST, efYd: params.efYd });
  if (!isRecord(body) || Object.keys(body).length === 0) throw failure(ctx, url, 'malformed', { detail: 'empty document' });
  if (typeof body.Law === 'string') return { found: false, MST: params.MST ?? null, message: body.Law };
  return { found: true, MST: params.MST ?? null, document: body };
}

/** The proxy's law.go.kr operations. */
export const lawOperations: OperationTable = { 'lawSearch.do': search, 'lawService.do': service };
