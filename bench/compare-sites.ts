/**
 * The peer projects of `bench:compare`: an Eleventy 3 site and a Hugo site over the
 * same posts, each rendering every post to its own page through a minimal layout.
 * Eleventy is installed into bench/compare/ only (never a product dependency).
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cp, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BENCH_DIR } from './child.ts';

export const COMPARE_DIR = join(BENCH_DIR, 'compare');
export const WORK_DIR = join(COMPARE_DIR, '.work');
const ELEVENTY = '3.1.8';
const HIGHLIGHT_PLUGIN = '5.0.2';

/** Install Eleventy (and its syntax-highlight plugin) into bench/compare/ unless present. */
export function installEleventy(): void {
  const pkg = join(COMPARE_DIR, 'node_modules', '@11ty', 'eleventy', 'package.json');
  const plugin = join(COMPARE_DIR, 'node_modules', '@11ty', 'eleventy-plugin-syntaxhighlight', 'package.json');
  if (existsSync(pkg) && existsSync(plugin) && (JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version === ELEVENTY) return;
  const manifest = {
    name: 'agora-bench-compare', private: true, description: 'Peers for npm run bench:compare; installed by bench/compare.ts only.',
    dependencies: { '@11ty/eleventy': ELEVENTY, '@11ty/eleventy-plugin-syntaxhighlight': HIGHLIGHT_PLUGIN },
    overrides: { '@11ty/recursive-copy': '4.0.4' },
  };
  mkdirSync(COMPARE_DIR, { recursive: true });
  writeFileSync(join(COMPARE_DIR, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
  console.error(`[compare] npm install @11ty/eleventy@${ELEVENTY} into bench/compare/`);
  execFileSync('npm', ['install', '--prefix', COMPARE_DIR, '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error'], { stdio: 'inherit' });
}

const LAYOUT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{ title }}</title><meta name="description" content="{{ summary }}"></head>
<body><main><h1>{{ title }}</h1><p>{{ model }} · {{ category }} · {{ tags }}</p>
{{ content | safe }}
</main></body></html>
`;

const PLUGIN_URL = pathToFileURL(join(COMPARE_DIR, 'node_modules', '@11ty', 'eleventy-plugin-syntaxhighlight', '.eleventy.js')).href;
const ELEVENTY_CONFIG = `export default async function (config) {
  if (process.env.BENCH_HIGHLIGHT === '1') {
    const { default: syntaxHighlight } = await import(${JSON.stringify(PLUGIN_URL)});
    config.addPlugin(syntaxHighlight);
  }
  return { dir: { input: 'src', includes: '_includes', output: '_site' }, markdownTemplateEngine: false };
}
`;

const ELEVENTY_DATA = `export default { layout: 'post.njk', permalink: (data) => \`\${data.category}/\${data.page.fileSlug}/index.html\` };\n`;

/** Write the Eleventy project over a copy of the corpus posts. */
export async function writeEleventySite(corpusDir: string, workDir = WORK_DIR): Promise<string> {
  const dir = join(workDir, 'eleventy');
  await rm(dir, { recursive: true, force: true });
  await mkdir(join(dir, 'src', '_includes'), { recursive: true });
  await cp(join(corpusDir, 'content', 'posts'), join(dir, 'src', 'posts'), { recursive: true });
  await writeFile(join(dir, 'src', '_includes', 'post.njk'), LAYOUT);
  await writeFile(join(dir, 'src', 'posts', 'posts.11tydata.mjs'), ELEVENTY_DATA);
  await writeFile(join(dir, 'eleventy.config.mjs'), ELEVENTY_CONFIG);
  return dir;
}

const HUGO_LAYOUT = LAYOUT.replace(/\{\{ (\w+) \}\}/g, (_, k: string) => (k === 'title' ? '{{ .Title }}' : `{{ .Params.${k} }}`)).replace('{{ content | safe }}', '{{ .Content }}');

function hugoConfig(highlight: boolean): string {
  return [
    `baseURL = "https://agora.example/"`, `disableKinds = ["taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404"]`,
    `[taxonomies]`, `[markup.highlight]`, `codeFences = ${highlight}`, `noClasses = false`, '',
  ].join('\n');
}

/** Write the Hugo project over a copy of the corpus posts. */
export async function writeHugoSite(corpusDir: string, workDir = WORK_DIR): Promise<string> {
  const dir = join(workDir, 'hugo');
  await rm(dir, { recursive: true, force: true });
  await mkdir(join(dir, 'layouts', '_default'), { recursive: true });
  await cp(join(corpusDir, 'content', 'posts'), join(dir, 'content', 'posts'), { recursive: true });
  await writeFile(join(dir, 'layouts', '_default', 'single.html'), HUGO_LAYOUT);
  await writeFile(join(dir, 'layouts', '_default', 'list.html'), '<!doctype html><title>{{ .Title }}</title><p>{{ len .Pages }} pages</p>\n');
  await writeFile(join(dir, 'plain.toml'), hugoConfig(false));
  await writeFile(join(dir, 'highlight.toml'), hugoConfig(true));
  return dir;
}

export function hugoVersion(): string | null {
  try {
    return execFileSync('hugo', ['version'], { encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}

/** Run a command to completion; wall time in ms. Throws with its stderr on failure. */
export function timed(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<number> {
  const started = performance.now();
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`${command} exited with ${code}: ${stderr.slice(-2000)}`))));
  });
}
