/**
 * A cheap, linear, non-recursive look at the shape of a markdown body, run before a
 * comment is stored. The markdown parser recurses once per nested container (4,000
 * `>` overflow the stack) and matches emphasis delimiters in quadratic time (`*_` ×
 * 8,000 takes seconds), so the writer refuses such bodies with a 400 up front; the
 * renderer's time budget (render/comment-pool.ts) catches whatever slips past.
 *
 * Nesting is estimated per line, as CommonMark opens containers: explicit markers
 * (`>`, `-`/`+`/`*` + space, `1.`/`1)` + space) plus the list levels the indentation
 * can continue (at most one per two columns, and never more than the previous
 * non-blank line had, so deeply indented code does not count). The estimate is never
 * lower than the real depth.
 */

export interface BodyShape {
  /** Deepest nesting of block quotes and lists. */
  depth: number;
  /** 1-based line where `depth` is reached. */
  depthLine: number;
  /** Runs of `*` or `_` outside fenced code that may open or close emphasis. */
  delimiterRuns: number;
}

const THEMATIC_BREAK = /^([-*_])[ \t]*(?:\1[ \t]*){2,}$/;
const FENCE = /^(`{3,}|~{3,})/;

/** Measure how deep a body nests and how many emphasis delimiter runs it has. */
export function measureBody(markdown: string): BodyShape {
  const lines = markdown.split(/\r\n|\r|\n/);
  let depth = 0;
  let depthLine = 0;
  let previous = 0;
  let delimiterRuns = 0;
  let fence: string | null = null;
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!;
    const { explicit, columns, rest } = containerPrefix(line);
    if (rest.trim() === '' && explicit === 0) continue;
    const lineDepth = explicit + Math.min(Math.floor(columns / 2), previous);
    previous = lineDepth;
    if (lineDepth > depth) {
      depth = lineDepth;
      depthLine = n + 1;
    }
    const open = FENCE.exec(rest);
    if (fence !== null) {
      if (open && open[1]![0] === fence[0] && open[1]!.length >= fence.length && rest.slice(open[1]!.length).trim() === '') fence = null;
      continue;
    }
    if (open) {
      fence = open[1]!;
      continue;
    }
    delimiterRuns += countDelimiterRuns(rest);
  }
  return { depth, depthLine, delimiterRuns };
}

/** The container markers at the start of a line, the indentation between them, and the rest. */
function containerPrefix(line: string): { explicit: number; columns: number; rest: string } {
  let i = 0;
  let explicit = 0;
  let columns = 0;
  for (;;) {
    while (line[i] === ' ' || line[i] === '\t') columns += line[i++] === '\t' ? 4 : 1;
    const c = line[i];
    let end = -1;
    if (c === '>') end = i + 1;
    else if ((c === '-' || c === '+' || c === '*') && isGap(line[i + 1])) {
      if (THEMATIC_BREAK.test(line.slice(i))) break;
      end = i + 1;
    } else if (c !== undefined && c >= '0' && c <= '9') {
      let j = i;
      while (j < line.length && j - i < 9 && line[j]! >= '0' && line[j]! <= '9') j++;
      if ((line[j] === '.' || line[j] === ')') && isGap(line[j + 1])) end = j + 1;
    }
    if (end < 0) break;
    explicit++;
    // The one space after a marker belongs to the marker, not to the indentation.
    i = line[end] === ' ' ? end + 1 : end;
  }
  return { explicit, columns, rest: line.slice(i) };
}

const isGap = (c: string | undefined) => c === undefined || c === ' ' || c === '\t';

const isWordChar = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}]/u.test(c);

/** Runs of `*` or `_`; an `_` run inside a word (snake_case) can never delimit emphasis. */
function countDelimiterRuns(text: string): number {
  let runs = 0;
  for (let i = 0; i < text.length; ) {
    const c = text[i];
    if (c !== '*' && c !== '_') {
      i++;
      continue;
    }
    let j = i;
    while (text[j] === c) j++;
    if (!(c === '_' && isWordChar(text[i - 1]) && isWordChar(text[j]))) runs++;
    i = j;
  }
  return runs;
}
