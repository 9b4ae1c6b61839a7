/**
 * `GET /api/tour?action=search|area|location|detail&…`: TourAPI keyword search,
 * area list, places near a point, or a place's detail. Each action has its own
 * parameters (spec 4.5); any other parameter is refused.
 */
import type { SimpleAnswer } from './simple-call.ts';
import { AppError } from '../../errors.ts';
import { tourOperations } from '../../upstream/tour/index.ts';
import type { PublicDataContext } from '../context.ts';
import { parseQuery, type QuerySpec } from '../query/parse-query.ts';
import { decimal, integer, length, oneOf, pattern } from '../query/rules.ts';
import { simpleCall } from './simple-call.ts';
import { own } from '../../upstream/shape.ts';

const CONTENT_TYPES = ['12', '14', '15', '25', '28', '32', '38', '39'];
const AREA_CODES = ['1', '2', '3', '4', '5', '6', '7', '8', '31', '32', '33', '34', '35', '36', '37', '38', '39'];
const PAGING = { numOfRows: { rule: integer(1, 100) }, pageNo: { rule: integer(1, 10000) } };
const contentTypeId = { rule: oneOf(CONTENT_TYPES) };

/** Parameters and operation of each action. */
const ACTIONS: Readonly<Record<string, { operation: string; spec: QuerySpec }>> = {
  search: { operation: 'searchKeyword2', spec: { keyword: { rule: length(1, 50), required: true }, contentTypeId, arrange: { rule: oneOf(['A', 'C', 'D', 'O', 'Q', 'R']) }, ...PAGING } },
  area: { operation: 'areaBasedList2', spec: { areaCode: { rule: oneOf(AREA_CODES), required: true }, contentTypeId, arrange: { rule: oneOf(['A', 'C', 'D', 'O', 'Q', 'R']) }, ...PAGING } },
  location: {
    operation: 'locationBasedList2',
    spec: {
      mapX: { rule: decimal(124, 132, 'a longitude'), required: true },
      mapY: { rule: decimal(33, 43, 'a latitude'), required: true },
      radius: { rule: integer(1, 20000) },
      contentTypeId,
      ...PAGING,
    },
  },
  detail: { operation: 'detailCommon2', spec: { contentId: { rule: pattern(/^\d{1,12}$/, 'a numeric content id'), required: true } } },
};

/** Each TourAPI operation's parameters: the proxy checks its calls' values by the same rules. */
export const TOUR_PARAMS: Readonly<Record<string, QuerySpec>> = Object.fromEntries(Object.values(ACTIONS).map((a) => [a.operation, a.spec]));

/**
 * The tourism route.
 *
 * @param ctx The router's shared state.
 */
export function tourRoute(ctx: PublicDataContext): SimpleAnswer {
  return async function tour(req) {
    const raw = req.query.action;
    if (raw === undefined) throw new AppError('validation', `query/action is required; one of ${Object.keys(ACTIONS).join(', ')}`, { field: 'action' });
    if (typeof raw !== 'string') throw new AppError('validation', 'query/action must be given once, as text', { field: 'action' });
    const action = own(ACTIONS, raw);
    if (!action) throw new AppError('validation', `query/action must be one of ${Object.keys(ACTIONS).join(', ')}`, { field: 'action' });
    const params = parseQuery(req.query, action.spec, ['action']);
    const call = own(tourOperations, action.operation);
    if (!call) throw new AppError('internal', `Cannot \`${action.operation}\` without a TourAPI client operation`);
    return simpleCall(ctx, 'tourism-content', action.operation, params, (upstream, p) => call(p, upstream));
  };
}
