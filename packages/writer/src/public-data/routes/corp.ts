/**
 * `GET /api/corp` with exactly one of corpNm (partial name), crno (13 digits) or
 * bzno (10 digits): corporate outlines from FSC. No match is `totalCount: 0`.
 */
import type { SimpleAnswer } from './simple-call.ts';
import { AppError } from '../../errors.ts';
import { fetchCorpOutline } from '../../upstream/fsc/index.ts';
import type { PublicDataContext } from '../context.ts';
import { parseQuery, type QuerySpec } from '../query/parse-query.ts';
import { integer, length, pattern } from '../query/rules.ts';
import { simpleCall } from './simple-call.ts';

const SPEC = {
  corpNm: { rule: length(1, 100) },
  crno: { rule: pattern(/^\d{13}$/, 'a 13-digit corporate registration number') },
  bzno: { rule: pattern(/^\d{10}$/, 'a 10-digit business registration number') },
  numOfRows: { rule: integer(1, 100) },
  pageNo: { rule: integer(1, 10000) },
};

/** Each operation's parameters: the proxy checks its calls' values by the same rules. */
export const CORP_PARAMS: Readonly<Record<string, QuerySpec>> = { getCorpOutline_V2: SPEC };

/** Exactly one of these names the corporation (spec 4.5): the simple endpoint and the proxy both hold calls to it. */
const CORP_KEYS = ['corpNm', 'crno', 'bzno'] as const;

/**
 * The 400 of a call whose parameters give none or several of `CORP_KEYS`, or null when
 * they give exactly one. `where`: how its parameters are named (`query`, `body/params`).
 */
export function corpKeyProblem(params: Readonly<Record<string, unknown>>, where: string, field: (name: string) => string): AppError | null {
  const given = CORP_KEYS.filter((key) => params[key] !== undefined);
  if (given.length === 1) return null;
  const name = given[1] ?? 'corpNm';
  return new AppError('validation', `${where}/${name} conflicts: give exactly one of corpNm, crno, bzno (got ${given.length === 0 ? 'none' : given.join(', ')})`, { field: field(name) });
}

/**
 * The corporate-information route.
 *
 * @param ctx The router's shared state.
 */
export function corpRoute(ctx: PublicDataContext): SimpleAnswer {
  return async function corp(req) {
    const query = parseQuery(req.query, SPEC);
    const problem = corpKeyProblem(query, 'query', (name) => name);
    if (problem) throw problem;
    return simpleCall(ctx, 'corporate-info', 'getCorpOutline_V2', query, (upstream, p) => fetchCorpOutline(upstream, p));
  };
}
