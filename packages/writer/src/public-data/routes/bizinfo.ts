/**
 * `GET /api/bizinfo?action=status&b_no=…` (up to 10 numbers) or
 * `?action=validate&b_no=…&start_dt=YYYYMMDD&p_nm=…` (one record). Numbers are
 * checked (10 digits each) before the NTS call; separators are tolerated.
 */
import type { SimpleAnswer } from './simple-call.ts';
import { AppError } from '../../errors.ts';
import { fetchBizStatus, fetchBizValidation } from '../../upstream/nts/index.ts';
import type { PublicDataContext } from '../context.ts';
import { parseQuery, type QuerySpec } from '../query/parse-query.ts';
import { businessNumber, businessNumbers, compactDate, length } from '../query/rules.ts';
import { simpleCall } from './simple-call.ts';

/** At most this many numbers per status call (spec 8). */
export const MAX_NUMBERS = 10;

const STATUS = { b_no: { rule: businessNumbers(MAX_NUMBERS), required: true } };
const VALIDATE = {
  b_no: { rule: businessNumber, required: true },
  start_dt: { rule: compactDate, required: true },
  p_nm: { rule: length(1, 30), required: true },
};

/** Each operation's parameters: the proxy checks its calls' values by the same rules. */
export const BIZINFO_PARAMS: Readonly<Record<string, QuerySpec>> = { status: STATUS, validate: VALIDATE };

/**
 * The business-registration route.
 *
 * @param ctx The router's shared state.
 */
export function bizinfoRoute(ctx: PublicDataContext): SimpleAnswer {
  return async function bizinfo(req) {
    const action = req.query.action;
    if (action !== undefined && typeof action !== 'string') throw new AppError('validation', 'query/action must be given once, as text', { field: 'action' });
    if (action === 'status') {
      const { b_no } = parseQuery(req.query, STATUS, ['action']);
      return simpleCall(ctx, 'business-registration', 'status', { b_no }, (upstream, p) => fetchBizStatus(upstream, (p.b_no ?? '').split(',')));
    }
    if (action === 'validate') {
      const query = parseQuery(req.query, VALIDATE, ['action']);
      return simpleCall(ctx, 'business-registration', 'validate', query, (upstream, p) =>
        fetchBizValidation(upstream, { b_no: p.b_no ?? '', start_dt: p.start_dt ?? '', p_nm: p.p_nm ?? '' }),
      );
    }
    throw new AppError('validation', action === undefined ? 'query/action is required; one of status, validate' : 'query/action must be one of status, validate', { field: 'action' });
  };
}
