/**
 * Value rules of proxy parameters the catalog describes only in words, checked before
 * the provider is called, so a value the provider would refuse, or the specification's
 * limits forbid (spec 8), costs no call of the day's quota: the KMA forecast operations'
 * base date, base time and grid (spec 4.4), and every operation a simple endpoint also
 * serves, by that endpoint's own rules (tourism keyword 1–50 characters, radius and
 * map bounds, at most 10 business numbers, one record to validate, `p_nm` and `q` 1–30
 * characters …), and the formats the catalog states for the proxy-only entries (RTMS
 * district and month, DART dates, company codes, report codes, law serial numbers).
 * Keyed by catalog entry and operation id; a parameter without a rule passes as given.
 */
import { AppError } from '../../errors.ts';
import { compactDate, integer, oneOf, pattern, yearMonth, type Rule } from '../query/rules.ts';
import type { QuerySpec } from '../query/parse-query.ts';
import { APT_PARAMS } from './apt.ts';
import { BIZINFO_PARAMS } from './bizinfo.ts';
import { BIZNOTICE_PARAMS, dateOrderProblem } from './biznotice.ts';
import { CORP_PARAMS, corpKeyProblem } from './corp.ts';
import { TOUR_PARAMS } from './tour.ts';

const GRID = { nx: integer(1, 149), ny: integer(1, 253) };
const DART_CORP_CODE = pattern(/^\d{8}$/, 'an 8-digit company code, e.g. 00126380');
const HOURS = Array.from({ length: 24 }, (_, h) => String(h).padStart(2, '0'));

/** `{ "<service>/<operation>": { <param>: rule } }` from a simple endpoint's parameters by operation. */
const rulesOf = (service: string, byOperation: Readonly<Record<string, QuerySpec>>) =>
  Object.fromEntries(Object.entries(byOperation).map(([operation, spec]) => [`${service}/${operation}`, Object.fromEntries(Object.entries(spec).map(([name, p]) => [name, p.rule]))]));

const PROXY_RULES: Readonly<Record<string, Readonly<Record<string, Rule>>>> = {
  ...rulesOf('tourism-content', TOUR_PARAMS),
  ...rulesOf('business-registration', BIZINFO_PARAMS),
  ...rulesOf('apartment-complex', APT_PARAMS),
  ...rulesOf('corporate-info', CORP_PARAMS),
  ...rulesOf('support-notices', BIZNOTICE_PARAMS),
  'weather-forecast/getUltraSrtNcst': { base_date: compactDate, base_time: oneOf(HOURS.map((h) => `${h}00`)), ...GRID },
  'weather-forecast/getUltraFcst': { base_date: compactDate, base_time: oneOf(HOURS.map((h) => `${h}30`)), ...GRID },
  'weather-forecast/getVilageFcst': { base_date: compactDate, base_time: oneOf(['0200', '0500', '0800', '1100', '1400', '1700', '2000', '2300']), ...GRID },
  // The proxy-only entries, by the formats their catalog operations state (spec 4.5): a
  // value outside them went upstream and came back as "no data" or the provider's refusal,
  // a call of the day's quota spent either way.
  'real-estate-trades/getRTMSDataSvcAptTrade': { LAWD_CD: pattern(/^\d{5}$/, 'the first 5 digits of a legal-district code, e.g. 11110'), DEAL_YMD: yearMonth },
  'corporate-disclosures/list.json': { pblntf_de: compactDate, bgn_de: compactDate, end_de: compactDate, page_count: integer(1, 100) },
  'corporate-disclosures/corpCode.json': { corp_code: DART_CORP_CODE },
  'corporate-disclosures/fnlttSinglAcntAll.json': {
    corp_code: DART_CORP_CODE,
    bsns_year: pattern(/^\d{4}$/, 'a business year written YYYY'),
    reprt_code: oneOf(['11011', '11012', '11013', '11014']),
    fs_div: oneOf(['OFS', 'CFS']),
  },
  'statutes-case-law/lawSearch.do': { display: integer(1, 100) },
  // "rows per page, at most 1000": the client had turned "abc" or 0 into 100 rows, 5000 into 1000.
  ...Object.fromEntries(['StatisticSearch', 'StatisticTableList', 'KeyStatisticList'].map((op) => [`economic-statistics/${op}`, { numOfRows: integer(1, 1000), pageNo: integer(1, 10000) }])),
  'statutes-case-law/lawService.do': { MST: pattern(/^\d{1,12}$/, 'a numeric law serial number from lawSearch.do'), efYd: compactDate },
};

/** Rules across the parameters of one operation, as its simple endpoint holds them: the 400, or null. */
const PROXY_CROSS_RULES: Readonly<Record<string, (params: Record<string, string>) => AppError | null>> = {
  'corporate-info/getCorpOutline_V2': (params) => corpKeyProblem(params, 'body/params', (name) => `params.${name}`),
  'support-notices/getbizList_v2': (params) => dateOrderProblem(params, 'body/params', (name) => `params.${name}`),
};

/** Whether `name` of `service`/`operation` has a value rule (an empty value is then checked by it, not dropped). */
export function hasProxyRule(service: string, operation: string, name: string): boolean {
  return PROXY_RULES[`${service}/${operation}`]?.[name] !== undefined;
}

/** Check the `params` of a proxy call to `service`/`operation` (400 naming `params.<name>`); returns them normalized. */
export function checkProxyParams(service: string, operation: string, params: Record<string, string>): Record<string, string> {
  const rules = PROXY_RULES[`${service}/${operation}`];
  if (!rules) return params;
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(params)) {
    try {
      out[name] = rules[name] ? rules[name](value, name, 'params') : value;
    } catch (error) {
      // Worded as the proxy's other parameter errors: `body/params/<name> …`.
      if (error instanceof AppError) throw new AppError('validation', `body/${error.message}`, { field: `params.${name}` });
      throw error;
    }
  }
  const problem = PROXY_CROSS_RULES[`${service}/${operation}`]?.(out);
  if (problem) throw problem;
  return out;
}
