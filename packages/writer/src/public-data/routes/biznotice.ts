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

/**
 * The support-notice route.
 *
 * @param ctx The router's shared state.
 */
export function biznoticeRoute(ctx: PublicDataContext): SimpleAnswer {
  return async function biznotice(req) {
    const { q, ...query } = parseQuery(req.query, SPEC);
    if (query.startDate && query.endDate && query.startDate > query.endDate) {
      throw new AppError('validation', `query/endDate must not be before startDate (${query.startDate})`, { field: 'endDate' });
    }
    const envelope = await simpleCall(ctx, 'support-notices', 'getbizList_v2', query, (upstream, p) => fetchNotices(upstream, p));
    const page = envelope.data as NoticeList;
    const needle = q?.toLowerCase();
    const items = needle ? page.items.filter((notice) => notice.title?.toLowerCase().includes(needle)) : page.items;
    return { ...envelope, data: { ...page, items, ...(q ? { q } : {}) } };
  };
}
