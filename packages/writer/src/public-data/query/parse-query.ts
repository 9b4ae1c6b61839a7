/**
 * Checks a request's query string against a spec before any upstream call: unknown
 * parameters, repeated parameters, missing required ones and every value's rule.
 */
import { AppError } from '../../errors.ts';
import type { Rule } from './rules.ts';

/** How one parameter is checked. */
export interface ParamSpec {
  rule: Rule;
  required?: boolean;
}

/** Parameters of one endpoint (or one action of it). */
export type QuerySpec = Readonly<Record<string, ParamSpec>>;

/** Validated values of a spec's parameters. */
export type QueryValues<S extends QuerySpec> = { [K in keyof S]?: string };

/**
 * Validate `query` against `spec`.
 *
 * @param query `req.query` (values are strings or arrays of strings).
 * @param spec The allowed parameters.
 * @param ignore Names checked elsewhere (e.g. `action`), allowed but not validated here (optional).
 * @returns The normalized values of the parameters present.
 */
export function parseQuery<S extends QuerySpec>(query: unknown, spec: S, ignore: readonly string[] = []): QueryValues<S> {
  const input = (typeof query === 'object' && query !== null ? query : {}) as Record<string, unknown>;
  const allowed = [...Object.keys(spec), ...ignore];
  for (const name of Object.keys(input)) {
    if (!allowed.includes(name)) throw new AppError('validation', `query/${name} is not a known parameter; allowed: ${allowed.join(', ') || 'none'}`, { field: name });
    if (typeof input[name] !== 'string') throw new AppError('validation', `query/${name} must be given once, as text`, { field: name });
  }
  const out: Record<string, string> = {};
  for (const [name, param] of Object.entries(spec)) {
    const raw = input[name] as string | undefined;
    if (raw === undefined || (param.required && raw.trim() === '')) {
      if (param.required) throw new AppError('validation', `query/${name} is required`, { field: name });
      continue;
    }
    out[name] = param.rule(raw, name);
  }
  return out as QueryValues<S>;
}
