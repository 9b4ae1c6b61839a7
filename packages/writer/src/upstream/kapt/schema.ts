/**
 * Reads K-apt complex answers: `response.body.item` is one object; numbers may be
 * floats (`2462.0`) or strings. An unknown code answers result 00 with every field
 * null: a null kaptCode means "no such complex", a result rather than an error.
 */
import { at, scalars, text, type Scalar } from '../shape.ts';

/** A complex, or the fact that there is none: then, as the provider and spec 7 say it, a null `kaptCode` (and `requested`, the code asked for). */
export type AptResult = { found: true; kaptCode: string; item: Record<string, Scalar> } | { found: false; kaptCode: null; requested: string; message: string };

/**
 * The complex in a parsed body.
 *
 * @param body `response.body` of the answer (undefined for NO_DATA).
 * @param kaptCode The code asked for.
 */
export function readApt(body: unknown, kaptCode: string): AptResult {
  const raw = at(body, 'item') ?? at(body, 'items', 'item');
  const item = scalars(Array.isArray(raw) ? raw[0] : raw);
  if (!text(item.kaptCode)) return { found: false, kaptCode: null, requested: kaptCode, message: 'no such complex' };
  return { found: true, kaptCode: String(item.kaptCode), item };
}
