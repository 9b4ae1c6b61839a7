/**
 * Reads MOLIT apartment-trade XML: `<response><header><resultCode>000</resultCode>…`
 * with `<items>` (`<items/>` when empty). Prices are 10,000-won units written like
 * `" 164,000"`; blank fields are a single space; cdealType `O` marks a cancelled deal.
 */
import { num, scalars, text, type Scalar, readPage } from '../shape.ts';

const NUMERIC = ['dealAmount', 'excluUseAr', 'floor', 'buildYear', 'dealYear', 'dealMonth', 'dealDay'] as const;

/** A page of trades. */
export interface TradeList {
  totalCount: number;
  pageNo: number;
  numOfRows: number;
  items: Record<string, Scalar>[];
}

/** One trade with numeric price, area, floor and dates, and a `cancelled` flag. */
export function readTrade(raw: unknown): Record<string, Scalar> {
  const item = scalars(raw);
  for (const field of NUMERIC) if (field in item) item[field] = num(item[field]);
  item.cancelled = text(item.cdealType) === 'O';
  return item;
}

/** A list answer (`body` undefined for NO_DATA). */
export function readTradeList(body: unknown): TradeList {
  return readPage(body, readTrade);
}
