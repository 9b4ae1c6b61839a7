/**
 * The comment-document rules as data: limits, allowed keys and values, and the error
 * catalog. The writer's validator, the OpenAPI document, llms.txt and the agent
 * instructions on every post page are all generated from this module, so they
 * cannot disagree (issue 9, item 6).
 */
import { COMMENT_TYPES, POSITIONS } from '../types.ts';
import type { BodyShape } from './body-shape.ts';

export { COMMENT_TYPES, POSITIONS };

export const COMMENT_RULES = {
  /** Whole document in bytes; larger answers 413. */
  maxBytes: 16 * 1024,
  /** Body characters (code points) after trimming. */
  minBodyChars: 10,
  /** `author` and `model`, characters after trimming. */
  minNameChars: 1,
  maxNameChars: 100,
  /**
   * Nesting of block quotes and lists in the body. Real comments use two or three;
   * the parser recurses per level, and thousands overflow the stack.
   */
  maxDepth: 16,
  /**
   * Runs of `*`/`_` that may delimit emphasis and of `~~` that may delimit
   * strikethrough (outside fenced code, snake_case not counted). Matching either is
   * quadratic.
   */
  maxDelimiterRuns: 1000,
  /**
   * Characters in the longest of those runs of `*` or `_`: each pair of them may nest
   * emphasis one level deeper, and the renderer recurses once per level (`*` 7,000 times,
   * a letter, `*` 7,000 times: 6.7 s, then out of stack). Twice `maxDepth`.
   */
  maxRunLength: 32,
  /** Earliest `date`; the latest is today + `maxDaysAhead` (UTC), for clock skew between time zones. */
  minDate: '2000-01-01',
  maxDaysAhead: 1,
} as const;

/**
 * The rendering-work limits of a body (issue 19): deterministic counts taken by
 * `measureBody` before a comment is stored, so a body is judged once, by its text,
 * the same on an idle or a loaded machine. Over a limit answers 400 (the spec's status for a failed validation)
 * `comment_too_complex` naming the limit, the value and the maximum; nothing is stored.
 * They are set so that every body within all of them renders in well under a second
 * on a 2-core machine (`npm run bench:comment-limits` renders the worst cases; the figures
 * are in docs/performance.md). Real comments stay far below them.
 */
export const COMMENT_WORK_LIMITS = [
  // The most specific first: a body over several limits is told about the one that names its construct.
  { limit: 'maxListItems', measure: 'listItems', max: 200, what: 'list items', fix: 'shorten the lists' },
  { limit: 'maxTableCells', measure: 'tableCells', max: 2000, what: '`|` characters outside fenced code (table cells; a row under a table\'s delimiter row counts at least its columns)', fix: 'shorten the table, or put it in a fenced code block' },
  { limit: 'maxHeadings', measure: 'headings', max: 100, what: 'headings (`#` lines and `===`/`---` underlines)', fix: 'use fewer headings' },
  { limit: 'maxMarkupOpeners', measure: 'markupOpeners', max: 100, what: '`<?` and `<!` outside fenced code (raw HTML comments, declarations, CDATA)', fix: 'raw HTML is not shown anyway: remove them, or put them in a fenced code block' },
  { limit: 'maxBrackets', measure: 'brackets', max: 500, what: '`[` characters outside fenced code (links)', fix: 'use fewer links, or put the text in a fenced code block' },
  { limit: 'maxLabelChars', measure: 'labelChars', max: 1_000_000, what: 'characters between `[` and the `]` closing it, summed over every pair outside fenced code (a tab counts 4)', fix: 'close each `[` near where it opens, or put the text in a fenced code block' },
  { limit: 'maxReferenceChars', measure: 'referenceChars', max: 250_000, what: 'characters references may repeat (`[` characters times the longest link reference definition `[a]: url "title"`, with the lines after it up to a blank line)', fix: 'shorten the reference definitions, or write the links inline' },
  { limit: 'maxCodeSpans', measure: 'codeSpans', max: 1000, what: 'runs of backticks outside fenced code', fix: 'put code in a fenced block' },
  { limit: 'maxBlockLines', measure: 'blockLines', max: 400, what: 'non-blank lines outside fenced code', fix: 'shorten the comment or put long output in a fenced code block' },
  { limit: 'maxLines', measure: 'lines', max: 1000, what: 'lines', fix: 'shorten the comment' },
] as const satisfies readonly { limit: string; measure: string; max: number; what: string; fix: string }[];

/**
 * The limits together: a body near several of them at once (100 headings, 190 list
 * items, 490 links, 900 emphasis runs, 800 code spans: every one within its own limit)
 * took 330 ms to render where each alone takes under 100 ms. So each counted
 * construct's share of its own limit (`maxDelimiterRuns` included; blank lines, which
 * cost next to nothing, not) is summed, in percent, and the sum may not pass
 * `maxWork`: one construct at its limit and others at half theirs still fit.
 */
export const COMMENT_WORK_BUDGET = { limit: 'maxWork', max: 200 } as const;

/** A body's use of the work limits together: the sum of its shares and each share, in whole percent. */
export function workUsed(shape: Readonly<BodyShape>): { total: number; shares: { what: string; percent: number }[] } {
  const parts = [
    ...COMMENT_WORK_LIMITS.filter((l) => l.measure !== 'lines').map((l) => ({ what: l.what.replace(/ \(.*\)$/, ''), used: shape[l.measure] / l.max })),
    { what: 'runs of `*`/`_`/`~~`', used: shape.delimiterRuns / COMMENT_RULES.maxDelimiterRuns },
  ];
  const shares = parts.map((p) => ({ what: p.what, percent: Math.round(p.used * 100) })).filter((p) => p.percent > 0).sort((a, b) => b.percent - a.percent);
  return { total: Math.round(parts.reduce((sum, p) => sum + p.used, 0) * 100), shares };
}

export type CommentWorkLimit = (typeof COMMENT_WORK_LIMITS)[number]['limit'] | 'maxDepth' | 'maxDelimiterRuns' | 'maxRunLength' | typeof COMMENT_WORK_BUDGET.limit;

/** Front-matter keys a comment may have, in the documented order. */
export const COMMENT_KEYS = ['author', 'model', 'date', 'type', 'position'] as const;

export type CommentField = (typeof COMMENT_KEYS)[number] | 'body' | 'front_matter';

const list = (values: readonly string[]) => values.join(', ');

/** One entry of the error catalog: the field at fault, a stable rule id, and the message with its fix. */
export interface CommentErrorSpec<P extends unknown[] = []> {
  field: CommentField | ((...params: P) => string);
  message: (...params: P) => string;
}

const spec = <P extends unknown[]>(s: CommentErrorSpec<P>) => s;

/**
 * Every way a comment document can be refused. Messages read `<part>/<path> <problem>`
 * and say how to fix it; `field` is what the 400 names.
 */
export const COMMENT_ERRORS = {
  'not-utf8': spec({
    field: (part: string, _line: number, _byte: string) => part,
    message: (part: string, line: number, byte: string) => `${part === 'body' || part === 'front_matter' ? part : `front_matter/${part}`} must be valid UTF-8 text: byte ${byte} on line ${line} is not; send the document encoded as UTF-8`,
  }),
  'not-unicode': spec({
    field: (part: string, _line: number, _codePoint: string) => part,
    message: (part: string, line: number, codePoint: string) => `${part === 'body' || part === 'front_matter' ? part : `front_matter/${part}`} must be Unicode text: ${codePoint} on line ${line} is half of a surrogate pair, not a character (in a JSON string, write a character beyond U+FFFF as both halves or as itself); nothing was stored`,
  }),
  'front-matter-missing': spec({ field: 'front_matter', message: () => 'front_matter is required: start the document with a `---` line, then `type: …`, then `---`' }),
  'front-matter-syntax': spec({ field: 'front_matter', message: (line: number, problem: string) => `front_matter line ${line}: ${problem}` }),
  'key-unknown': spec({ field: (key: string) => key, message: (key: string) => `front_matter/${key} is not allowed; allowed keys: ${list(COMMENT_KEYS)}` }),
  'text-unsafe': spec({
    field: (key: string, _kind: string, _codePoint: string) => key,
    message: (key: string, kind: string, codePoint: string) => `front_matter/${key} must not contain ${kind} ${codePoint}; remove it`,
  }),
  'type-required': spec({ field: 'type', message: () => `front_matter/type is required: one of ${list(COMMENT_TYPES)}` }),
  'type-invalid': spec({ field: 'type', message: () => `front_matter/type must be one of ${list(COMMENT_TYPES)}` }),
  'position-required': spec({ field: 'position', message: () => `front_matter/position is required with type debate: one of ${list(POSITIONS)}` }),
  'position-invalid': spec({ field: 'position', message: () => `front_matter/position must be one of ${list(POSITIONS)}` }),
  'position-forbidden': spec({ field: 'position', message: (type: string) => `front_matter/position is only allowed with type debate (type is ${type}); remove it` }),
  'name-required': spec({ field: (key: 'author' | 'model') => key, message: (key: 'author' | 'model') => `front_matter/${key} is required` }),
  'name-not-text': spec({ field: (key: 'author' | 'model') => key, message: (key: 'author' | 'model') => `front_matter/${key} must be text (quote it)` }),
  'name-empty': spec({ field: (key: 'author' | 'model') => key, message: (key: 'author' | 'model') => `front_matter/${key} must not be empty` }),
  'name-too-long': spec({ field: (key: 'author' | 'model') => key, message: (key: 'author' | 'model') => `front_matter/${key} must be at most ${COMMENT_RULES.maxNameChars} characters` }),
  'name-multiline': spec({ field: (key: 'author' | 'model') => key, message: (key: 'author' | 'model') => `front_matter/${key} must be one line` }),
  'name-invisible': spec({
    field: (key: 'author' | 'model', _kind: string, _codePoint: string) => key,
    message: (key: 'author' | 'model', kind: string, codePoint: string) => `front_matter/${key} must show a visible character, not only ${kind} ${codePoint} and other blank or invisible characters; write a name`,
  }),
  'date-invalid': spec({ field: 'date', message: () => 'front_matter/date must be a real day as YYYY-MM-DD' }),
  'date-range': spec({ field: 'date', message: (latest: string) => `front_matter/date must be between ${COMMENT_RULES.minDate} and ${latest} (today + ${COMMENT_RULES.maxDaysAhead} day, UTC); leave it out for today` }),
  'body-unsafe': spec({ field: 'body', message: (kind: string, codePoint: string, line: number) => `body must not contain ${kind} ${codePoint} (line ${line}); remove it` }),
  'body-unsafe-reference': spec({
    field: 'body',
    message: (kind: string, codePoint: string) => `body must not contain ${kind} ${codePoint}, also not written as a character reference (\`&#x${codePoint.slice(2)};\` and the like: markdown turns it into the character); remove it`,
  }),
  'body-too-short': spec({ field: 'body', message: (chars: number) => `body must be at least ${COMMENT_RULES.minBodyChars} characters after trimming (got ${chars})` }),
  'body-invisible': spec({
    field: 'body',
    message: (kind: string, codePoint: string) => `body must show a visible character, not only ${kind} ${codePoint} and other blank or invisible characters; write some text`,
  }),
  'body-shows-nothing': spec({
    field: 'body',
    message: () => 'body shows nothing once rendered (raw HTML, HTML comments and images are dropped, only a rule is left, or nothing); write some text',
  }),
  'body-too-deep': spec({
    field: 'body',
    message: (depth: number, line: number) => `body nests block quotes/lists ${depth} deep (line ${line}); at most ${COMMENT_RULES.maxDepth} levels: flatten the quoting or the list`,
  }),
  'body-too-much-emphasis': spec({
    field: 'body',
    message: (runs: number) => `body has ${runs} runs of \`*\`/\`_\`/\`~~\` that may mark emphasis or strikethrough; at most ${COMMENT_RULES.maxDelimiterRuns}: put code in backticks or a fenced block`,
  }),
  'body-run-too-long': spec({
    field: 'body',
    message: (length: number, line: number) => `body has a run of ${length} \`*\` or \`_\` (line ${line}), which may nest emphasis ${Math.ceil(length / 2)} levels deep; at most ${COMMENT_RULES.maxRunLength} in a run: shorten the run, or put it in backticks or a fenced code block`,
  }),
  'body-too-much-work': spec({
    field: 'body',
    message: (total: number, shares: string) => `body uses ${total} % of the rendering-work limits together (${shares}); at most ${COMMENT_WORK_BUDGET.max} %: shorten the comment, or put code and output in fenced code blocks`,
  }),
  'body-too-complex': spec({
    field: 'body',
    message: (what: string, value: number, max: number, fix: string) => `body has ${value} ${what}; at most ${max}: ${fix}`,
  }),
} as const;

export type CommentRuleId = keyof typeof COMMENT_ERRORS;

type Params<R extends CommentRuleId> = Parameters<(typeof COMMENT_ERRORS)[R]['message']>;

/** Which rendering-work limit a body is over, by how much (`body-too-deep`, `-much-emphasis`, `-run-too-long`, `-complex`). */
export interface CommentWorkExcess {
  limit: CommentWorkLimit;
  value: number;
  max: number;
}

/** A comment document or record broke a rule: `field` is the field at fault, `message` says how to fix it. */
export class CommentRuleError extends Error {
  constructor(
    readonly rule: CommentRuleId,
    readonly field: string,
    message: string,
    /** Set when the body is over a rendering-work limit (the writer answers 400 `comment_too_complex`). */
    readonly work?: CommentWorkExcess,
  ) {
    super(message);
    this.name = 'CommentRuleError';
  }
}

/** The message a rule gives for these parameters (what the writer's 400 says). */
export function commentErrorMessage<R extends CommentRuleId>(rule: R, ...params: Params<R>): string {
  return (COMMENT_ERRORS[rule].message as (...p: Params<R>) => string)(...params);
}

/** The error a rule throws for these parameters. */
export function commentError<R extends CommentRuleId>(rule: R, ...params: Params<R>): CommentRuleError {
  const { field } = COMMENT_ERRORS[rule];
  const name = typeof field === 'function' ? (field as (...p: Params<R>) => string)(...params) : field;
  return new CommentRuleError(rule, name, commentErrorMessage(rule, ...params));
}

/** Add days to a `YYYY-MM-DD` day (UTC). */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}
