/**
 * `GET /api/apt?kaptCode=A…&detail=0|1`: basic (getAphusBassInfoV5) or detail
 * (getAphusDtlInfoV5) information of an apartment complex. An unknown code answers
 * `data.found: false` ("no such complex").
 */
import type { SimpleAnswer } from './simple-call.ts';
import { fetchApt } from '../../upstream/kapt/index.ts';
import type { PublicDataContext } from '../context.ts';
import { parseQuery, type QuerySpec } from '../query/parse-query.ts';
import { oneOf, pattern } from '../query/rules.ts';
import { simpleCall } from './simple-call.ts';

const SPEC = {
  // Spec 4.3: "letter A plus digits" (K-apt's codes have 8); bounded, as every parameter is.
  kaptCode: { rule: pattern(/^A\d{1,12}$/, 'the letter A followed by 1 to 12 digits, e.g. A10027875'), required: true },
  detail: { rule: oneOf(['0', '1']) },
};

/** Each operation's parameters: the proxy checks its calls' values by the same rules. */
export const APT_PARAMS: Readonly<Record<string, QuerySpec>> = { getAphusBassInfoV5: SPEC, getAphusDtlInfoV5: SPEC };

/**
 * The apartment route.
 *
 * @param ctx The router's shared state.
 */
export function aptRoute(ctx: PublicDataContext): SimpleAnswer {
  return async function apt(req) {
    const query = parseQuery(req.query, SPEC);
    const operation = query.detail === '1' ? 'getAphusDtlInfoV5' : 'getAphusBassInfoV5';
    return simpleCall(ctx, 'apartment-complex', operation, { kaptCode: query.kaptCode }, (upstream, p) => fetchApt(upstream, operation, p.kaptCode ?? ''));
  };
}
