/**
 * Temporary Agora projects for tests: a folder with content/, and a config pointing
 * dist/, data/ and .cache/ inside it. Real files on disk, removed after the test.
 */
import { mkdtemp, mkdir, writeFile, cp, rm } from 'node:fs/promises';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig, type AgoraConfig } from '@agora/generator';

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface TestProject {
  root: string;
  config: AgoraConfig;
  /** Write a file relative to the project root. */
  write(path: string, text: string): Promise<void>;
  remove(): Promise<void>;
}

export interface ProjectOptions {
  /** Copy the repository's sample posts (default false). */
  samplePosts?: boolean;
  /** Copy the repository's catalog (default false). */
  catalog?: boolean;
  /** Extra files: path relative to the root → content. */
  files?: Record<string, string>;
  env?: NodeJS.ProcessEnv;
  baseUrl?: string;
  port?: number;
  /** Write the Pagefind index on builds (default false: it costs ~1 s per build; the search tests turn it on). */
  searchIndex?: boolean;
  /** Most post pages per search index shard (default 1000; small values split a small test site). */
  searchShardPages?: number;
}

export async function makeProject(options: ProjectOptions = {}): Promise<TestProject> {
  const root = await mkdtemp(join(tmpdir(), 'agora-test-'));
  await mkdir(join(root, 'content', 'posts'), { recursive: true });
  if (options.samplePosts) await cp(join(REPO_ROOT, 'content', 'posts'), join(root, 'content', 'posts'), { recursive: true });
  if (options.catalog) await cp(join(REPO_ROOT, 'content', 'catalog'), join(root, 'content', 'catalog'), { recursive: true });
  const write = async (path: string, text: string) => {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  };
  for (const [path, text] of Object.entries(options.files ?? {})) await write(path, text);
  const config = loadConfig({
    root,
    env: { ...(options.env ?? {}) },
    overrides: { port: options.port ?? 0, host: '127.0.0.1', searchIndex: options.searchIndex ?? false, ...(options.searchShardPages ? { searchShardPages: options.searchShardPages } : {}), site: { baseUrl: options.baseUrl ?? 'https://agora.example' } },
  });
  // Retries: a test's `after` hooks run in order, so the project may be removed while its
  // server still writes a last aggregate (ENOTEMPTY); the retry outlasts that write.
  const remove = () => {
    removed.add(root);
    return rm(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  };
  return { root, config, write, remove };
}

/**
 * Projects removed by a test, removed again as the test file's process exits: in the many
 * tests that register `project.remove()` before the close of their server, state or child
 * (`after` hooks run in the order registered), the close saves the build manifest (or a
 * killed child's last write lands) after the removal, and left a folder of only
 * `.cache/manifest.json` in the system's temporary folder for every such test run.
 */
const removed = new Set<string>();
process.once('exit', () => {
  for (const root of removed) rmSync(root, { recursive: true, force: true });
});

/** A valid post source. */
export function postSource(fields: Partial<Record<'title' | 'date' | 'model' | 'category' | 'summary' | 'tags' | 'author_type', string>> = {}, body = 'The conclusion comes first.\n\n## Detail\n\n```bash\necho ok\n```\n'): string {
  const f = { title: 'A title', date: '2025-05-01', model: 'gpt-5', category: 'guide', summary: 'A summary.', tags: 'a, b', ...fields };
  const lines = ['---', `title: ${JSON.stringify(f.title)}`, `date: ${f.date}`, `model: ${JSON.stringify(f.model)}`, `category: ${f.category}`, `summary: ${JSON.stringify(f.summary)}`, `tags: ${f.tags}`];
  if (f.author_type) lines.push(`author_type: ${f.author_type}`);
  lines.push('---', body);
  return lines.join('\n');
}

/**
 * `agora.config.json` with every rate limit off, for tests that post or count far
 * more than one client may (they test storage and concurrency, not abuse limits).
 */
export const NO_RATE_LIMITS = JSON.stringify({
  limits: { commentsPerIpPerMinute: 0, commentsPerPostPerHour: 0, commentsPerSitePerHour: 0, viewsPerIpPerMinute: 0, publicDataPerIpPerMinute: 0, proxyPerIpPerMinute: 0, agentDirectoryFetchesPerIpPerMinute: 0, duplicateWindowSeconds: 0 },
});
