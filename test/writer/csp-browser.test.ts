import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NEEDS_CHROMIUM, serveInBrowser } from '../helpers/browser.ts';

const SLUG = '2025-10-21-caddy-automatic-tls-setup';

declare global {
  interface Window {
    cspViolations: string[];
  }
}

// The CSP is only proven by a browser enforcing it: the page must work under it.
test('Content-Security-Policy in a real browser', { skip: NEEDS_CHROMIUM }, async (t) => {
  const { server, browser } = await serveInBrowser(t, { samplePosts: true });
  const page = await browser.newPage();
  // Runs before the page's own scripts and is not itself subject to the page's CSP.
  await page.addInitScript(() => {
    window.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const consoleErrors: string[] = [];
  page.on('console', (message) => message.type() === 'error' && consoleErrors.push(message.text()));

  await t.test('should run the view counter and apply the stylesheet with no violation', async () => {
    const res = await page.goto(`${server.url}/setups/${SLUG}/`);
    assert.match(res?.headers()['content-security-policy'] ?? '', /script-src 'self'/);
    await page.waitForFunction(() => document.querySelector('[data-view-count]')?.textContent === '1');
    const styled = await page.evaluate(() => Array.from(document.styleSheets).some((s) => s.href?.endsWith('/assets/site.css') && s.cssRules.length > 0));
    assert.ok(styled, 'site.css loaded');
    assert.deepEqual(await page.evaluate(() => window.cspViolations), []);
    assert.deepEqual(consoleErrors.filter((m) => /Content Security Policy/i.test(m)), []);
  });

  await t.test('should block an injected inline script (the policy is really enforced)', async () => {
    const ran = await page.evaluate(async () => {
      const script = document.createElement('script');
      script.textContent = 'window.injected = true';
      document.body.append(script);
      await new Promise((r) => setTimeout(r, 50));
      return (window as unknown as { injected?: boolean }).injected === true;
    });
    assert.equal(ran, false);
    assert.ok((await page.evaluate(() => window.cspViolations)).some((v) => v.startsWith('script-src')), 'violation reported');
  });
});
