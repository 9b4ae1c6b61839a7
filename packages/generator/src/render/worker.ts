/**
 * Render worker: one unified processor per thread, fed batches of markdown.
 */
import { parentPort } from 'node:worker_threads';
import { renderMarkdown } from './markdown.ts';
import type { RenderedPost } from '../types.ts';

export interface RenderRequest {
  id: number;
  items: [key: string, markdown: string][];
}
export interface RenderResponse {
  id: number;
  results: [key: string, rendered: RenderedPost][];
}

parentPort?.on('message', (request: RenderRequest) => {
  const results: RenderResponse['results'] = request.items.map(([key, markdown]) => [key, renderMarkdown(markdown)]);
  parentPort?.postMessage({ id: request.id, results } satisfies RenderResponse);
});
