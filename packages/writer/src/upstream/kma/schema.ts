/**
 * Reads KMA VilageFcstInfoService bodies: `response.body.items.item[]` with numeric
 * nx, ny, pageNo, numOfRows, totalCount and string values.
 */
import { scalars, type Scalar, readPage } from '../shape.ts';

/** One page of KMA items. */
export interface KmaPage {
  totalCount: number;
  pageNo: number;
  numOfRows: number;
  items: Record<string, Scalar>[];
}

/**
 * One page from a parsed body (`undefined` body = NO_DATA gives an empty page).
 *
 * @param body `response.body` of the answer.
 */
export function readKmaPage(body: unknown): KmaPage {
  return readPage(body, scalars);
}
