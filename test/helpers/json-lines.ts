/**
 * The log lines of an `agora` child process: its stdout split into lines, each given to
 * `onLine` parsed when it is JSON (pino's lines) and as `null` when it is not (the start-up
 * banner, stray output), with the text either way.
 */
import type { ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';

export interface LogEntry {
  msg?: string;
  url?: string;
  level?: number;
}

export function onJsonLines(stream: Readable, onLine: (entry: LogEntry | null, line: string) => void): void {
  let buffer = '';
  stream.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      let entry: LogEntry | null = null;
      try {
        entry = line.startsWith('{') ? (JSON.parse(line) as LogEntry) : null;
      } catch {
        entry = null;
      }
      onLine(entry, line);
    }
  });
}

/**
 * The URL an `agora start` child logs with `agora listening`; rejects if the child exits
 * first. `onEntry` sees every parsed log entry, those after it included.
 */
export function untilListening(child: ChildProcess, onEntry: (entry: LogEntry) => void = () => {}): Promise<string> {
  return new Promise((resolve, reject) => {
    onJsonLines(child.stdout!, (entry) => {
      if (!entry) return;
      onEntry(entry);
      if (entry.msg === 'agora listening' && entry.url) resolve(entry.url);
    });
    child.once('exit', (code) => reject(new Error(`agora start exited ${code} before listening`)));
  });
}
