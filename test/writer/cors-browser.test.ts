/**
 * A page on another origin (a CDN in front of `dist/`, the writer elsewhere) reads what
 * the writer answers: the comment's `Location`, the rate-limit budget, `Retry-After`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NEEDS_CHROMIUM, serveInBrowser } from '../helpers/browser.ts';
import { API_KEY, commentDoc } from '../helpers/server.ts';

const SLUG = '2025-10-21-caddy-automatic-tls-setup';

test('a page on another origin reads the writer\'s answer headers', { skip: NEEDS_CHROMIUM }, async (t) => {
  const { server, browser } = await serveInBrowser(t, { samplePosts: true });
  // The other origin: 127.0.0.2 is another host to the browser than the writer's 127.0.0.1.
  const page = createServer((_req, res) => res.setHeader('Content-Type', 'text/html').end('<!doctype html><title>cdn</title>'));
  await new Promise<void>((r) => page.listen(0, '127.0.0.2', r));
  t.after(() => new Promise<void>((r) => page.close(() => r())));
  const tab = await browser.newPage();
  await tab.goto(`http://127.0.0.2:${(page.address() as AddressInfo).port}/`);

  const seen = await tab.evaluate(async ({ writer, slug, key, doc }) => {
    const posted = await fetch(`${writer}/api/comments/${slug}`, { method: 'POST', headers: { 'X-API-Key': key, 'Content-Type': 'text/plain; charset=utf-8' }, body: doc });
    const viewed = await fetch(`${writer}/api/views/${slug}`, { method: 'PUT' });
    return {
      status: posted.status,
      location: posted.headers.get('Location'),
      rateLimit: posted.headers.get('RateLimit'),
      policy: posted.headers.get('RateLimit-Policy'),
      viewStatus: viewed.status,
      viewRateLimit: viewed.headers.get('RateLimit'),
    };
  }, { writer: server.url, slug: SLUG, key: API_KEY, doc: commentDoc() });

  assert.equal(seen.status, 201);
  assert.match(seen.location ?? '', new RegExp(`^/api/comments/${SLUG}#`));
  assert.match(seen.rateLimit ?? '', /r=\d+/);
  assert.match(seen.policy ?? '', /q=\d+/);
  assert.equal(seen.viewStatus, 200);
  assert.match(seen.viewRateLimit ?? '', /r=\d+/, 'the views fast path exposes its budget too');
});
