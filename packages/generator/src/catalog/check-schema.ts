/**
 * A small checker for the JSON Schema subset of `catalog-schema.ts`: type, const,
 * enum, required, properties, additionalProperties, items, minItems, pattern,
 * minLength, maxLength, minimum, maximum and `format: date` (a real calendar date).
 * One rule per keyword, in a registry; each problem names its path and the fix.
 */
import type { JsonSchema, JsonType } from './catalog-schema.ts';

/** Path of a value inside the document, e.g. `['services', 3, 'status']`. */
export type DocPath = (string | number)[];

/** One schema violation. */
export interface SchemaIssue {
  path: DocPath;
  /** `<path> <problem>`, e.g. "services[3].status must be active or pending_key". */
  message: string;
  fix: string;
  /** Whether the problem sits on a key name rather than a value (unknown field). */
  onKey?: boolean;
}

type Rule = (schema: JsonSchema, value: unknown, path: DocPath) => SchemaIssue[];

/** `services[3].status`; the root is `catalog`. */
export function formatPath(path: DocPath): string {
  let out = '';
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : out ? `.${part}` : part;
  return out || 'catalog';
}

/** Whether `value` is a real calendar date written YYYY-MM-DD. */
export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

function typeOf(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as JsonType;
}

const article = (type: JsonType): string =>
  ({ object: 'a mapping', array: 'a list', string: 'a string', integer: 'an integer', number: 'a number', boolean: 'true or false', null: 'null' })[type];

const show = (value: unknown): string => JSON.stringify(value) ?? String(value);
const issue = (path: DocPath, problem: string, fix: string, onKey = false): SchemaIssue => ({ path, message: `${formatPath(path)} ${problem}`, fix, ...(onKey ? { onKey } : {}) });
const isRecord = (value: unknown): value is Record<string, unknown> => typeOf(value) === 'object';
const oneOrMore = (values: readonly unknown[]): string =>
  values.length === 1 ? String(values[0]) : `${values.slice(0, -1).join(', ')} or ${String(values.at(-1))}`;

const rules: Record<string, Rule> = {
  const: (s, v, p) => (s.const === undefined || v === s.const ? [] : [issue(p, `must be ${show(s.const)}`, `write \`${String(s.const)}\``)]),
  enum: (s, v, p) =>
    !s.enum || s.enum.includes(v as string) ? [] : [issue(p, `must be ${oneOrMore(s.enum)}, got ${show(v)}`, `use one of: ${s.enum.join(', ')}`)],
  pattern: (s, v, p) =>
    s.pattern === undefined || typeof v !== 'string' || new RegExp(s.pattern, 'u').test(v)
      ? []
      : [issue(p, `must be ${s.description ?? `a string matching ${s.pattern}`}, got ${show(v)}`, `write ${s.description ?? `a value matching /${s.pattern}/`}`)],
  format: (s, v, p) =>
    s.format !== 'date' || typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(v) || isCalendarDate(v)
      ? []
      : [issue(p, `must be a real calendar date, got ${show(v)}`, 'write a date that exists, YYYY-MM-DD')],
  minLength: (s, v, p) =>
    s.minLength === undefined || typeof v !== 'string' || [...v].length >= s.minLength
      ? []
      : [issue(p, s.minLength === 1 ? 'must not be empty' : `must be at least ${s.minLength} characters`, `write ${s.description ?? 'a value'}`)],
  maxLength: (s, v, p) =>
    s.maxLength === undefined || typeof v !== 'string' || [...v].length <= s.maxLength
      ? []
      : [issue(p, `must be at most ${s.maxLength} characters`, 'shorten it')],
  minimum: (s, v, p) =>
    s.minimum === undefined || typeof v !== 'number' || v >= s.minimum ? [] : [issue(p, `must be at least ${s.minimum}, got ${v}`, `write a number ≥ ${s.minimum}`)],
  maximum: (s, v, p) =>
    s.maximum === undefined || typeof v !== 'number' || v <= s.maximum ? [] : [issue(p, `must be at most ${s.maximum}, got ${v}`, `write a number ≤ ${s.maximum}`)],
  minItems: (s, v, p) =>
    s.minItems === undefined || !Array.isArray(v) || v.length >= s.minItems
      ? []
      : [issue(p, `must have at least ${s.minItems} item${s.minItems === 1 ? '' : 's'}`, `add ${s.description ?? 'items'}`)],
  required: (s, v, p) =>
    !s.required || !isRecord(v)
      ? []
      : s.required
          .filter((key) => !(key in v))
          .map((key) => issue(p, `is missing \`${key}\``, `add \`${key}:\` (${s.properties?.[key]?.description ?? 'required'})`)),
  additionalProperties: (s, v, p) =>
    s.additionalProperties !== false || !isRecord(v)
      ? []
      : Object.keys(v)
          .filter((key) => !s.properties || !(key in s.properties))
          .map((key) =>
            issue([...p, key], 'is not a known field', `remove it or fix its spelling; allowed: ${Object.keys(s.properties ?? {}).join(', ')}`, true),
          ),
  properties: (s, v, p) =>
    !s.properties || !isRecord(v)
      ? []
      : Object.entries(s.properties).flatMap(([key, sub]) => (key in v ? checkSchema(sub, v[key], [...p, key]) : [])),
  items: (s, v, p) => (!s.items || !Array.isArray(v) ? [] : v.flatMap((item, index) => checkSchema(s.items as JsonSchema, item, [...p, index]))),
};

/**
 * Check `value` against `schema`.
 *
 * @param schema The schema (subset described above).
 * @param value The parsed document or part of it.
 * @param path Path of `value` inside the document (optional).
 * @returns Every problem found; empty when the value conforms.
 */
export function checkSchema(schema: JsonSchema, value: unknown, path: DocPath = []): SchemaIssue[] {
  if (schema.type !== undefined) {
    const allowed = Array.isArray(schema.type) ? schema.type : [schema.type];
    const actual = typeOf(value);
    const fits = allowed.includes(actual) || (actual === 'integer' && allowed.includes('number'));
    if (!fits) {
      const expected = allowed.map(article).join(' or ');
      return [issue(path, `must be ${expected}, got ${value === undefined ? 'nothing' : show(value)}`, `write ${expected}${schema.description ? ` (${schema.description})` : ''}`)];
    }
  }
  return Object.values(rules).flatMap((rule) => rule(schema, value, path));
}
