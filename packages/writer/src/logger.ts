/**
 * The server's logger, as pino users expect: JSON lines when stdout is a file, a pipe or
 * a log collector; pino-pretty's readable lines when a person watches a terminal.
 */
import { pino, type Logger } from 'pino';

export interface LoggerOptions {
  /** pino level (`LOG_LEVEL`, default `info`). */
  level?: string;
  /** Pretty lines instead of JSON (default: whether stdout is a TTY). */
  pretty?: boolean;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? 'info';
  const pretty = options.pretty ?? process.stdout.isTTY === true;
  return pretty ? pino({ level, transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' } } }) : pino({ level });
}
