/**
 * ECOS client. The key is a path segment:
 * `{base}/{Service}/{KEY}/json/kr/{start}/{end}/…`; StatisticSearch dates are given
 * as YYYYMMDD and cut to the cycle's format (A 2026, Q 2026Q3, M 202609, D 20260901).
 */
import { failure, requestUpstream } from '../http.ts';
import { AppError } from '../../errors.ts';
import type { OperationTable, Params, UpstreamContext } from '../types.ts';
import { ecosResult, readEcosRows } from './schema.ts';
import { own } from '../shape.ts';

const CYCLE_FORMAT: Record<string, (date: string) => string> = {
  A: (d) => d.slice(0, 4),
  Q: (d) => `${d.slice(0, 4)}Q${Math.ceil(Number(d.slice(4, 6)) / 3)}`,
  M: (d) => d.slice(0, 6),
  D: (d) => d,
};

/** A YYYYMMDD date in the cycle's format; already formatted values pass through. */
export function ecosDate(cycle: string, date: string, field: string): string {
  const format = own(CYCLE_FORMAT, cycle);
  if (!format) throw new AppError('validation', `params/cycle must be A, Q, M or D, got ${JSON.stringify(cycle)}`, { field: 'params.cycle' });
  if (/^\d{8}$/.test(date)) return format(date);
  if (/^\d{4}(Q[1-4]|\d{2})?$/.test(date)) return date;
  throw new AppError('validation', `params/${field} must be a date YYYYMMDD, got ${JSON.stringify(date)}`, { field: `params.${field}` });
}

function rows(params: Params): [string, string] {
  const size = Math.min(1000, Math.max(1, Number(params.numOfRows ?? 100) || 100));
  const page = Math.max(1, Number(params.pageNo ?? 1) || 1);
  return [String((page - 1) * size + 1), String(page * size)];
}

async function call(ctx: UpstreamContext, service: string, segments: string[]) {
  const bad = segments.find((segment) => segment === '' || segment === '.' || segment === '..');
  if (bad !== undefined) throw new AppError('validation', `params must not contain empty, "." or ".." values for ${service}`, { field: 'params' });
  const path = [service, ctx.key, 'json', 'kr', ...segments].map(encodeURIComponent).join('/');
  const url = new URL(`${ctx.baseUrl.replace(/\/+$/, '')}/${path}`);
  const { body } = await requestUpstream(ctx, { url });
  const result = ecosResult(body, service);
  if (result?.outcome === 'no_data') return { list_total_count: 0, items: [] };
  if (result) throw failure(ctx, url, result.outcome, { detail: result.detail });
  const data = readEcosRows(body, service);
  if (!data) throw failure(ctx, url, 'malformed', { detail: `no ${service} root` });
  return data;
}

/** The proxy's ECOS operations. */
export const ecosOperations: OperationTable = {
  StatisticSearch: (p, ctx) => {
    const cycle = p.cycle ?? '';
    const items = [p.item_code1].filter((code): code is string => Boolean(code));
    return call(ctx, 'StatisticSearch', [...rows(p), p.stat_code ?? '', cycle, ecosDate(cycle, p.start_dt ?? '', 'start_dt'), ecosDate(cycle, p.end_dt ?? '', 'end_dt'), ...items]);
  },
  StatisticTableList: (p, ctx) => call(ctx, 'StatisticTableList', rows(p)),
  KeyStatisticList: (p, ctx) => call(ctx, 'KeyStatisticList', rows(p)),
};
