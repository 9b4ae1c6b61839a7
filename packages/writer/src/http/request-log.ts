/**
 * One `request` log line per answer (pino, level `info`): method, URL, status and
 * milliseconds. The same line for the routes served before Express and the rest.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';

/** What logs one request when its answer is finished; null when `info` is off. */
export type RequestLog = ((req: IncomingMessage, res: ServerResponse) => void) | null;

export function requestLog(logger: Logger): RequestLog {
  if (!logger.isLevelEnabled('info')) return null;
  return (req, res) => {
    const start = process.hrtime.bigint();
    // Express's `originalUrl` where there is one: a mounted router rewrites `url`.
    const url = (req as { originalUrl?: string }).originalUrl ?? req.url;
    res.on('finish', () => {
      logger.info({ method: req.method, url, status: res.statusCode, ms: Number(process.hrtime.bigint() - start) / 1e6 }, 'request');
    });
  };
}

/** The same as Express middleware. */
export function requestLogMiddleware(log: RequestLog): RequestHandler {
  if (!log) return (_req, _res, next) => next();
  return (req, res, next) => {
    log(req, res);
    next();
  };
}
