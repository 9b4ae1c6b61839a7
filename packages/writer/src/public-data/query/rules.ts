/**
 * Query-parameter rules, one factory per kind. A rule gets the raw text and either
 * returns the normalized value or throws a 400 naming the parameter and the rule:
 * `query/<name> <problem>`.
 */
import { AppError } from '../../errors.ts';

/** A rule: raw value and parameter name in, normalized value out. */
export type Rule = (value: string, name: string, part?: string) => string;

const fail = (name: string, problem: string, part = 'query'): never => {
  throw new AppError('validation', `${part}/${name} ${problem}`, { field: part === 'query' ? name : `${part}.${name}` });
};
const shown = (value: string) => JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);

/** Whether `YYYY`, `MM`, `DD` form a real date. */
function realDate(y: string, m: string, d: string): boolean {
  const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  return date.getUTCFullYear() === Number(y) && date.getUTCMonth() === Number(m) - 1 && date.getUTCDate() === Number(d);
}

/** Integer between `min` and `max`. */
export const integer = (min: number, max: number): Rule => (value, name, part) =>
  /^-?\d{1,9}$/.test(value) && Number(value) >= min && Number(value) <= max ? String(Number(value)) : fail(name, `must be an integer from ${min} to ${max}, got ${shown(value)}`, part);

/** Decimal number between `min` and `max`. */
export const decimal = (min: number, max: number, what = 'a number'): Rule => (value, name, part) =>
  /^-?\d{1,4}(\.\d{1,10})?$/.test(value) && Number(value) >= min && Number(value) <= max ? value : fail(name, `must be ${what} from ${min} to ${max}, got ${shown(value)}`, part);

/** Text of `min` to `max` characters, trimmed, without control characters. */
export const length = (min: number, max: number): Rule => (value, name, part) => {
  const trimmed = value.trim();
  const count = [...trimmed].length;
  if (/\p{Cc}/u.test(trimmed)) fail(name, 'must not contain control characters', part);
  if (count >= min && count <= max) return trimmed;
  // Spaces only: said as such, not as a count of 0 that the client did not send.
  const blank = count === 0 && value.length > 0 ? ' (only spaces: leading and trailing spaces are trimmed)' : '';
  return fail(name, `must be ${min} to ${max} characters, got ${count}${blank}`, part);
};

/** Matches a pattern described in words. */
export const pattern = (re: RegExp, description: string): Rule => (value, name, part) => (re.test(value) ? value : fail(name, `must be ${description}, got ${shown(value)}`, part));

/** One of a fixed list. */
export const oneOf = (values: readonly string[]): Rule => (value, name, part) =>
  values.includes(value) ? value : fail(name, `must be one of ${values.join(', ')}, got ${shown(value)}`, part);

/** A real date written YYYYMMDD. */
export const compactDate: Rule = (value, name, part) => {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(value);
  return m && realDate(m[1] as string, m[2] as string, m[3] as string) ? value : fail(name, `must be a real date written YYYYMMDD, got ${shown(value)}`, part);
};

/** A real month written YYYYMM. */
export const yearMonth: Rule = (value, name, part) => {
  const m = /^(\d{4})(\d{2})$/.exec(value);
  return m && realDate(m[1] as string, m[2] as string, '01') ? value : fail(name, `must be a real month written YYYYMM, got ${shown(value)}`, part);
};

/** A real date written YYYY-MM-DD. */
export const isoDate: Rule = (value, name, part) => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return m && realDate(m[1] as string, m[2] as string, m[3] as string) ? value : fail(name, `must be a real date written YYYY-MM-DD, got ${shown(value)}`, part);
};

/**
 * One business number: 10 digits (hyphens ignored). Its check digit is not judged here:
 * spec 7 asks that a number the tax office does not know comes back as an item saying
 * so, and a 400 for a wrong check digit refused nine in ten such numbers.
 */
export const businessNumber: Rule = (value, name, part) => {
  const digits = value.trim().replaceAll('-', '');
  if (!/^\d{10}$/.test(digits)) fail(name, `must be a 10-digit business number, got ${shown(value)}`, part);
  return digits;
};

/** Up to `max` business numbers separated by spaces or commas; returned comma-joined. */
export const businessNumbers = (max: number): Rule => (value, name, part) => {
  const parts = value.split(/[\s,]+/).filter(Boolean);
  if (parts.length === 0) fail(name, 'must hold at least one business number', part);
  if (parts.length > max) fail(name, `must hold at most ${max} business numbers per call, got ${parts.length}`, part);
  return [...new Set(parts.map((one) => businessNumber(one, name, part)))].join(',');
};
