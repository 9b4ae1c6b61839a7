/**
 * What a site serves, for the `dead-link` rule (`validate/dead-link.ts`): every file a
 * full build writes, from the build's own job list (`model/jobs.ts`) through the paths
 * code its emitters use (`JOB_FILES`: one entry per job kind, which the compiler keeps
 * complete, as `EMITTERS` in `index.ts`; a test compares it with the files a build
 * writes), the files whose number follows sizes (`llms-full-N.txt`, `sitemap-N.xml`) or
 * that Pagefind writes, by their form, and the writer's fixed paths the OpenAPI
 * document names (`/api/search`, `/mcp` …). A path is looked up as the site's servers
 * look up a request (`writer/src/routes/static.ts`, static hosts): `…/` is
 * `…/index.html`, and a folder named without its slash is found (they redirect).
 */
import type { Post, SiteModel } from '../types.ts';
import type { LinkTargets } from '../validate/dead-link.ts';
import { CATEGORIES } from '../types.ts';
import { listJobs, type Job } from '../model/jobs.ts';
import { postsByModel, postsOfCategory } from '../model/site.ts';
import { postsByTag } from '../model/tags.ts';
import { modelDir, postDir, tagDir, toFileName } from '../paths.ts';
import { paginate, pageFile } from '../render/pages/pagination.ts';
import { emitAssets } from './assets.ts';
import { emitOpenApi } from './openapi.ts';

type JobFiles = { [K in Job['kind']]: (site: SiteModel, job: Extract<Job, { kind: K }>) => readonly string[] };

/** Every page of a list: `{dir}/index.html`, `{dir}/page/2/index.html` … */
const listFiles = (site: SiteModel, dir: string, posts: readonly Post[]) => paginate(posts, site.config.pageSize).map((page) => pageFile(dir, page.number));
const feedFiles = (dir: string, name = 'feed') => [`${dir === '' ? '' : `${dir}/`}${name}.atom`, `${dir === '' ? '' : `${dir}/`}${name}.json`];
const postFolder = (site: SiteModel, slug: string) => {
  const post = site.bySlug.get(slug)!;
  return postDir(post.category, post.slug);
};
let assetFiles: string[] | undefined;

/** The dist-relative files each job of a full build writes (`emit/index.ts` has the emitter of each). */
const JOB_FILES: JobFiles = {
  'post-page': (site, job) => [`${postFolder(site, job.slug)}/index.html`],
  'post-md': (site, job) => [`${postFolder(site, job.slug)}/post.md`],
  // Images and PDFs beside a post: which are copied depends on the disk (`validate/local-files.ts`),
  // and `dead-link` never looks them up (links to such files are rule `local-file`'s).
  'post-files': () => [],
  'api-post': (_, job) => [`api/post/${toFileName(job.slug)}`],
  'api-comments': (_, job) => [`api/comments/${toFileName(job.slug)}`],
  'api-posts': () => ['api/posts'],
  'api-category': (_, job) => [`api/category/${job.category}`],
  'api-model': (_, job) => [`api/model/${toFileName(job.model)}`],
  'api-comment-count': () => ['api/comments/count'],
  'api-views': () => ['api/views'],
  home: (site) => listFiles(site, '', site.posts),
  'category-page': (site, job) => listFiles(site, job.category, postsOfCategory(site, job.category)),
  'comments-page': () => ['comments/index.html'],
  'debates-page': () => ['debates/index.html'],
  'llms-txt': () => ['llms.txt'],
  // Its parts (`llms-full-N.txt`) depend on token counts: see `SPLIT_OR_INDEXED`.
  'llms-full-txt': () => ['llms-full.txt'],
  'agents-md': () => ['agents.md'],
  'markdown-twins': (site) => [
    'index.md',
    ...CATEGORIES.filter((c) => c !== 'debates').map((c) => `${c}/index.md`),
    ...(site.catalog ? ['agencatalog/index.md', ...site.catalog.services.map((s) => `agencatalog/${toFileName(s.slug)}/index.md`)] : []),
  ],
  'comment-twins': () => ['comments/index.md', 'debates/index.md'],
  // Past 50,000 URLs also `sitemap-N.xml`: see `SPLIT_OR_INDEXED`.
  sitemap: () => ['sitemap.xml'],
  robots: () => ['robots.txt'],
  headers: () => ['_headers'],
  assets: () => (assetFiles ??= emitAssets().map((o) => o.path)),
  openapi: () => ['openapi.json'],
  catalog: (site) => (site.catalog ? ['agencatalog/catalog.json', 'agencatalog/index.html', ...site.catalog.services.map((s) => `agencatalog/${toFileName(s.slug)}/index.html`)] : []),
  'api-tag': (_, job) => [`api/tag/${toFileName(job.tag)}`],
  'tags-page': () => ['tags/index.html', 'tags/index.md'],
  'tag-page': (site, job) => [...listFiles(site, tagDir(job.tag), postsByTag(site).get(job.tag)?.posts ?? []), `${tagDir(job.tag)}/index.md`],
  'model-page': (site, job) => [...listFiles(site, modelDir(job.model), postsByModel(site).get(job.model) ?? []), `${modelDir(job.model)}/index.md`],
  'search-page': () => ['search/index.html', 'search/index.md'],
  'not-found-page': () => ['404.html', '404.md'],
  'site-feed': () => feedFiles(''),
  'category-feed': (_, job) => feedFiles(job.category),
  'tag-feed': (_, job) => feedFiles(tagDir(job.tag)),
  'comments-feed': () => feedFiles('comments'),
  'post-comments-feed': (site, job) => feedFiles(postFolder(site, job.slug), 'comments'),
};

/** Files a build writes beside its jobs' (Pagefind's index and its shard list), or whose number depends on sizes (the split llms-full and sitemap). */
const SPLIT_OR_INDEXED = /^(?:pagefind(?:-\d+)?\/.+|search-shards\.json|llms-full-\d+\.txt|sitemap-\d+\.xml)$/;

/** The dist-relative path of every file a full build of this site writes (Pagefind's and the split files aside). */
export function siteFiles(site: SiteModel): Set<string> {
  const files = new Set<string>();
  for (const job of listJobs(site, { kind: 'full' })) {
    for (const file of (JOB_FILES[job.kind] as (site: SiteModel, job: Job) => readonly string[])(site, job)) files.add(file);
  }
  return files;
}

/** The files of a full build of `site` and the writer's fixed endpoints, as one lookup. */
export function siteTargets(site: SiteModel): LinkTargets {
  const files = siteFiles(site);
  const document = JSON.parse(emitOpenApi(site).body) as { paths: Record<string, unknown> };
  const endpoints = new Set(Object.keys(document.paths).filter((p) => !p.includes('{')));
  return {
    has(path) {
      const file = path.slice(1);
      if (endpoints.has(path)) return true;
      if (path.endsWith('/')) return files.has(`${file}index.html`);
      return files.has(file) || files.has(`${file}/index.html`) || SPLIT_OR_INDEXED.test(file);
    },
    tags: new Set(postsByTag(site).keys()),
  };
}
