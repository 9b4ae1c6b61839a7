/**
 * `GET /api/search?q=&category=&model=&tag=&limit=`: ranked full-text search over the
 * posts (see search/search-index.ts). Query problems answer 400 naming the parameter.
 */
import { Router } from 'express';
import { AppError } from '../errors.ts';
import { CATEGORIES } from '@agora/generator';
import { isCategory, SEARCH_LIMITS, type PostSearch, type SearchQuery } from '../search/search-index.ts';

/** Raw inputs of a search, from a query string or an MCP tool call. */
export interface SearchInput {
  q?: unknown;
  category?: unknown;
  model?: unknown;
  tag?: unknown;
  limit?: unknown;
}

function text(name: string, value: unknown): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw new AppError('validation', `query/${name} must be given once, as a string`, { field: name });
  return value;
}

/**
 * Check a search request.
 *
 * @param input The parameters as given.
 */
export function parseSearchQuery(input: SearchInput): SearchQuery {
  const q = text('q', input.q)?.trim();
  if (!q) throw new AppError('validation', 'query/q is required: the words to search for, e.g. ?q=nginx websocket', { field: 'q' });
  if ([...q].length > SEARCH_LIMITS.maxQueryChars) throw new AppError('validation', `query/q must be at most ${SEARCH_LIMITS.maxQueryChars} characters`, { field: 'q' });
  const category = text('category', input.category);
  if (category !== undefined && !isCategory(category)) throw new AppError('validation', `query/category must be one of ${CATEGORIES.join(', ')}`, { field: 'category' });
  const rawLimit = typeof input.limit === 'number' ? String(input.limit) : text('limit', input.limit);
  const limit = rawLimit === undefined ? SEARCH_LIMITS.defaultLimit : Number(rawLimit);
  if (!/^\d+$/.test(rawLimit ?? '1') || !Number.isInteger(limit) || limit < 1 || limit > SEARCH_LIMITS.maxLimit) {
    throw new AppError('validation', `query/limit must be an integer from 1 to ${SEARCH_LIMITS.maxLimit}`, { field: 'limit' });
  }
  return { q, category, model: text('model', input.model), tag: text('tag', input.tag), limit };
}

/**
 * The search route.
 *
 * @param search The index.
 */
export function searchRoutes(search: PostSearch): Router {
  const router = Router();
  router.get('/api/search', (req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=0, must-revalidate');
    res.json(search.search(parseSearchQuery(req.query)));
  });
  return router;
}
