/**
 * Send one file of `dist/` whole. `send` (behind `express.static` and `res.sendFile`)
 * stats a file by path and opens it by path a moment later; the build replaces files
 * by renaming a new one into place, so a rename in between sent the old length with
 * the new bytes: a cut-off `/api/views` under load. Here the file is opened first and
 * everything (length, ETag, Last-Modified) comes from that open file, which a rename
 * cannot change. Conditional GETs use `fresh`, ETags `etag` (the same as `send`'s).
 * No byte ranges: every answer is the whole file (ranges are optional in HTTP).
 */
import { open, type FileHandle } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import { extname } from 'node:path';
import etag from 'etag';
import fresh from 'fresh';
import { contentType } from 'mime-types';

/** What became of a request for a path. */
export type SendOutcome = 'sent' | 'missing' | 'directory';

/** The version of the file being sent: a header that describes its bytes reads them here, never by path. */
export interface OpenedFile {
  handle: FileHandle;
  size: number;
  mtimeMs: number;
  ino: number;
}

/**
 * Answer `req` with the file at `path`, headers first from `setHeaders`.
 * Resolves `missing` or `directory` without answering when there is no file to send.
 */
export async function sendWholeFile(req: Request, res: Response, path: string, setHeaders: (res: Response, path: string, opened: OpenedFile) => void | Promise<void>): Promise<SendOutcome> {
  let file: FileHandle;
  try {
    file = await open(path, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ENAMETOOLONG' || code === 'EISDIR') return 'missing';
    throw error;
  }
  let streaming = false;
  try {
    const stat = await file.stat();
    if (stat.isDirectory()) return 'directory';
    if (!stat.isFile()) return 'missing';
    await setHeaders(res, path, { handle: file, size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino });
    // Types `setHeaders` does not decide come from the extension, as static servers do (.atom, .wasm, .svg…).
    if (!res.hasHeader('Content-Type')) {
      const type = contentType(extname(path));
      if (type) res.setHeader('Content-Type', type);
    }
    res.setHeader('ETag', etag(stat));
    res.setHeader('Last-Modified', stat.mtime.toUTCString());
    if (fresh(req.headers, { etag: res.getHeader('ETag'), 'last-modified': res.getHeader('Last-Modified') })) {
      res.status(304).end();
      return 'sent';
    }
    res.setHeader('Content-Length', stat.size);
    if (req.method === 'HEAD' || stat.size === 0) {
      res.status(200).end();
      return 'sent';
    }
    res.status(200);
    streaming = true;
    // The stream closes the handle when it ends or fails (a client that hangs up included).
    await pipeline(file.createReadStream({ start: 0, end: stat.size - 1, autoClose: true }), res).catch(() => {});
    return 'sent';
  } finally {
    if (!streaming) await file.close();
  }
}
