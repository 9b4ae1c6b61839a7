/**
 * Reads TourAPI 4.0 (KorService2) answers: `response.body.items.item[]`, `"items":""`
 * when nothing matched, a single object for details; coordinates and distance as numbers.
 */
import { at, list, num, scalars, text, type Scalar, readPage } from '../shape.ts';

/** A page of places. */
export interface TourList {
  totalCount: number;
  pageNo: number;
  numOfRows: number;
  items: Record<string, Scalar>[];
}

const NUMERIC = ['mapx', 'mapy', 'dist', 'mlevel'] as const;

/** One place with numeric coordinates (and distance). */
export function readPlace(raw: unknown): Record<string, Scalar> {
  const item = scalars(raw);
  for (const field of NUMERIC) if (field in item) item[field] = num(item[field]);
  return item;
}

/** A list answer (`body` undefined for NO_DATA). */
export function readTourList(body: unknown): TourList {
  return readPage(body, readPlace);
}

/** A detail answer: the place, or `found: false`. */
export function readTourDetail(body: unknown, contentId: string): { found: true; item: Record<string, Scalar> } | { found: false; contentId: string; message: string } {
  const first = list(at(body, 'items', 'item'))[0];
  const item = first === undefined ? undefined : readPlace(first);
  return item && text(item.contentid) ? { found: true, item } : { found: false, contentId, message: 'no such content' };
}
