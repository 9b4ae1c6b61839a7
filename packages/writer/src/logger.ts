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

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/**
 * The pino level `LOG_LEVEL` names: blank is `fallback` (a blank line in an
 * EnvironmentFile), any case is fine; anything else stops the start, naming the setting
 * (pino's own error named none: "default level: must be included in custom levels").
 */
export function logLevel(value: string | undefined, fallback = 'info'): string {
  const level = value?.trim().toLowerCase() ?? '';
  if (level === '') return fallback;
  if (!LEVELS.includes(level)) throw new Error(`Unexpected LOG_LEVEL ${JSON.stringify(value)}, expected one of ${LEVELS.join(', ')} (default ${fallback}); see README "Configuration"`);
  return level;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const level = logLevel(options.level);
  const pretty = options.pretty ?? process.stdout.isTTY === true;
  return pretty ? pino({ level, transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' } } }) : pino({ level });
}
