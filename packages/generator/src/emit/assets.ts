/** Static assets: the stylesheet, the view-counting and the search scripts, the site's icon, copied as they are. */
import { readFileSync } from 'node:fs';
import type { Output } from './output.ts';

const read = (name: string) => readFileSync(new URL(`./assets/${name}`, import.meta.url), 'utf8');

export function emitAssets(): Output[] {
  return [
    { path: 'assets/site.css', body: read('site.css') },
    { path: 'assets/views.js', body: read('views.js') },
    { path: 'assets/search.js', body: read('search.js') },
    // Named by every page's `<link rel="icon">`: without one, browsers ask for `/favicon.ico` (a 404 on every first visit).
    { path: 'assets/icon.svg', body: read('icon.svg') },
  ];
}
