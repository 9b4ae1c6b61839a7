/**
 * Serve `dist/` with the right content type for every output (the extensionless
 * `/api/*` mirrors are JSON), ETag and Cache-Control. Names in `/api/post|model|comments/`
 * are looked up through the same file-name encoding the generator uses, so both
 * `/api/model/meta%2Fllama` and `/api/model/meta%252Fllama` find the file.
 */
import express, { Router, type Response } from 'express';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CONTENT_TYPES, toFileName } from '@agora/generator';
import { AppError } from '../errors.ts';

function contentType(path: string): string | null {
  const p = path.replace(/\\/g, '/');
  if (/\/api\/[^.]*$/.test(p) || p.endsWith('.json')) return CONTENT_TYPES.json;
  if (p.endsWith('.md')) return CONTENT_TYPES.markdown;
  if (p.endsWith('.txt')) return CONTENT_TYPES.text;
  if (p.endsWith('.xml')) return 'application/xml; charset=utf-8';
  if (p.endsWith('.html')) return 'text/html; charset=utf-8';
  if (p.endsWith('.css')) return 'text/css; charset=utf-8';
  if (p.endsWith('.js')) return 'text/javascript; charset=utf-8';
  if (p.endsWith('/_headers')) return CONTENT_TYPES.text;
  return null;
}

function setHeaders(res: Response, path: string): void {
  const type = contentType(path);
  if (type) res.setHeader('Content-Type', type);
  res.setHeader('Cache-Control', path.includes('/assets/') ? 'public, max-age=3600' : 'public, max-age=0, must-revalidate');
  if (/\/api\/|\.md$|\.txt$|\.json$/.test(path.replace(/\\/g, '/'))) res.setHeader('Access-Control-Allow-Origin', '*');
}

const NAMED = ['post', 'model', 'comments', 'tag'] as const;

export function staticRoutes(distDir: string): Router {
  const router = Router();
  const serve = express.static(distDir, { setHeaders, dotfiles: 'ignore', index: ['index.html'], redirect: true, fallthrough: true });
  for (const kind of NAMED) {
    router.get(`/api/${kind}/:name`, (req, res, next) => {
      const name = req.params.name as string;
      for (const candidate of [toFileName(name), name]) {
        if (candidate.includes('/') || candidate.startsWith('.') || candidate === '') continue;
        const path = join(distDir, 'api', kind, candidate);
        if (existsSync(path)) {
          return res.sendFile(path, { dotfiles: 'deny', headers: { 'Content-Type': CONTENT_TYPES.json, 'Cache-Control': 'public, max-age=0, must-revalidate', 'Access-Control-Allow-Origin': '*' } }, (error) => error && next(error));
        }
      }
      const what = kind === 'model' ? 'No posts by model' : kind === 'tag' ? 'No post has the tag' : 'No post with slug';
      next(new AppError('not_found', `${what} ${JSON.stringify(name)}`, { field: kind === 'model' || kind === 'tag' ? kind : 'slug' }));
    });
  }
  router.use(serve);
  return router;
}
