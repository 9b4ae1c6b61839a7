/**
 * How long answers stay fresh, by the nature of the source: lists change within
 * minutes, details and registries within hours. Weather computes its own expiry
 * (the next forecast run).
 */

import { own } from '../upstream/shape.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Freshness of a list (search results, notices, filings). */
export const LIST_TTL_MS = 10 * MINUTE;

/** Freshness of a detail record (a complex, a place, a company). */
export const DETAIL_TTL_MS = 6 * HOUR;

const OPERATION_TTL_MS: Readonly<Record<string, number>> = {
  getUltraSrtNcst: 10 * MINUTE,
  getUltraFcst: 10 * MINUTE,
  getVilageFcst: 30 * MINUTE,
  getVersion: 5 * MINUTE,
  'lawService.do': DETAIL_TTL_MS,
  'corpCode.json': DETAIL_TTL_MS,
  'fnlttSinglAcntAll.json': DETAIL_TTL_MS,
  StatisticSearch: HOUR,
  StatisticTableList: DETAIL_TTL_MS,
  KeyStatisticList: HOUR,
  getRTMSDataSvcAptTrade: HOUR,
  getAphusBassInfoV5: DETAIL_TTL_MS,
  getAphusDtlInfoV5: DETAIL_TTL_MS,
  detailCommon2: DETAIL_TTL_MS,
  status: HOUR,
  validate: HOUR,
  getCorpOutline_V2: DETAIL_TTL_MS,
};

/**
 * Freshness of an operation's answer.
 *
 * @param operation Public operation id.
 * @returns Milliseconds; lists get `LIST_TTL_MS`.
 */
export function ttlFor(operation: string): number {
  return own(OPERATION_TTL_MS, operation) ?? LIST_TTL_MS;
}
