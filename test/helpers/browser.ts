/** Debian's chromium driven by playwright-core (no browser download). */
import { chromium, type Browser } from 'playwright-core';
import { existsSync } from 'node:fs';
import type { RunningServer } from '@agora/writer';
import { makeProject, type ProjectOptions, type TestProject } from './project.ts';
import { startTestServer } from './server.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function hasChromium(): boolean {
  return existsSync(CHROMIUM);
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-dev-shm-usage'],
  });
}

/** The `skip` option of a browser test: runs where Debian's chromium is installed (CI), says why not elsewhere. */
export const NEEDS_CHROMIUM: string | false = hasChromium() ? false : 'chromium not installed (apt-get install chromium)';

/** A test project served by the real server, and a browser; closed in that order after the test. */
export async function serveInBrowser(t: { after: (fn: () => Promise<void>) => void }, options: ProjectOptions = {}): Promise<{ project: TestProject; server: RunningServer; browser: Browser }> {
  const project = await makeProject(options);
  const server = await startTestServer(project);
  const browser = await launchBrowser();
  t.after(async () => {
    await browser.close();
    await server.close();
    await project.remove();
  });
  return { project, server, browser };
}
