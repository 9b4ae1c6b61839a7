/**
 * Split a document into its front-matter block and body, and parse the block as
 * plain YAML data (core schema: no custom tags, no timestamps, nothing executed).
 * Used for posts and for comments from the network alike.
 */
import { parse, parseDocument, stringify, visit, LineCounter, isAlias, isCollection, isMap, isScalar, isSeq, type Document, type Node, type YAMLError } from 'yaml';

export interface FrontMatterEntry {
  key: string;
  /** The plain JS value (string, number, boolean, null, array …). */
  value: unknown;
  /** 1-based line and column of the key in the whole document. */
  line: number;
  column: number;
}

export interface FrontMatterProblem {
  line: number;
  column: number;
  message: string;
  /** How to fix it, where the problem says more than "write plain YAML". */
  fix?: string;
}

export interface SplitDocument {
  /** Whether the document opens with a `---` line. */
  hasFrontMatter: boolean;
  entries: FrontMatterEntry[];
  problems: FrontMatterProblem[];
  body: string;
  /** 1-based line where the body starts. */
  bodyLine: number;
  /** The block opens and never closes: the body is not known (not empty). */
  unclosed?: boolean;
}

const OPEN = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSE = /^(?:---|\.\.\.)[ \t]*$/m;

/**
 * One front-matter line `key: value`, the value quoted by the yaml library where YAML needs it (`: `, `#`,
 * a leading indicator …): for YAML 1.2 and for YAML 1.1 readers (PyYAML), which take a plain `no`, `On`,
 * `y`, `1:30`, `1_000` or `2025-09-14` as a boolean, number or date.
 */
export function frontMatterLine(key: string, value: string): string {
  const line = stringify({ [key]: value }, { lineWidth: 0 }).trimEnd();
  if ((parse(line, { version: '1.1' }) as Record<string, unknown>)[key] === value) return line;
  return stringify({ [key]: value }, { lineWidth: 0, version: '1.1' }).trimEnd();
}

/** Parse `---\nkey: value\n---\nbody`. Never throws: problems are reported with positions. */
export function splitFrontMatter(text: string): SplitDocument {
  const open = OPEN.exec(text);
  if (!open) return { hasFrontMatter: false, entries: [], problems: [], body: text, bodyLine: 1 };
  const rest = text.slice(open[0].length);
  const close = CLOSE.exec(rest);
  if (!close) {
    return {
      hasFrontMatter: true,
      entries: [],
      problems: [{ line: 1, column: 1, message: 'Unexpected end of file, expected a closing `---` line after the front matter', fix: 'add a `---` line after the last `key: value` line, before the body' }],
      body: '',
      bodyLine: 1,
      unclosed: true,
    };
  }
  const yamlText = rest.slice(0, close.index);
  let bodyStart = close.index + close[0].length;
  if (rest[bodyStart] === '\r') bodyStart++;
  if (rest[bodyStart] === '\n') bodyStart++;
  const yamlLines = countLines(yamlText);
  const bodyLine = 1 + 1 + yamlLines + 1;
  const { entries, problems } = parseYamlBlock(yamlText, 1);
  return { hasFrontMatter: true, entries, problems, body: rest.slice(bodyStart), bodyLine };
}

function countLines(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

function parseYamlBlock(text: string, lineOffset: number) {
  const lineCounter = new LineCounter();
  const entries: FrontMatterEntry[] = [];
  const problems: FrontMatterProblem[] = [];
  // Front matter is flat `key: value` lines: thousands of levels of nesting overflowed the
  // parser's stack (a 500 for a posted comment) and took ~65 ms each to refuse. Refused first, in one pass.
  const deep = nestingBeyond(text, MAX_NESTING);
  if (deep !== null) {
    // (The line counter is filled by the parse, which has not run.)
    const before = text.slice(0, deep);
    const line = countLines(before) + 1;
    return { entries, problems: [{ line: line + lineOffset, column: deep - before.lastIndexOf('\n'), message: `Unexpected YAML: nested more than ${MAX_NESTING} levels deep`, fix: 'write plain `key: value` lines; a value is text (quote it if it holds `[`, `{` or `- `)' }] };
  }
  let doc: Document;
  try {
    doc = parseDocument(text, { schema: 'core', lineCounter, uniqueKeys: true, prettyErrors: false, customTags: [] });
  } catch (error) {
    // A safety net under the bound above: the parser's own stack, however it is reached.
    if (!(error instanceof RangeError)) throw error;
    return { entries, problems: [{ line: lineOffset, column: 1, message: 'Unexpected YAML: nested too deep to read', fix: 'write plain `key: value` lines' }] };
  }
  const at = (offset: number) => {
    const pos = lineCounter.linePos(offset);
    return { line: pos.line + lineOffset, column: pos.col };
  };
  const seen = new Set<string>();
  const lines = text.split('\n');
  for (const error of [...doc.errors, ...doc.warnings]) {
    const start = at(errorStart(doc, error));
    // A key indented under the others (`  date: …`, on this line or the one the parser gave up
    // after) is what to fix, whatever the parser calls it (BAD_INDENT suggested a bracket).
    const indentedKey = [start.line - lineOffset, start.line - lineOffset - 1].some((n) => /^[ \t]+[\w-]+[ \t]*:/.test(lines[n - 1] ?? ''));
    const fix = indentedKey ? INDENTED_LINE_FIX : YAML_FIXES[error.code];
    const problem = { ...start, message: `Unexpected YAML: ${firstLine(error.message)}`, ...(fix ? { fix } : {}) };
    // One mistake may raise several errors at one place (a stray indented line): say it once.
    const id = `${problem.line}:${problem.column}`;
    if (seen.has(id)) continue;
    seen.add(id);
    problems.push(problem);
  }
  if (problems.length > 0) return { entries, problems };
  const contents = doc.contents;
  if (contents === null || (isScalar(contents) && (contents.value === null || contents.value === ''))) {
    return { entries, problems };
  }
  if (!isMap(contents)) {
    problems.push({ ...at(contents.range?.[0] ?? 0), message: 'Unexpected front matter, expected `key: value` lines' });
    return { entries, problems };
  }
  for (const pair of contents.items) {
    const keyNode = pair.key as Node | null;
    const position = at(keyNode?.range?.[0] ?? 0);
    // A complex key (`? [a]`) named no key at all: every message about it said `front_matter/`.
    if (!isScalar(keyNode)) {
      problems.push({ ...position, message: `Unexpected key \`${String(keyNode ?? '').replace(/\s+/g, ' ').trim() || '(empty)'}\`, expected a plain name before \`:\`` });
      continue;
    }
    const key = String(keyNode.value);
    if (isForbidden(pair.value as Node | null)) {
      problems.push({ ...position, message: `Unexpected YAML tag or alias in \`${key}\`, expected plain data` });
      continue;
    }
    const value = listAsWritten(pair.value as Node | null);
    entries.push({ key, value, ...position });
  }
  return { entries, problems };
}

/**
 * A node's plain data, except that a number in a list keeps the text it was written as:
 * a list item is a word (`tags: [python, 3.10]`), and YAML's number printed back changed
 * it (`3.10` became `3.1`, `0x1F` 31).
 */
function listAsWritten(node: Node | null): unknown {
  if (isSeq(node)) {
    return node.items.map((item) => (isScalar(item) && typeof item.value === 'number' && typeof item.source === 'string' ? item.source : (item as Node | null)?.toJSON() ?? null));
  }
  return node?.toJSON() ?? null;
}

/** Deepest nesting front matter may have (a post's `tags: [a, b]` is 1). */
const MAX_NESTING = 32;

/**
 * The offset where `text` nests more than `max` levels (flow `[`/`{` outside quotes, or a
 * line's indentation and leading `- `/`? ` indicators, two columns a level), or null.
 * A bound, not a parser: it only has to stop what no front matter needs before YAML reads it.
 */
function nestingBeyond(text: string, max: number): number | null {
  let flow = 0;
  let quote: string | null = null;
  let lineStart = true;
  let indent = 0;
  // Where a node may begin (a line's start, after `: `, `[`, `{` or `,` in a flow): only
  // there does `[`/`{` open a collection or a quote open a quoted scalar. Elsewhere they
  // are text of a plain scalar (`model: gpt [x`, `author: O'Brien`), as YAML reads them.
  let nodeStart = true;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\n') {
      lineStart = true;
      nodeStart = true;
      indent = 0;
      continue;
    }
    if (lineStart) {
      // Leading spaces, and `- ` / `? ` indicators, each one more level of block nesting.
      if (c === ' ') {
        if (++indent > 2 * max) return i;
        continue;
      }
      if ((c === '-' || c === '?') && (text[i + 1] === ' ' || text[i + 1] === '\t')) {
        indent += 2;
        if (indent > 2 * max) return i;
        i++;
        continue;
      }
      lineStart = false;
    }
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"') i++;
      continue;
    }
    if (c === ' ' || c === '\t') continue;
    if ((c === '"' || c === "'") && nodeStart) {
      quote = c;
      nodeStart = false;
    } else if ((c === '[' || c === '{') && (nodeStart || flow > 0)) {
      if (++flow > max) return i;
      nodeStart = true;
    } else if ((c === ']' || c === '}') && flow > 0) {
      flow--;
      nodeStart = false;
    } else if (c === ',' && flow > 0) nodeStart = true;
    else if (c === ':' && (i + 1 === text.length || /\s/.test(text[i + 1]!) || flow > 0)) nodeStart = true;
    else if (c === '#' && (i === 0 || /\s/.test(text[i - 1]!))) {
      // A comment: to the end of the line.
      const end = text.indexOf('\n', i);
      i = end === -1 ? text.length : end - 1;
    } else nodeStart = false;
  }
  return null;
}

/** The two errors of a line indented under a value (the parser reads it as part of that value). */
const INDENTED_LINE_FIX = 'start every `key: value` at the beginning of its line: an indented line continues the value above it; quote a value that contains `: `';

/** What to do about the YAML errors a hand-written front matter makes most. */
const YAML_FIXES: Partial<Record<YAMLError['code'], string>> = {
  MISSING_CHAR: 'close the quote on the same line, or leave the value unquoted if it has no `: ` and starts with a letter',
  BAD_INDENT: 'close the `[` or `{` on the same line, e.g. `tags: [nginx, proxy]`, or write the value without brackets',
  DUPLICATE_KEY: 'keep one line for this key',
  TAB_AS_INDENT: 'indent with spaces, not tabs (or not at all: every key starts its line)',
  BLOCK_AS_IMPLICIT_KEY: INDENTED_LINE_FIX,
  MULTILINE_IMPLICIT_KEY: INDENTED_LINE_FIX,
};

/**
 * Where the author should look for a YAML error. The parser reports a quote or a flow
 * collection (`[`, `{`) left open where it gave up, at the closing `---` or on the line
 * after: the quote or bracket that opened it is the place to fix.
 */
function errorStart(doc: Document, error: YAMLError): number {
  const at = error.pos[0];
  const quote = error.code === 'MISSING_CHAR';
  if (!quote && error.code !== 'BAD_INDENT') return at;
  let start = at;
  // Outer nodes are visited first: the last match is the innermost one left open.
  visit(doc, (_key, node) => {
    if (!(isScalar(node) || isCollection(node)) || !node.range) return;
    const opens = isScalar(node) ? quote && (node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE') : !quote && node.flow === true;
    if (opens && node.range[0] < at && node.range[2] >= at) start = node.range[0];
  });
  return start;
}

/** Custom tags and aliases have no place in plain data (aliases also allow expansion bombs). */
function isForbidden(node: Node | null): boolean {
  if (!node) return false;
  if (isAlias(node)) return true;
  if (node.tag && !node.tag.startsWith('tag:yaml.org,2002:')) return true;
  if (isSeq(node)) return node.items.some((item) => isForbidden(item as Node));
  if (isMap(node)) return node.items.some((p) => isForbidden(p.value as Node));
  return false;
}

function firstLine(message: string): string {
  return message.split('\n')[0] ?? message;
}
