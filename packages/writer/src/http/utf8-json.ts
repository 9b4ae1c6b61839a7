/**
 * `utf8Json`: Express's JSON body parser, UTF-8 only. body-parser takes any `utf-*`
 * charset and decodes the bytes as it says, so `charset=utf-16` on a UTF-8 body read as
 * garbage ("not valid JSON") while `charset=latin1` was told its charset is refused. Every
 * charset but UTF-8 now gets body-parser's own `charset.unsupported` error (415), which the
 * routes already word.
 */
import express, { type RequestHandler } from 'express';

/** The `charset` parameter of a Content-Type, lower-cased and unquoted; undefined without one. */
export function charsetOf(contentType: string | undefined): string | undefined {
  const param = (contentType ?? '').split(';').slice(1).map((p) => p.trim()).find((p) => p.toLowerCase().startsWith('charset='));
  return param?.slice(8).replace(/"/g, '').trim().toLowerCase();
}

/** Whether a Content-Type says UTF-8 or says no charset (UTF-8 is JSON's and text's default here). */
export function isUtf8(contentType: string | undefined): boolean {
  const charset = charsetOf(contentType);
  return charset === undefined || charset === 'utf-8' || charset === 'utf8';
}

export function utf8Json(options: Parameters<typeof express.json>[0]): RequestHandler {
  const parse = express.json(options);
  return (req, res, next) => {
    const type = req.headers['content-type'];
    if (!isUtf8(type)) {
      const charset = charsetOf(type) ?? '';
      return next(Object.assign(new Error(`unsupported charset "${charset.toUpperCase()}"`), { status: 415, statusCode: 415, expose: true, type: 'charset.unsupported', charset }));
    }
    parse(req, res, next);
  };
}
