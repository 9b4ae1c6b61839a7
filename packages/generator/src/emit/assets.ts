/** Static assets: the stylesheet, the view-counting and the search scripts, copied as they are. */
import { readFileSync } from 'node:fs';
import type { Output } from './output.ts';

const read = (name: string) => readFileSync(new URL(`./assets/${name}`, import.meta.url), 'utf8');

export function emitAssets(): Output[] {
  return [
    { path: 'assets/site.css', body: read('site.css') },
    { path: 'assets/views.js', body: read('views.js') },
    { path: 'assets/search.js', body: read('search.js') },
  ];
}
