/**
 * Positioned content messages: every problem `agora check` finds in a file is one
 * `Message`, in the spirit of vfile-message (`file:line:column`, rule id, the fix).
 */

export type Severity = 'error' | 'warning';

export interface Message {
  /** Path of the file, relative to the project root where possible. */
  file: string;
  /** 1-based line; 1 when the problem is about the whole file. */
  line: number;
  /** 1-based column. */
  column: number;
  severity: Severity;
  /** Stable id of the rule that produced it, e.g. `front-matter-date`. */
  ruleId: string;
  /** What is wrong, e.g. "Unexpected date `2025-13-01`, expected a real calendar date in YYYY-MM-DD". */
  message: string;
  /** How to fix it. */
  fix?: string;
}

/** `file:line:column severity message (ruleId)` plus the fix on the next line. */
export function formatMessage(m: Message): string {
  const head = `${m.file}:${m.line}:${m.column} ${m.severity} ${m.message} (${m.ruleId})`;
  return m.fix ? `${head}\n  fix: ${m.fix}` : head;
}

/** Messages sorted by file, then position, errors before warnings at the same spot. */
export function sortMessages(messages: readonly Message[]): Message[] {
  return [...messages].sort(
    (a, b) =>
      (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
      a.line - b.line ||
      a.column - b.column ||
      (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1),
  );
}

/** Thrown by `build` when content has errors; carries every message. */
export class ContentError extends Error {
  readonly messages: Message[];
  constructor(messages: Message[]) {
    const errors = messages.filter((m) => m.severity === 'error').length;
    super(`Cannot \`build\`: ${errors} error${errors === 1 ? '' : 's'} in content; run \`agora check\` for the list`);
    this.name = 'ContentError';
    this.messages = messages;
  }
}
