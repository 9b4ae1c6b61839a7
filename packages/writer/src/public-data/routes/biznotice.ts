/**
 * `GET /api/biznotice`: MSS support notices (XML upstream) as JSON. `q` filters the
 * titles of the returned page only, so the unfiltered page is what gets cached.
 */
import type { SimpleAnswer } from './simple-call.ts';
import { AppError } from '../../errors.ts';
import { fetchNotices, type NoticeList } from '../../upstream/mss/index.ts';
import type { PublicDataContext } from '../context.ts';
import { parseQuery, type QuerySpec } from '../query/parse-query.ts';
import { integer, isoDate, length } from '../query/rules.ts';
import { simpleCall } from './simple-call.ts';

const SPEC = {
  pageNo: { rule: integer(1, 10000) },
  numOfRows: { rule: integer(1, 100) },
  startDate: { rule: isoDate },
  endDate: { rule: isoDate },
  q: { rule: length(1, 30) },
};

/** Each operation's parameters: the proxy checks its calls' values by the same rules. */
export const BIZNOTICE_PARAMS: Readonly<Record<string, QuerySpec>> = { getbizList_v2: SPEC };

/** A date range that ends before it starts: the 400, or null (the route and the proxy). */
export function dateOrderProblem(params: Readonly<Record<string, unknown>>, where: string, field: (name: string) => string): AppError | null {
  const { startDate, endDate } = params;
  if (typeof startDate !== 'string' || typeof endDate !== 'string' || startDate <= endDate) return null;
  return new AppError('validation', `${where}/endDate must not be before startDate (${startDate})`, { field: field('endDate') });
}

/**
 * The support-notice route.
 *
 * @param ctx The router's shared state.
 */
export function biznoticeRoute(ctx: PublicDataContext): SimpleAnswer {
  return async function biznotice(req) {
    const { q, ...query } = parseQuery(req.query, SPEC);
    const problem = dateOrderProblem(query, 'query', (name) => name);
    if (problem) throw problem;
    const envelope = await simpleCall(ctx, 'support-notices', 'getbizList_v2', query, (upstream, p) => fetchNotices(upstream, p));
    const page = envelope.data as NoticeList;
    const needle = q?.toLowerCase();
    const items = needle ? page.items.filter((notice) => notice.title?.toLowerCase().includes(needle)) : page.items;
    return { ...envelope, data: { ...page, items, ...(q ? { q } : {}) } };
  };
}
