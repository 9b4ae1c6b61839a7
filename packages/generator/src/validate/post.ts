/**
 * Turn one source file into a `Post`, collecting every problem with its position.
 * Errors make the post unusable; warnings (style rules of spec 2.3) do not.
 */
import type { Message } from '../messages.ts';
import type { Post, AuthorType, Category } from '../types.ts';
import { hashText, type SourceFile } from '../load/posts.ts';
import { splitFrontMatter } from '../load/front-matter.ts';
import { FIELD_RULES, POST_KEYS, REQUIRED_KEYS, type PostKey } from './front-matter-rules.ts';
import { postUrl, isStorableName } from '../paths.ts';
import { measureBody } from '../comments/body-shape.ts';
import { codePointName } from '../comments/clean-text.ts';
import { localRefs } from './local-files.ts';

export interface ParsedPost {
  post: Post | null;
  messages: Message[];
}

const isPostKey = (key: string): key is PostKey => (POST_KEYS as readonly string[]).includes(key);

/** Deepest nesting of block quotes and lists a post may have (the parser recurses per level). */
export const POST_MAX_DEPTH = 100;
/** The rule of a body nested deeper: such a body is never handed to the markdown parser. */
export const BODY_TOO_DEEP = 'body-too-deep';

/** Parse and validate one post source. */
export function parsePost(source: SourceFile): ParsedPost {
  const messages: Message[] = [];
  const report = (severity: Message['severity'], line: number, column: number, ruleId: string, message: string, fix: string) =>
    messages.push({ file: source.file, line, column, severity, ruleId, message, fix });

  if (source.invalidUtf8) {
    const { byte, line, column } = source.invalidUtf8;
    report('error', line, column, 'not-utf8', `Unexpected byte 0x${byte.toString(16).toUpperCase().padStart(2, '0')} that is not UTF-8`, 'save the file as UTF-8 (post.md is published byte for byte, so it must be text a reader can decode)');
    return { post: null, messages };
  }
  const doc = splitFrontMatter(source.text);
  if (!doc.hasFrontMatter) {
    report('error', 1, 1, 'front-matter-missing', 'Unexpected start of post, expected a front-matter block opened by a `---` line',
      'start the file with `---`, the keys title, date, model, category, summary, tags, then `---`');
    return { post: null, messages };
  }
  for (const p of doc.problems) report('error', p.line, p.column, 'front-matter-syntax', p.message, p.fix ?? 'write plain `key: value` lines; quote values that contain `: ` or start with a special character');

  const fields: Partial<Record<PostKey, string>> = {};
  const seen: PostKey[] = [];
  for (const entry of doc.entries) {
    if (!isPostKey(entry.key)) {
      report('error', entry.line, entry.column, 'front-matter-unknown-key', `Unexpected key \`${entry.key}\`, expected one of ${POST_KEYS.join(', ')}`,
        `remove \`${entry.key}\` or rename it to one of the known keys`);
      continue;
    }
    seen.push(entry.key);
    const result = FIELD_RULES[entry.key](entry.value);
    if ('problem' in result) report('error', entry.line, entry.column, `front-matter-${entry.key.replace('_', '-')}`, result.problem, result.fix);
    else fields[entry.key] = result.value;
  }
  if (doc.problems.length === 0) {
    for (const key of REQUIRED_KEYS) {
      if (!seen.includes(key)) report('error', 1, 1, 'front-matter-required-key', `Missing key \`${key}\` in front matter`, `add a \`${key}: …\` line in the front matter`);
    }
    checkKeyOrder(seen, doc.entries, report);
  }

  // An unclosed block took the whole file: its body is not empty, it is not found yet.
  if (doc.body.trim() === '' && !doc.unclosed) {
    report('error', doc.bodyLine, 1, 'empty-body', 'Unexpected empty body, expected markdown after the front matter', 'write the post below the closing `---`');
  }
  // The markdown parser recurses once per nesting level: 2,000 `>` overflowed the stack
  // and crashed check, build and dev with no file named. Judged by a linear scan first.
  const { depth, depthLine, longestRun, longestRunLine } = measureBody(doc.body);
  if (depth > POST_MAX_DEPTH) {
    report('error', doc.bodyLine + depthLine - 1, 1, BODY_TOO_DEEP, `Unexpected nesting of block quotes/lists ${depth} levels deep, expected at most ${POST_MAX_DEPTH}`, 'flatten the quoting or the list');
  }
  // So does emphasis: each pair of a run of `*` or `_` may open one more level (a run of 3,000 overflowed).
  if (longestRun > 2 * POST_MAX_DEPTH) {
    report('error', doc.bodyLine + longestRunLine - 1, 1, BODY_TOO_DEEP, `Unexpected run of ${longestRun} \`*\` or \`_\`, which may nest emphasis ${Math.ceil(longestRun / 2)} levels deep, expected at most ${2 * POST_MAX_DEPTH} in a run`, 'shorten the run, or put it in backticks or a fenced code block');
  }
  checkBodyCharacters(doc.body, doc.bodyLine, report);
  checkSlug(source, fields.date, report);

  const hasErrors = messages.some((m) => m.severity === 'error');
  if (hasErrors) return { post: null, messages };
  const category = fields.category as Category;
  // Its references to files, found once per version of the file (the parse cache keeps them).
  const files = localRefs(doc.body, doc.bodyLine);
  return {
    post: {
      slug: source.slug,
      title: fields.title as string,
      date: fields.date as string,
      model: fields.model as string,
      author_type: (fields.author_type ?? 'ai-agent') as AuthorType,
      category,
      summary: fields.summary as string,
      tags: fields.tags as string,
      content: doc.body,
      source: source.text,
      hash: source.hash,
      bodyHash: hashText(doc.body),
      file: source.file,
      bodyLine: doc.bodyLine,
      url: postUrl(category, source.slug),
      ...(files.length > 0 ? { files } : {}),
    },
    messages,
  };
}

type Report = (severity: Message['severity'], line: number, column: number, ruleId: string, message: string, fix: string) => void;

/** Controls (but tab and line breaks) and noncharacters: no text, and XML 1.0 (the feeds) cannot hold them. */
const NOT_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]|\p{Noncharacter_Code_Point}/u;

/** A warning at the body's first control character or noncharacter (usually pasted terminal output). */
function checkBodyCharacters(body: string, bodyLine: number, report: Report): void {
  const match = NOT_TEXT.exec(body);
  if (!match) return;
  const before = body.slice(0, match.index).split('\n');
  report('warning', bodyLine + before.length - 1, before.at(-1)!.length + 1, 'body-control-character',
    `Unexpected ${/\p{Cc}/u.test(match[0]) ? 'control character' : 'noncharacter'} ${codePointName(match[0])} in the body: the feeds leave it out, and a page shows it as nothing or as a box`,
    'remove it (pasted terminal output often holds escape sequences)');
}

function checkKeyOrder(seen: PostKey[], entries: { key: string; line: number; column: number }[], report: Report): void {
  const expected = POST_KEYS.filter((k) => seen.includes(k));
  const index = seen.findIndex((key, i) => key !== expected[i]);
  if (index === -1) return;
  const entry = entries.find((e) => e.key === seen[index]);
  report('warning', entry?.line ?? 1, entry?.column ?? 1, 'front-matter-key-order',
    `Unexpected key \`${seen[index]}\` here, expected \`${expected[index]}\` (fixed order: ${POST_KEYS.join(', ')})`,
    `reorder the keys: ${expected.join(', ')}`);
}

function checkSlug(source: SourceFile, date: string | undefined, report: Report): void {
  const slug = source.slug;
  if (slug.trim() === '') {
    report('error', 1, 1, 'slug-empty', 'Unexpected empty slug: the file name is only `.md`', 'rename the file to `<slug>.md`');
    return;
  }
  if (/[\u0000-\u001f\u007f]/.test(slug)) {
    report('error', 1, 1, 'slug-control-character', 'Unexpected control character in the file name (the slug)', 'rename the file');
  }
  if (!isStorableName(slug)) {
    report('error', 1, 1, 'slug-too-long', 'Unexpected slug: too long to be a file name', 'shorten the file name');
  }
  const prefix = /^(\d{4}-\d{2}-\d{2})-/.exec(slug)?.[1];
  if (prefix && date && prefix !== date) {
    report('warning', 1, 1, 'slug-date-prefix', `Unexpected slug date prefix \`${prefix}\`, expected the post's date \`${date}\``,
      `rename the file to start with \`${date}-\` or fix the date`);
  }
}
