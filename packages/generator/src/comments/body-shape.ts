/**
 * A cheap, linear, non-recursive measure of the work a markdown body costs the
 * renderer, taken before a comment is stored. It counts what the parser really pays
 * for: nesting (the parser recurses once per container: 4,000 `>` overflow the
 * stack), block lines, list items and headings (micromark re-splices its event list
 * for each setext heading and list item, so 3,000 `a\n=` take 2 s), link brackets,
 * code spans and emphasis runs (matched in quadratic time). The counts depend on the
 * text alone, so a body is judged the same on an idle or a loaded machine; the limits
 * in `rules.ts` (`COMMENT_WORK_LIMITS`) keep every accepted body far below a second.
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
  /** Runs of `*` or `_` outside fenced code that may open or close emphasis, and runs of `~~` (strikethrough). */
  delimiterRuns: number;
  /** The longest of those runs (each pair of its characters may nest emphasis one level deeper), and its 1-based line. */
  longestRun: number;
  longestRunLine: number;
  /** Every line, blank and fenced ones included. */
  lines: number;
  /** Non-blank lines outside fenced code: each opens or continues a block. */
  blockLines: number;
  /** List item markers (`-`, `+`, `*`, `1.`, `1)` at a line start or after another marker). */
  listItems: number;
  /** ATX headings and setext underlines (a `===` or `---` line after a non-blank line). */
  headings: number;
  /** `[` outside fenced code: each may open a link, a reference or a footnote label. */
  brackets: number;
  /** Runs of backticks outside fenced code: each may open or close a code span. */
  codeSpans: number;
  /**
   * `|` outside fenced code: each may delimit a table cell (a 7,400-cell table took 0.85 s to render);
   * a line after a table's delimiter row counts at least the table's columns.
   */
  tableCells: number;
  /**
   * `<?` and `<!` outside fenced code: each may open raw HTML (a processing instruction, a
   * declaration, a comment, CDATA) that the parser scans for its end through the rest of
   * the body, so their cost grows with their count times the length (8,100 `<?` took 1.8 s).
   */
  markupOpeners: number;
  /**
   * Characters between each `]` and the `[` it may close (the latest one not yet closed;
   * outside fenced code, a tab as 4, a line break as 1), summed. At every `]` the parser
   * copies and normalizes the text since its `[` to look it up as a reference, so the
   * cost grows with the count of brackets times their reach: 499 `[`, 15,000 tabs and
   * 499 `]` (within every other limit) took 0.7 s to render.
   */
  labelChars: number;
  /**
   * `[` characters times the longest link reference definition (`[a]: url "title"`, with the
   * lines after it up to a blank line or the next definition): each `[a]` may repeat that
   * definition's address and title in the HTML, so 498 `[a]` and one 14,000-character
   * address rendered 7 MB of HTML from a 16 KiB comment.
   */
  referenceChars: number;
}

const THEMATIC_BREAK = /^([-*_])[ \t]*(?:\1[ \t]*){2,}$/;
const FENCE = /^(`{3,}|~{3,})/;
const ATX = /^#{1,6}(?:[ \t]|$)/;
const SETEXT = /^(?:=+|-+)[ \t]*$/;
/** The start of a link reference definition: `[label]:`. */
const DEFINITION = /^\[(?:[^\]\\]|\\.)+\]:/;
/** A table's delimiter row (`|---|:-:|`), with at least one `|`. */
const TABLE_DELIMITER = /^\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;

/** Measure the rendering work of a body: nesting, blocks, list items, headings and inline markers. */
export function measureBody(markdown: string): BodyShape {
  const lines = markdown.split(/\r\n|\r|\n/);
  const shape: BodyShape = { depth: 0, depthLine: 0, delimiterRuns: 0, longestRun: 0, longestRunLine: 0, lines: lines.length, blockLines: 0, listItems: 0, headings: 0, brackets: 0, codeSpans: 0, tableCells: 0, markupOpeners: 0, labelChars: 0, referenceChars: 0 };
  const labels: Labels = { open: [], at: 0 };
  let previous = 0;
  let previousBlank = true;
  let fence: string | null = null;
  // The columns of the table whose rows these lines may be (0: none); it ends, at the latest, at a blank line.
  let tableColumns = 0;
  // The length of the reference definition these lines may belong to (-1: none), and the longest.
  let definition = -1;
  let longestDefinition = 0;
  const endDefinition = () => {
    longestDefinition = Math.max(longestDefinition, definition);
    definition = -1;
  };
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!;
    const { explicit, listMarkers, columns, rest } = containerPrefix(line);
    const blank = rest.trim() === '' && explicit === 0;
    const wasBlank = previousBlank;
    previousBlank = blank;
    if (blank) {
      tableColumns = 0;
      endDefinition();
      continue;
    }
    const before = previous;
    const lineDepth = explicit + Math.min(Math.floor(columns / 2), previous);
    previous = lineDepth;
    if (lineDepth > shape.depth) {
      shape.depth = lineDepth;
      shape.depthLine = n + 1;
    }
    const open = FENCE.exec(rest);
    if (fence !== null) {
      if (open && open[1]![0] === fence[0] && open[1]!.length >= fence.length && rest.slice(open[1]!.length).trim() === '') fence = null;
      continue;
    }
    shape.blockLines++;
    shape.listItems += listMarkers;
    if (open && opensFence(open[1]!, rest, explicit, columns, before)) {
      fence = open[1]!;
      tableColumns = 0;
      endDefinition();
      continue;
    }
    if (ATX.test(rest) || (!wasBlank && SETEXT.test(rest))) shape.headings++;
    // A thematic break (`***`, `___` of any length) is a rule, never emphasis.
    if (DEFINITION.test(rest)) {
      endDefinition();
      definition = 0;
    }
    if (definition >= 0) definition += rest.length + 1;
    const pipes = shape.tableCells;
    if (!THEMATIC_BREAK.test(rest)) countInline(rest, shape, n + 1, labels);
    // A table row has as many cells as the table has columns, whatever its own `|` count: one without
    // any still renders every column (a 999-column header over 397 such rows took 1.4 s).
    if (tableColumns > 0) shape.tableCells += Math.max(0, tableColumns - (shape.tableCells - pipes));
    else if (!wasBlank && rest.includes('|') && TABLE_DELIMITER.test(rest)) tableColumns = rest.match(/:?-+:?/g)!.length;
    labels.at++;
  }
  endDefinition();
  shape.referenceChars = shape.brackets * longestDefinition;
  return shape;
}

/**
 * Whether a line that starts with a fence opens a fenced block whose lines are then not
 * counted. Only where the renderer surely opens one and closes it only with a fence: at
 * the top level (no container marker; no indentation, or under four columns after a line
 * outside any list), and for backticks an info string without a backtick. A fence inside
 * a list or quote ends with its container, which this count does not follow, and four
 * columns of indentation make indented code: such lines are counted (a count that is
 * never lower than the renderer's work; before, `    \`\`\`` or \`\`\`a\`b hid the rest
 * of the body from every limit).
 */
function opensFence(marker: string, rest: string, explicit: number, columns: number, before: number): boolean {
  if (explicit > 0 || !(columns === 0 || (columns < 4 && before === 0))) return false;
  return marker[0] !== '`' || !rest.slice(marker.length).includes('`');
}

/** The container markers at the start of a line, the indentation between them, and the rest. */
function containerPrefix(line: string): { explicit: number; listMarkers: number; columns: number; rest: string } {
  let i = 0;
  let explicit = 0;
  let listMarkers = 0;
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
    if (c !== '>') listMarkers++;
    // The one space after a marker belongs to the marker, not to the indentation.
    i = line[end] === ' ' ? end + 1 : end;
  }
  return { explicit, listMarkers, columns, rest: line.slice(i) };
}

/** The `[` not yet closed (their positions) and the position reached, in the units of `labelChars`. */
interface Labels {
  open: number[];
  at: number;
}

const isGap = (c: string | undefined) => c === undefined || c === ' ' || c === '\t';

const isWordChar = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}]/u.test(c);

/**
 * Count the inline markers of one line: runs of `*` or `_` (an `_` run inside a word,
 * as in snake_case, can never delimit emphasis), runs of two or more `~` (strikethrough:
 * GFM matches `~~` openers and closers as it matches emphasis, in quadratic time; a
 * longer run can still end in a `~~` behind an escaped `~`, a lone `~` never delimits),
 * `[`, `|` and runs of backticks, and the reach of each `]` back to its `[`.
 */
function countInline(text: string, shape: BodyShape, line: number, labels: Labels): void {
  let from = 0;
  const reach = (to: number) => {
    for (; from < to; from++) labels.at += text[from] === '\t' ? 4 : 1;
  };
  for (let i = 0; i < text.length; ) {
    const c = text[i];
    if (c === '[') {
      shape.brackets++;
      reach(i);
      labels.open.push(labels.at + 1);
    } else if (c === ']' && labels.open.length > 0) {
      reach(i);
      shape.labelChars += labels.at - labels.open.pop()!;
    } else if (c === '|') shape.tableCells++;
    else if (c === '<' && (text[i + 1] === '?' || text[i + 1] === '!')) shape.markupOpeners++;
    if (c !== '*' && c !== '_' && c !== '`' && c !== '~') {
      i++;
      continue;
    }
    let j = i;
    while (text[j] === c) j++;
    if (c === '`') shape.codeSpans++;
    else if (c === '~') {
      if (j - i >= 2) shape.delimiterRuns++;
    } else if (!(c === '_' && isWordChar(text[i - 1]) && isWordChar(text[j]))) {
      shape.delimiterRuns++;
      if (j - i > shape.longestRun) {
        shape.longestRun = j - i;
        shape.longestRunLine = line;
      }
    }
    i = j;
  }
  reach(text.length);
}
