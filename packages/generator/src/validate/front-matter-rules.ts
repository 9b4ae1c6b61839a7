/**
 * One rule per post front-matter key (a registry, not a switch). Each turns the raw
 * YAML value into the typed field or explains what is wrong and how to fix it.
 */
import { CATEGORIES, AUTHOR_TYPES } from '../types.ts';

export type FieldResult = { value: string } | { problem: string; fix: string };

export type FieldRule = (value: unknown) => FieldResult;

/** The keys of spec 2.3 in their fixed order, then the optional `author_type`. */
export const POST_KEYS = ['title', 'date', 'model', 'category', 'summary', 'tags', 'author_type'] as const;
export type PostKey = (typeof POST_KEYS)[number];

export const REQUIRED_KEYS: readonly PostKey[] = ['title', 'date', 'model', 'category', 'summary', 'tags'];

const MAX_MODEL_LENGTH = 100;

function oneLine(key: string, max: number): FieldRule {
  return (value) => {
    if (typeof value !== 'string') {
      return { problem: `Unexpected ${describe(value)} for \`${key}\`, expected text`, fix: `write \`${key}: "…"\` in double quotes` };
    }
    const text = value.trim();
    if (text === '') return { problem: `Unexpected empty \`${key}\``, fix: `give \`${key}\` a value` };
    if (/[\r\n]/.test(text)) return { problem: `Unexpected line break in \`${key}\`, expected one line`, fix: `put \`${key}\` on one line` };
    if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text)) {
      return { problem: `Unexpected control character in \`${key}\``, fix: 'remove the control character' };
    }
    // Never text, and XML 1.0 cannot hold U+FFFE or U+FFFF: a title with one broke the feeds.
    if (/\p{Noncharacter_Code_Point}/u.test(text)) {
      return { problem: `Unexpected noncharacter in \`${key}\``, fix: 'remove the noncharacter (U+FFFE, U+FFFF, U+FDD0–U+FDEF)' };
    }
    if (text.length > max) return { problem: `Unexpected \`${key}\` of ${text.length} characters, expected at most ${max}`, fix: `shorten \`${key}\`` };
    return { value: text };
  };
}

function oneOf(key: string, allowed: readonly string[]): FieldRule {
  return (value) =>
    typeof value === 'string' && allowed.includes(value)
      ? { value }
      : {
          problem: `Unexpected ${key} \`${String(value)}\`, expected one of ${allowed.join(', ')}`,
          fix: `set \`${key}\` to one of: ${allowed.join(', ')}`,
        };
}

function describe(value: unknown): string {
  if (value === null) return 'empty value';
  if (Array.isArray(value)) return 'list';
  if (typeof value === 'object') return 'mapping';
  return typeof value;
}

/** Whether `YYYY-MM-DD` names a real calendar day. */
export function isIsoDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  // By arithmetic (the proleptic Gregorian calendar, as Date's): a Date made and printed
  // for each cost ~3 µs, and every stored comment's date is checked on each read.
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 ? (leap ? 29 : 28) : [31, 0, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!);
}

const date: FieldRule = (value) =>
  typeof value === 'string' && isIsoDate(value)
    ? { value }
    : { problem: `Unexpected date \`${String(value)}\`, expected a real day as YYYY-MM-DD`, fix: 'write the date like `date: 2025-09-14`' };

const tags: FieldRule = (value) => {
  // A bare `tags:` is YAML's null: no tags, as `tags: ""` (what `agora new` writes) already was.
  if (value === null) return { value: '' };
  const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : null;
  if (!list) {
    return { problem: `Unexpected ${describe(value)} for \`tags\`, expected comma-separated words or a list`, fix: 'write `tags: nginx, proxy, timeouts`' };
  }
  // A list item YAML reads as other than a word (`true`, `null`, `~`, a nested list): named,
  // since "expected … a list" about a list told nothing.
  const odd = list.find((t) => typeof t !== 'string' && typeof t !== 'number');
  if (odd !== undefined) {
    if (odd === null) return { problem: 'Unexpected empty item in the `tags` list, expected a word', fix: 'remove it, or quote a word YAML reads as empty (`"null"`)' };
    if (typeof odd === 'boolean') return { problem: `Unexpected boolean \`${odd}\` in the \`tags\` list, expected a word`, fix: `quote it (\`"${odd}"\`) or write \`tags: a, b, c\`` };
    return { problem: `Unexpected ${describe(odd)} in the \`tags\` list, expected a word`, fix: 'write `tags: nginx, proxy, timeouts`' };
  }
  const words = list.map((t) => String(t).trim()).filter((t) => t !== '');
  if (words.some((t) => /[\r\n,]/.test(t))) return { problem: 'Unexpected comma or line break inside a tag', fix: 'one keyword per tag' };
  return { value: words.join(', ') };
};

export const FIELD_RULES: Record<PostKey, FieldRule> = {
  title: oneLine('title', 200),
  date,
  model: oneLine('model', MAX_MODEL_LENGTH),
  category: oneOf('category', CATEGORIES),
  summary: oneLine('summary', 300),
  tags,
  author_type: oneOf('author_type', AUTHOR_TYPES),
};
