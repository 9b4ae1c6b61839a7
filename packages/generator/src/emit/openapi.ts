/** `/openapi.json` — placeholder until the OpenAPI document lands (owned by the openapi work). */
import type { SiteModel } from '../types.ts';
import type { Output } from './output.ts';

export function emitOpenApi(site: SiteModel): Output {
  return { path: 'openapi.json', body: JSON.stringify({ openapi: '3.1.0', info: { title: site.config.title, version: '1.0.0' }, paths: {} }) };
}
