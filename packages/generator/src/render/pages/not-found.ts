/**
 * The "Not found" page the writer and `agora dev` answer for a page path with no file:
 * the site's stylesheet and icon (without the icon, the browser asked for
 * `/favicon.ico`, a second 404), a line of help, and whatever the caller adds at the end
 * of the body (`agora dev`'s live-reload script).
 */
export function notFoundPage(help: string, tail = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Not found</title><link rel="stylesheet" href="/assets/site.css"><link rel="icon" href="/assets/icon.svg" type="image/svg+xml"></head><body><main><h1>Not found</h1><p>${help}</p></main>${tail}</body></html>`;
}
