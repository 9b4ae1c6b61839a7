/**
 * `sitemap.xml` against what a build really emits: every indexable HTML page in `dist/`
 * (every `index.html`, each under the URL its own canonical link names) is listed exactly
 * once, and nothing else is (JSON mirrors, `post.md`, feeds, `llms.txt`, the search index).
 * The sample site, a site with paginated lists and names that need encoding, and
 * incremental rebuilds in which model and tag pages appear and disappear.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { build } from '@agora/generator';
import { makeProject, postSource } from '../helpers/project.ts';
import { emitSitemap } from '../../packages/generator/src/emit/sitemap.ts';
import { createJobKeyer } from '../../packages/generator/src/model/job-keys.ts';
import type { SiteModel } from '../../packages/generator/src/types.ts';

const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
/** sitemaps.org: at most 50,000 URLs and 50 MB (52,428,800 bytes) uncompressed per file. */
const MAX_URLS = 50_000;
const MAX_BYTES = 52_428_800;

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false, isArray: (name) => name === 'url' || name === 'sitemap' });

interface UrlEntry { loc: string; lastmod?: string }

/** One sitemap file, checked against sitemaps.org 0.9: its URLs, or the child sitemaps of an index. */
function parseSitemap(xml: string, file: string): { urls: UrlEntry[]; children: string[] } {
  assert.equal(XMLValidator.validate(xml), true, `${file} is well-formed XML`);
  assert.ok(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n'), `${file} declares UTF-8`);
  assert.ok(Buffer.byteLength(xml) <= MAX_BYTES, `${file} is at most 50 MB`);
  const doc = parser.parse(xml) as { urlset?: { '@xmlns': string; url?: UrlEntry[] }; sitemapindex?: { '@xmlns': string; sitemap?: UrlEntry[] } };
  if (doc.sitemapindex) {
    assert.equal(doc.sitemapindex['@xmlns'], NS, `${file}: sitemapindex namespace`);
    return { urls: [], children: (doc.sitemapindex.sitemap ?? []).map((s) => s.loc) };
  }
  assert.ok(doc.urlset, `${file}: a urlset or a sitemapindex`);
  assert.equal(doc.urlset['@xmlns'], NS, `${file}: urlset namespace`);
  const urls = doc.urlset.url ?? [];
  assert.ok(urls.length <= MAX_URLS, `${file}: at most 50,000 URLs`);
  for (const u of urls) {
    assert.equal(typeof u.loc, 'string', `${file}: every url has a loc`);
    if (u.lastmod !== undefined) assert.match(u.lastmod, /^\d{4}-\d{2}-\d{2}$/, `${file}: lastmod of ${u.loc} is a W3C date`);
  }
  return { urls, children: [] };
}

/** Every `<loc>` of the site's sitemap (following a sitemap index), in order. */
async function sitemapLocs(dist: string, baseUrl: string): Promise<string[]> {
  const top = parseSitemap(await readFile(join(dist, 'sitemap.xml'), 'utf8'), 'sitemap.xml');
  const urls = [...top.urls];
  for (const child of top.children) {
    assert.ok(child.startsWith(`${baseUrl}/`), `child sitemap ${child} is on the site`);
    const file = child.slice(baseUrl.length + 1);
    urls.push(...parseSitemap(await readFile(join(dist, file), 'utf8'), file).urls);
  }
  return urls.map((u) => u.loc);
}

/** Undo the HTML escaping of an attribute value (`render/html.ts`). */
const unescapeHtml = (s: string) => s.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'" })[e]!);

interface Page { file: string; canonical: string; noindex: boolean; markdown?: string }

/** Every HTML page in `dist/`: its file, the URL its canonical link names, and whether it asks not to be indexed. */
async function htmlPages(dist: string): Promise<Page[]> {
  const entries = await readdir(dist, { recursive: true, withFileTypes: true });
  const pages: Page[] = [];
  for (const e of entries) {
    if (!e.isFile() || !e.name.endsWith('.html')) continue;
    const file = relative(dist, join(e.parentPath, e.name)).split(sep).join('/');
    const html = await readFile(join(dist, file), 'utf8');
    const canonical = html.match(/<link rel="canonical" href="([^"]*)">/);
    assert.ok(canonical, `${file} has a canonical link`);
    const noindex = /<meta name="robots" content="[^"]*noindex/i.test(html);
    const markdown = html.match(/<link rel="alternate" type="text\/markdown" href="([^"]*)">/)?.[1];
    pages.push({ file, canonical: unescapeHtml(canonical[1]!), noindex, ...(markdown ? { markdown: unescapeHtml(markdown) } : {}) });
  }
  return pages.sort((a, b) => (a.file < b.file ? -1 : 1));
}

/** The URL a page file is served at: each folder name is a path segment, `encodeURIComponent`ed as `paths.ts` does. */
const urlOfFile = (baseUrl: string, file: string) => `${baseUrl}/${file.replace(/index\.html$/, '').split('/').map((s) => (s === '' ? '' : encodeURIComponent(s))).join('/')}`;

/**
 * The check: every indexable page in dist/ is in the sitemap exactly once under its
 * canonical URL, and the sitemap lists nothing else. Intentional exclusions: pages that
 * carry `<meta name="robots" content="noindex">`: `404.html` alone, the page static hosts
 * answer for a missing path (it must not be an `index.html`: a folder would make it a page).
 */
async function assertSitemapListsEveryPage(dist: string, baseUrl: string): Promise<{ locs: string[]; pages: Page[] }> {
  const pages = await htmlPages(dist);
  assert.ok(pages.length > 0);
  assert.deepEqual(pages.filter((p) => p.noindex).map((p) => p.file), ['404.html'], 'the only page that asks not to be indexed is 404.html');
  for (const p of pages) {
    assert.ok(p.file.endsWith('/index.html') || p.file === 'index.html' || p.file === '404.html', `${p.file}: every HTML output is an index.html, but 404.html`);
    assert.equal(p.canonical, urlOfFile(baseUrl, p.file), `${p.file}: its canonical link is the URL it is served at`);
  }
  const locs = await sitemapLocs(dist, baseUrl);
  const seen = new Set<string>();
  for (const loc of locs) {
    assert.ok(!seen.has(loc), `${loc} is listed once`);
    seen.add(loc);
    const url = new URL(loc);
    assert.equal(url.href, loc, `${loc} is an absolute URL in normal form`);
    assert.ok(loc.startsWith(`${baseUrl}/`), `${loc} is on the site`);
  }
  const indexable = pages.filter((p) => !p.noindex).map((p) => p.canonical);
  const excluded = pages.filter((p) => p.noindex).map((p) => p.canonical);
  const missing = indexable.filter((u) => !seen.has(u));
  const extra = locs.filter((u) => !indexable.includes(u));
  assert.deepEqual({ missing, extra }, { missing: [], extra: [] }, 'the sitemap lists exactly the indexable pages');
  for (const u of excluded) assert.ok(!seen.has(u), `${u} is noindex and not listed`);
  return { locs, pages };
}

/** Every page's head names its markdown twin (spec 4.1), and the twin is a file of the site. */
async function assertMarkdownTwins(dist: string, pages: Page[]): Promise<void> {
  for (const p of pages) {
    assert.ok(p.markdown, `${p.file} has <link rel="alternate" type="text/markdown">`);
    const path = new URL(p.markdown, p.canonical).pathname;
    const file = path.split('/').map(decodeURIComponent).join('/');
    await readFile(join(dist, file)).catch(() => assert.fail(`${p.file}: its markdown alternate ${p.markdown} (${file}) is no file of dist/`));
  }
}

test('sitemap of the sample site', async (t) => {
  const project = await makeProject({ samplePosts: true, catalog: true });
  t.after(() => project.remove());
  await build(project.config);
  const dist = project.config.distDir;
  const base = project.config.site.baseUrl;

  await t.test('should list every emitted HTML page exactly once, under its canonical URL, and nothing else', async () => {
    const { locs, pages } = await assertSitemapListsEveryPage(dist, base);
    assert.equal(locs.length, pages.length - 1, 'every page but 404.html');
  });

  await t.test('should name a markdown twin that exists in every page head, list pages too', async () => {
    await assertMarkdownTwins(dist, await htmlPages(dist));
  });

  await t.test('should list the model pages (with encoded names) and /search/', async () => {
    const locs = new Set(await sitemapLocs(dist, base));
    const models = [...locs].filter((u) => u.startsWith(`${base}/models/`));
    assert.equal(models.length, 7, models.join('\n'));
    assert.ok(locs.has(`${base}/models/Claude%20Opus%204.1/`), 'a model name with spaces, encoded as its page URL is');
    assert.ok(locs.has(`${base}/models/human%3Ajaeyoung/`), 'a model name with a colon, encoded as its page URL is');
    assert.ok(locs.has(`${base}/search/`));
  });

  await t.test('should leave out non-page outputs', async () => {
    const locs = await sitemapLocs(dist, base);
    for (const loc of locs) {
      assert.ok(loc.endsWith('/'), `${loc} is a page URL`);
      assert.doesNotMatch(loc, /\/(api|assets|pagefind)\/|post\.md|\.(json|atom|txt|xml|md)$/, `${loc} is not a mirror, feed or document`);
    }
  });
});

test('sitemap of a site with paginated lists and names that need encoding', async (t) => {
  const models = ['meta/llama-3', 'Claude Opus 4.1', '.hidden', 'R&D <bot>', '100%', '모델'];
  const files: Record<string, string> = { 'agora.config.json': JSON.stringify({ pageSize: 2 }) };
  for (let i = 0; i < 13; i++) {
    const model = models[i % models.length]!;
    files[`content/posts/2025-05-${String(i + 10)}-p${i}.md`] = postSource({ title: `P${i}`, date: `2025-05-${i + 10}`, model, tags: i % 2 ? 'R&D, nginx' : 'nginx, 한국어 형태소', category: i % 3 ? 'guide' : 'reviews' });
  }
  const project = await makeProject({ files, catalog: true });
  t.after(() => project.remove());
  await build(project.config);
  const dist = project.config.distDir;
  const base = project.config.site.baseUrl;

  await t.test('should list every page of every list, page 2 onwards included', async () => {
    const { locs } = await assertSitemapListsEveryPage(dist, base);
    for (const u of ['/page/2/', '/page/6/', '/guide/page/4/', '/tags/nginx/page/6/', '/models/meta%252Fllama-3/page/2/']) {
      assert.ok(locs.includes(`${base}${u}`), `${u} listed`);
    }
  });

  await t.test('should name the list\'s markdown twin on every page of a list, for names that need encoding too', async () => {
    const pages = await htmlPages(dist);
    assert.ok(pages.some((p) => p.file === 'models/meta%2Fllama-3/page/2/index.html'));
    await assertMarkdownTwins(dist, pages);
  });

  await t.test('should list model names as their pages are named (paths.ts encoding)', async () => {
    const locs = new Set(await sitemapLocs(dist, base));
    for (const u of ['/models/meta%252Fllama-3/', '/models/%252Ehidden/', '/models/R%26D%20%3Cbot%3E/', '/models/100%2525/', '/models/%EB%AA%A8%EB%8D%B8/', '/tags/r%26d/']) {
      assert.ok(locs.has(`${base}${u}`), `${u} listed`);
    }
  });
});

test('sitemap entries are XML-escaped and split past the sitemaps.org limits', async (t) => {
  const project = await makeProject({ files: { 'content/posts/p.md': postSource({ model: 'R&D', tags: 'a' }) } });
  t.after(() => project.remove());
  const { state } = await build(project.config);
  const site: SiteModel = { ...state.site, config: { ...state.site.config, baseUrl: 'https://agora.example/a&b' } };

  await t.test('should escape & in a base URL and keep every loc absolute', () => {
    const [only] = emitSitemap(site);
    assert.equal(only?.path, 'sitemap.xml');
    assert.doesNotMatch(only!.body, /&(?!amp;|lt;|gt;|quot;|apos;)/, 'no bare &');
    const { urls } = parseSitemap(only!.body, 'sitemap.xml');
    assert.ok(urls.every((u) => u.loc.startsWith('https://agora.example/a&b/')));
    assert.ok(urls.some((u) => u.loc === 'https://agora.example/a&b/models/R%26D/'));
  });

  await t.test('should split by size as well as by count', () => {
    const all = emitSitemap(site);
    const bytes = Buffer.byteLength(all[0]!.body);
    // A byte limit that holds about half the entries: an index over several files, each within it.
    const outputs = emitSitemap(site, MAX_URLS, Math.ceil(bytes / 2));
    assert.ok(outputs.length >= 3, outputs.map((o) => o.path).join(', '));
    assert.equal(outputs.at(-1)?.path, 'sitemap.xml');
    const index = parseSitemap(outputs.at(-1)!.body, 'sitemap.xml');
    assert.equal(index.children.length, outputs.length - 1);
    const locs: string[] = [];
    for (const o of outputs.slice(0, -1)) {
      assert.ok(Buffer.byteLength(o.body) <= Math.ceil(bytes / 2), `${o.path} within the byte limit`);
      locs.push(...parseSitemap(o.body, o.path).urls.map((u) => u.loc));
    }
    assert.deepEqual(locs, parseSitemap(all[0]!.body, 'sitemap.xml').urls.map((u) => u.loc), 'the same URLs, in the same order');
  });
});

test('sitemap after incremental rebuilds', async (t) => {
  const files: Record<string, string> = { 'agora.config.json': JSON.stringify({ pageSize: 2 }) };
  for (let i = 1; i <= 4; i++) files[`content/posts/2025-05-0${i}-p${i}.md`] = postSource({ title: `P${i}`, date: `2025-05-0${i}`, model: i % 2 ? 'gpt-5' : 'claude', tags: 'redis' });
  const project = await makeProject({ files });
  t.after(() => project.remove());
  const dist = project.config.distDir;
  const base = project.config.site.baseUrl;
  const path = (name: string) => join(project.root, 'content/posts', name);
  const sitemapKey = (site: SiteModel) => createJobKeyer(site, 'fingerprint')({ kind: 'sitemap' });

  await t.test('should list a model and tag page that appear with a new post, and drop them when it goes (agora dev)', async () => {
    const { state } = await build(project.config, { longLived: true });
    try {
      state.prepareEdits();
      await assertSitemapListsEveryPage(dist, base);
      const keyBefore = sitemapKey(state.site);

      await writeFile(path('2025-05-09-new.md'), postSource({ title: 'New', date: '2025-05-09', model: 'brand/new model', tags: 'fresh tag, redis' }));
      const added = await state.updateSources([path('2025-05-09-new.md')]);
      assert.notEqual(sitemapKey(state.site), keyBefore, 'the sitemap key changes with a new model and tag');
      assert.ok(added.written.includes('sitemap.xml'), `sitemap rewritten: ${added.written.join(', ')}`);
      let locs = new Set((await assertSitemapListsEveryPage(dist, base)).locs);
      assert.ok(locs.has(`${base}/models/brand%252Fnew%20model/`));
      assert.ok(locs.has(`${base}/tags/fresh-tag/`));
      assert.ok(locs.has(`${base}/tags/redis/page/3/`), 'a list that grew a page');

      const keyWith = sitemapKey(state.site);
      await rm(path('2025-05-09-new.md'));
      const removed = await state.updateSources([path('2025-05-09-new.md')]);
      assert.notEqual(sitemapKey(state.site), keyWith, 'the sitemap key changes when the model and tag pages go');
      assert.ok(removed.written.includes('sitemap.xml'));
      locs = new Set((await assertSitemapListsEveryPage(dist, base)).locs);
      assert.ok(!locs.has(`${base}/models/brand%252Fnew%20model/`));
      assert.ok(!locs.has(`${base}/tags/fresh-tag/`));
      assert.ok(!locs.has(`${base}/tags/redis/page/3/`));
    } finally {
      await state.close();
    }
  });

  await t.test('should list a new model page after a one-off rebuild that reads the manifest, and leave an unchanged site alone', async () => {
    await writeFile(path('2025-05-10-other.md'), postSource({ title: 'Other', date: '2025-05-10', model: 'Other Model', tags: 'other' }));
    const { result } = await build(project.config);
    assert.ok(result.written.includes('sitemap.xml'), `sitemap rewritten: ${result.written.join(', ')}`);
    const { locs } = await assertSitemapListsEveryPage(dist, base);
    assert.ok(locs.includes(`${base}/models/Other%20Model/`));
    assert.ok(locs.includes(`${base}/tags/other/`));
    // The post's model renamed: one model page goes, another comes.
    await writeFile(path('2025-05-10-other.md'), postSource({ title: 'Other', date: '2025-05-10', model: 'Renamed', tags: 'other' }));
    const renamed = await build(project.config);
    assert.ok(renamed.result.written.includes('sitemap.xml'));
    const after = (await assertSitemapListsEveryPage(dist, base)).locs;
    assert.ok(after.includes(`${base}/models/Renamed/`) && !after.includes(`${base}/models/Other%20Model/`));
    const again = await build(project.config);
    assert.ok(!again.result.written.includes('sitemap.xml'), `a warm build skips the sitemap: ${again.result.written.join(', ')}`);
  });
});
