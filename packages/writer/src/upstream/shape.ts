/**
 * Guards for reading parsed provider bodies without trusting them: records, lists
 * that may arrive as a single object or an empty string, and scalar text.
 */

/** A parsed JSON/XML object. */
export type Json = Record<string, unknown>;

/** Whether a value is a plain object. */
export function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value as an object, or an empty one. */
export function record(value: unknown): Json {
  return isRecord(value) ? value : {};
}

/** Follow a path of keys; `undefined` when any step is missing. */
export function at(value: unknown, ...path: string[]): unknown {
  let node = value;
  for (const key of path) {
    if (!isRecord(node)) return undefined;
    node = node[key];
  }
  return node;
}

/** A list from a provider value: arrays stay, one object becomes `[object]`, blanks (`""`, null) become `[]`. */
export function list(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (value === undefined || value === null || value === '') return [];
  return [value];
}

/** Scalar text, trimmed; a single space or nothing becomes `null`. */
export function text(value: unknown): string | null {
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

/** A number from `12`, `"12.0"`, `" 164,000"` or `2462.0`; `null` when there is none. */
export function num(value: unknown): number | null {
  const raw = text(value);
  if (raw === null) return null;
  const parsed = Number(raw.replaceAll(',', ''));
  return Number.isFinite(parsed) ? parsed : null;
}

/** Every scalar field of an object as trimmed text or null; nested values are dropped. */
export function flatText(value: unknown): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const [key, field] of Object.entries(record(value))) {
    if (field === null || ['string', 'number', 'boolean'].includes(typeof field)) out[key] = text(field);
  }
  return out;
}

/** Scalar value of a normalized item: trimmed text, number, boolean or null. */
export type Scalar = string | number | boolean | null;

/** Every scalar field of an object, strings trimmed (blank → null), numbers kept; nested values dropped. */
export function scalars(value: unknown): Record<string, Scalar> {
  const out: Record<string, Scalar> = {};
  for (const [key, field] of Object.entries(record(value))) {
    if (typeof field === 'string') out[key] = text(field);
    else if (typeof field === 'number' || typeof field === 'boolean' || field === null) out[key] = field;
  }
  return out;
}

/** `table[key]` for the table's own keys only (so `"constructor"` finds nothing). */
export function own<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/** A page of items in the data.go.kr `body` shape: `items.item`, `totalCount`, `pageNo`, `numOfRows`. */
export interface Page<T> {
  totalCount: number;
  pageNo: number;
  numOfRows: number;
  items: T[];
}

/**
 * Read one data.go.kr page; a missing `body` (NO_DATA) gives an empty page.
 *
 * @param body `response.body` of the answer.
 * @param readItem Turns one raw item into the answer's item.
 */
export function readPage<T>(body: unknown, readItem: (raw: unknown) => T): Page<T> {
  const items = list(at(body, 'items', 'item')).map((raw) => readItem(raw));
  return {
    totalCount: num(at(body, 'totalCount')) ?? items.length,
    pageNo: num(at(body, 'pageNo')) ?? 1,
    numOfRows: num(at(body, 'numOfRows')) ?? items.length,
    items,
  };
}
