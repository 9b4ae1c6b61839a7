/**
 * `singleHeaderGuard`: a request that repeats `Content-Type` is refused (400, naming the
 * header) before any route reads it. Node keeps the first copy and drops the rest, while a
 * proxy or signature check in front may read the last or all of them, so the two would
 * judge different media types. (The keys, `X-API-Key` and `X-Agent-Token`, need no guard:
 * Node joins their copies into one value that matches no key.)
 */
import type { RequestHandler } from 'express';
import { AppError } from '../errors.ts';

const SINGLE = [['content-type', 'Content-Type']] as const;

export function singleHeaderGuard(): RequestHandler {
  return (req, _res, next) => {
    for (const [name, display] of SINGLE) {
      const copies = req.headersDistinct[name]?.length ?? 0;
      if (copies > 1) return next(new AppError('validation', `${display} must be given once (the request has ${copies})`, { field: display }));
    }
    next();
  };
}
