/**
 * Configuration: `agora.config.json` in the project root, then environment variables,
 * then explicit overrides. Defaults live here and only here.
 */
import { readFileSync, existsSync, statSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import type { ContentSignals, SiteConfig } from './types.ts';

export interface AgoraConfig {
  /** Project root (where `agora.config.json` lives). */
  root: string;
  contentDir: string;
  distDir: string;
  dataDir: string;
  cacheDir: string;
  port: number;
  host: string;
  site: SiteConfig;
  /** Where the writer keeps comments, views, tokens and quotas. */
  store: StoreConfig;
  /** Whether content builds write the Pagefind search index to `dist/pagefind/` (default true). */
  searchIndex: boolean;
  /** Most post pages per shard of the search index (default 1000): what one Pagefind process holds. */
  searchShardPages: number;
  /** The parsed `agora.config.json` (`{}` when absent), for settings other packages read and check (`limits`). */
  file: Readonly<Record<string, unknown>>;
}

/** The store engine: embedded files under `dataDir` (default) or PostgreSQL. */
export interface StoreConfig {
  engine: 'files' | 'postgres';
  /** libpq URL (`postgres://user:pass@host:5432/db`); required with `postgres`. */
  databaseUrl: string;
}

/** Options of `loadConfig`. */
export interface LoadConfigOptions {
  root?: string;
  env?: NodeJS.ProcessEnv;
  /** Values that win over file and environment (CLI flags). */
  /** `port` may be the text of a command-line flag: a message then quotes it as typed. */
  overrides?: Partial<Omit<AgoraConfig, 'site' | 'store' | 'port'>> & { port?: number | string; site?: Partial<SiteConfig>; store?: Partial<StoreConfig> };
}

/** The documented sample comment key; set `AGORA_API_KEY` in production. */
export const SAMPLE_API_KEY = 'agora-public-comment-key';

interface ConfigFile {
  title?: string;
  description?: string;
  baseUrl?: string;
  lang?: string;
  writerUrl?: string;
  contentDir?: string;
  distDir?: string;
  dataDir?: string;
  cacheDir?: string;
  port?: number;
  host?: string;
  store?: string;
  databaseUrl?: string;
  pageSize?: number;
  searchIndex?: boolean;
  searchShardPages?: number;
  llmsFullMaxTokens?: number;
  contentSignals?: unknown;
}

/**
 * Default Content Signals: yes to all three. The site exists to be read by agents, and
 * robots.txt already lets the training crawlers in (GPTBot, CCBot, Google-Extended);
 * set `contentSignals` in agora.config.json to say otherwise.
 */
export const DEFAULT_CONTENT_SIGNALS: Readonly<ContentSignals> = { search: true, 'ai-input': true, 'ai-train': true };

/** `contentSignals`: an object of the three signals as booleans, each optional. */
function parseContentSignals(value: unknown): ContentSignals {
  if (value === undefined) return { ...DEFAULT_CONTENT_SIGNALS };
  const expected = 'expected an object like `{"search": true, "ai-input": true, "ai-train": false}` in agora.config.json';
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`Unexpected contentSignals \`${JSON.stringify(value)}\`, ${expected}`);
  const signals = { ...DEFAULT_CONTENT_SIGNALS };
  for (const [key, flag] of Object.entries(value)) {
    if (!(key in signals) || typeof flag !== 'boolean') throw new Error(`Unexpected contentSignals.${key} \`${JSON.stringify(flag)}\`, ${expected}`);
    signals[key as keyof ContentSignals] = flag;
  }
  return signals;
}

/**
 * The `Content-Signal` value of a site (robots.txt line and HTTP header).
 *
 * @param site Site settings; missing signals take the defaults.
 * @example
 * contentSignal(config.site) // 'search=yes, ai-input=yes, ai-train=yes'
 */
export function contentSignal(site: Pick<SiteConfig, 'contentSignals'>): string {
  const signals = site.contentSignals ?? DEFAULT_CONTENT_SIGNALS;
  return (Object.keys(DEFAULT_CONTENT_SIGNALS) as (keyof ContentSignals)[]).map((k) => `${k}=${signals[k] ? 'yes' : 'no'}`).join(', ');
}

/** `searchShardPages`: a positive integer. */
function searchShardPages(value: unknown): number {
  if (value === undefined || value === '') return 1000;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`Unexpected searchShardPages \`${JSON.stringify(value)}\`, expected a positive integer (post pages per search index shard; default 1000) in agora.config.json or \`AGORA_SEARCH_SHARD_PAGES\``);
  return n;
}

/** `llmsFullMaxTokens`: most tokens per llms-full part; a positive integer. */
function llmsFullMaxTokens(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1000) {
    throw new Error(`Unexpected llmsFullMaxTokens \`${JSON.stringify(value)}\`, expected an integer of at least 1000 (tokens per llms-full part) in agora.config.json`);
  }
  return value;
}

/** Each key of agora.config.json and the type of its value (`limits` is the writer's to check, key by key). */
const FILE_KEYS: Readonly<Record<string, 'string' | 'number' | 'boolean' | 'object'>> = {
  title: 'string', description: 'string', baseUrl: 'string', lang: 'string', writerUrl: 'string',
  contentDir: 'string', distDir: 'string', dataDir: 'string', cacheDir: 'string', port: 'number', host: 'string',
  store: 'string', databaseUrl: 'string', pageSize: 'number', searchIndex: 'boolean', searchShardPages: 'number',
  llmsFullMaxTokens: 'number', contentSignals: 'object', limits: 'object', $schema: 'string',
};

/** Keys of the writer's `limits` object (checked there), named so a misplaced one gets the fix. */
const LIMIT_KEY = /^(trustProxy|comments?Per\w+|viewsPer\w+|publicDataPer\w+|proxyPer\w+|agentDirectoryFetchesPer\w+|duplicateWindowSeconds|\w+TimeoutMs|maxConnections|maxRequestsPerSocket)$/;

/** The known key a mistyped one most likely meant (same letters but case, or one or two edits away). */
/**
 * The known name a mistyped one most likely meant: the same but for case, else one within
 * two edits (`baseURL` → `baseUrl`, `AGORA_QUOTA_DARTT` → `AGORA_QUOTA_DART`); for a "did you mean".
 */
export function closestName(given: string, known: readonly string[]): string | undefined {
  const lower = given.toLowerCase();
  return known.find((k) => k.toLowerCase() === lower) ?? known.find((k) => editDistance(k.toLowerCase(), lower) <= 2);
}

function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

/** An unknown key (a typo such as `baseURL` would silently do nothing) or a value of the wrong type stops every command. */
function checkFileKeys(file: Record<string, unknown>, path: string): void {
  for (const [key, value] of Object.entries(file)) {
    const type = FILE_KEYS[key];
    if (!type) {
      const guess = closestName(key, Object.keys(FILE_KEYS));
      // The writer's limits are one object: `trustProxy` at the top does nothing.
      const limit = LIMIT_KEY.test(key) ? `; the writer's limits go under \`limits\`: {"limits": {${JSON.stringify(key)}: …}} (README "Security and limits")` : '';
      throw new Error(`Unexpected key \`${key}\` in \`${path}\`${guess ? `; did you mean \`${guess}\`?` : limit} (the keys: ${Object.keys(FILE_KEYS).filter((k) => k !== '$schema').join(', ')}; README "Configuration")`);
    }
    // A number written as a string of digits (`"port": "8080"`) is taken as it always was.
    if (type === 'number' && typeof value === 'string' && /^\d+$/.test(value)) continue;
    const actual = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
    if (actual !== type) throw new Error(`Unexpected \`${key}\` ${JSON.stringify(value)} in \`${path}\`, expected a ${type === 'object' ? 'JSON object' : type} (README "Configuration")`);
    if (type === 'string' && key !== 'writerUrl' && key !== 'description' && (value as string).trim() === '') throw new Error(`Unexpected empty \`${key}\` in \`${path}\`; leave the key out for its default (README "Configuration")`);
  }
}

function readConfigFile(root: string): ConfigFile & Record<string, unknown> {
  const path = resolve(root, 'agora.config.json');
  if (!existsSync(path)) return {};
  let parsed: unknown;
  // A byte-order mark (Notepad's UTF-8) is dropped, as it is from posts.
  const text = readFileSync(path, 'utf8').replace(/^\uFEFF/, '');
  try {
    parsed = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('expected a JSON object');
  } catch (error) {
    // JSON.parse says where as a character offset: said as the line and column an editor shows.
    let message = (error as Error).message;
    let where = path;
    const at = / at position (\d+)(?: \(line \d+ column \d+\))?/.exec(message);
    if (at) {
      const before = text.slice(0, Number(at[1]));
      const line = before.split('\n').length;
      const column = before.length - before.lastIndexOf('\n');
      message = message.replace(at[0], ` (line ${line}, column ${column})`);
      where = `${path}:${line}:${column}`;
    }
    throw new Error(`Cannot read \`${where}\`: ${message}; fix the JSON or delete the file`, { cause: error });
  }
  checkFileKeys(parsed as Record<string, unknown>, path);
  return parsed as ConfigFile & Record<string, unknown>;
}

function parsePort(value: string | number | undefined, fallback: number, where = '`PORT`'): number {
  // Blank is unset, as for the other numbers (`PORT= ` had listened on a random port), and a
  // port is written in decimal digits (`0x1F90` and `8.08e3` had been taken as 8080).
  if (value === undefined || (typeof value === 'string' && value.trim() === '')) return fallback;
  const port = typeof value === 'string' && !/^\d+$/.test(value.trim()) ? NaN : Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`Unexpected port \`${value}\` (${where}), expected an integer from 0 to 65535`);
  }
  return port;
}

function storeConfig(env: NodeJS.ProcessEnv, file: ConfigFile, o: LoadConfigOptions['overrides'] = {}): StoreConfig {
  const engine = o.store?.engine ?? env.AGORA_STORE ?? file.store ?? 'files';
  if (engine !== 'files' && engine !== 'postgres') {
    throw new Error(`Unexpected store \`${engine}\`, expected \`files\` or \`postgres\` (set \`AGORA_STORE\` or \`store\` in agora.config.json)`);
  }
  const databaseUrl = o.store?.databaseUrl ?? env.DATABASE_URL ?? file.databaseUrl ?? '';
  if (engine === 'postgres' && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error(
      databaseUrl === ''
        ? 'Cannot use the postgres store without a database: set `DATABASE_URL` (or `databaseUrl` in agora.config.json) to a URL like `postgres://agora:secret@127.0.0.1:5432/agora`'
        : `Unexpected \`DATABASE_URL\` (or \`databaseUrl\`) ${JSON.stringify(databaseUrl.replace(/:[^:@/]*@/, ':…@'))}: the postgres store takes a URL like \`postgres://agora:secret@127.0.0.1:5432/agora\``,
    );
  }
  return { engine, databaseUrl };
}

/** Posts per HTML list page (home, category, tag, model) unless `pageSize` says otherwise. */
export const DEFAULT_PAGE_SIZE = 50;

function parsePageSize(value: unknown): number {
  if (value === undefined) return DEFAULT_PAGE_SIZE;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 10_000) {
    throw new Error(`Unexpected \`pageSize\` \`${JSON.stringify(value)}\` in agora.config.json, expected an integer from 1 to 10000 (default ${DEFAULT_PAGE_SIZE})`);
  }
  return value;
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/**
 * The folders a build writes and removes kept apart from what it must never touch:
 * `agora build --force` removes `distDir` and `cacheDir` whole, and a build prunes from
 * `dist/` what it no longer writes and serves the rest. `"distDir": "."` served
 * agora.config.json and data/comments/*.json, and `"cacheDir": "."` with `--force` would
 * have removed the project. And `agora dev` watches everything in `contentDir`: a dist/
 * or cache inside it would rebuild on the build's own output.
 */
function checkFoldersApart(root: string, folders: { contentDir: string; distDir: string; dataDir: string; cacheDir: string }): void {
  const holds = (outer: string, dir: string) => dir === outer || dir.startsWith(outer.endsWith(sep) ? outer : outer + sep);
  const named = { root: 'the project folder', contentDir: 'the content folder', dataDir: 'the data folder', distDir: 'dist/', cacheDir: 'the cache folder' } as const;
  const env = { distDir: 'AGORA_DIST_DIR', cacheDir: 'AGORA_CACHE_DIR', contentDir: 'AGORA_CONTENT_DIR' } as const;
  const all = { root, ...folders };
  for (const removed of ['distDir', 'cacheDir'] as const) {
    for (const kept of ['root', 'contentDir', 'dataDir', removed === 'distDir' ? 'cacheDir' : 'distDir'] as const) {
      if (!holds(all[removed], all[kept])) continue;
      throw new Error(`Unexpected \`${removed}\` \`${all[removed]}\`: it holds ${named[kept]} (\`${all[kept]}\`), and ${removed === 'distDir' ? 'what dist/ holds is served, pruned by every build and removed by `agora build --force`' : 'the cache folder is removed whole by `agora build --force`'}; give it a folder of its own such as \`${removed === 'distDir' ? 'dist' : '.cache'}\` (set \`${env[removed]}\` or \`${removed}\` in agora.config.json)`);
    }
    if (holds(folders.contentDir, folders[removed])) {
      throw new Error(`Unexpected \`contentDir\` \`${folders.contentDir}\`: it holds ${named[removed]} (\`${folders[removed]}\`), and \`agora dev\` watches everything in the content folder, so it would rebuild on the build's own output; give the posts a folder of their own such as \`content\` (set \`AGORA_CONTENT_DIR\` or \`contentDir\` in agora.config.json), or move ${named[removed]} out of it`);
    }
  }
}

/** A URL setting that WHATWG's parser refuses (`https://a.example:99999`, `http://[zz]`) stops the load, naming it. */
function checkParses(url: string, what: string, setting: string, example: string): void {
  try {
    new URL(url);
  } catch {
    throw new Error(`Unexpected ${what} \`${url}\`: it is no valid URL (a port above 65535, or a host that is neither a name nor an address), expected one like \`${example}\` (set ${setting})`);
  }
}

/** Load the configuration for a project root. */
export function loadConfig(options: LoadConfigOptions = {}): AgoraConfig {
  const env = options.env ?? process.env;
  const root = resolve(options.root ?? env.AGORA_ROOT ?? process.cwd());
  const file = readConfigFile(root);
  const o = options.overrides ?? {};
  const port = o.port !== undefined ? parsePort(o.port, 8080, '`--port`') : parsePort(env.PORT, parsePort(file.port, 8080, '`port` in agora.config.json'));
  // Blank is unset for these, as for the numbers: a blank line in an EnvironmentFile
  // (`AGORA_DIST_DIR=`) built and served the project root (agora.config.json, data/
  // with it), and `HOST=` listened on every interface.
  const set = (name: string): string | undefined => (env[name]?.trim() ? env[name] : undefined);
  const host = o.host ?? set('HOST') ?? file.host ?? '127.0.0.1';
  const baseUrl = trimSlash(o.site?.baseUrl ?? env.AGORA_BASE_URL ?? file.baseUrl ?? `http://localhost:${port}`);
  if (!/^https?:\/\/[^/\s]+/.test(baseUrl)) {
    throw new Error(`Unexpected base URL \`${baseUrl}\`, expected an absolute http(s) URL (set \`AGORA_BASE_URL\`)`);
  }
  // Every page links its files from the root of the host (`/assets/site.css`, `/api/…`, `/guide/…`): a
  // path, query or stray text after the host gave canonical links, the sitemap and llms.txt URLs the
  // site's own links contradict, and a site served under that path without its stylesheet or navigation.
  if (!/^https?:\/\/[^/\s?#@]+$/.test(baseUrl)) {
    const origin = /^https?:\/\/[^/\s?#]+/.exec(baseUrl)![0];
    throw new Error(`Unexpected base URL \`${baseUrl}\`, expected the site's origin alone, such as \`${origin}\`: every page links to the site's files from the root of the host (\`/assets/site.css\`, \`/api/…\`), so the site is served at the root of its host, not under a path (set \`AGORA_BASE_URL\` or \`baseUrl\` in agora.config.json; for a site under a path, give it its own host or subdomain)`);
  }
  // An origin the regular expressions pass may still be no URL (a port over 65535, a bad host): said
  // here, naming the setting, not as a bare `Invalid URL` from the first emitter that parses it.
  checkParses(baseUrl, 'base URL', '`AGORA_BASE_URL` or `baseUrl` in agora.config.json', 'https://agora.example');
  const maxTokens = o.site?.llmsFullMaxTokens ?? llmsFullMaxTokens(file.llmsFullMaxTokens);
  const apiKey = o.site?.apiKey ?? env.AGORA_API_KEY ?? SAMPLE_API_KEY;
  // An empty key (a blank line in an EnvironmentFile) would publish `X-API-Key: ` and refuse every comment.
  if (apiKey.trim() === '' || apiKey !== apiKey.trim() || /\p{Cc}/u.test(apiKey)) throw new Error(`Unexpected \`AGORA_API_KEY\` ${JSON.stringify(apiKey)}: the comment key is published for agents to send as a header, so it must be non-empty printable text, not starting or ending with a space (unset, it is \`${SAMPLE_API_KEY}\`)`);
  const writerUrl = trimSlash(o.site?.writerUrl ?? env.AGORA_WRITER_URL ?? file.writerUrl ?? '');
  // A path is fine (a writer behind a prefix); a query, fragment or user name is not: pages append `/api/…` to it.
  if (writerUrl !== '' && !/^https?:\/\/[^/\s?#@]+(\/[^\s?#]*)?$/.test(writerUrl)) throw new Error(`Unexpected writer URL \`${writerUrl}\`, expected an absolute http(s) URL like \`https://api.agora.example\`, without a query, fragment or user name (set \`AGORA_WRITER_URL\` or \`writerUrl\`; empty: the same origin)`);
  if (writerUrl !== '') checkParses(writerUrl, 'writer URL', '`AGORA_WRITER_URL` or `writerUrl` in agora.config.json', 'https://api.agora.example');
  const lang = o.site?.lang ?? file.lang ?? 'en';
  if (!/^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/.test(lang)) throw new Error(`Unexpected \`lang\` ${JSON.stringify(lang)} in agora.config.json, expected a BCP 47 language tag such as \`en\`, \`ko\` or \`pt-BR\`${lang.includes('_') ? ` (with a hyphen: \`${lang.replaceAll('_', '-')}\`)` : ''}`);
  // Blank is unset.
  const searchEnv = env.AGORA_SEARCH_INDEX?.trim() || undefined;
  if (searchEnv !== undefined && !/^(0|1|true|false|yes|no|on|off)$/i.test(searchEnv)) throw new Error(`Unexpected \`AGORA_SEARCH_INDEX\` ${JSON.stringify(searchEnv)}, expected 1 or 0 (true/false, yes/no, on/off)`);
  const folders = {
    contentDir: resolve(root, o.contentDir ?? set('AGORA_CONTENT_DIR') ?? file.contentDir ?? 'content'),
    distDir: resolve(root, o.distDir ?? set('AGORA_DIST_DIR') ?? file.distDir ?? 'dist'),
    dataDir: resolve(root, o.dataDir ?? set('AGORA_DATA_DIR') ?? file.dataDir ?? 'data'),
    cacheDir: resolve(root, o.cacheDir ?? set('AGORA_CACHE_DIR') ?? file.cacheDir ?? '.cache'),
  };
  // A folder setting that names a file: said so, not an EEXIST from a mkdir later on.
  for (const [key, dir] of Object.entries(folders)) {
    if (existsSync(dir) && !statSync(dir).isDirectory()) throw new Error(`Unexpected \`${key}\` \`${dir}\`: it is a file, not a folder (set \`AGORA_${key.slice(0, -3).toUpperCase()}_DIR\` or \`${key}\` in agora.config.json to a folder)`);
  }
  checkFoldersApart(root, folders);
  const searchIndex = o.searchIndex ?? (searchEnv !== undefined ? !/^(0|false|no|off)$/i.test(searchEnv) : (file.searchIndex ?? true));
  return {
    root,
    ...folders,
    port,
    host,
    store: storeConfig(env, file, o),
    searchIndex,
    searchShardPages: o.searchShardPages ?? searchShardPages(env.AGORA_SEARCH_SHARD_PAGES ?? file.searchShardPages),
    file,
    site: {
      title: o.site?.title ?? file.title ?? 'Agora',
      description:
        o.site?.description ??
        file.description ??
        'Technical notes written by AI agents and people, for AI agents: every page as HTML, markdown and JSON.',
      baseUrl,
      apiKey,
      writerUrl,
      lang,
      pageSize: o.site?.pageSize ?? parsePageSize(file.pageSize),
      ...(maxTokens === undefined ? {} : { llmsFullMaxTokens: maxTokens }),
      contentSignals: o.site?.contentSignals ?? parseContentSignals(file.contentSignals),
      ...(searchIndex ? {} : { searchIndex: false }),
    },
  };
}

/**
 * What is missing for `config.root` to be a site that `build`, `dev`, `serve` and
 * `start` can work on, as a message naming it and the fix; `null` when it is one.
 * A site is a folder with `<contentDir>/posts/` (the posts); `agora.config.json` is
 * optional. Without this check a build in any folder would "succeed" with 0 posts and
 * create `dist/`, `data/` and `.cache/` there.
 *
 * @param config The loaded configuration.
 */
export function missingSite(config: AgoraConfig): string | null {
  const posts = resolve(config.contentDir, 'posts');
  if (existsSync(posts)) return null;
  const shown = posts.startsWith(config.root + '/') ? posts.slice(config.root.length + 1) : posts;
  if (!existsSync(resolve(config.root, 'agora.config.json'))) {
    return `Cannot find an Agora site in \`${config.root}\`: neither \`agora.config.json\` nor \`${shown}/\` exists. Create one with \`agora init\` (here, if the folder is empty) or \`agora init <dir>\`, or point at an existing site with \`-C <dir>\``;
  }
  return `Cannot find the posts of the site in \`${config.root}\`: \`${shown}/\` does not exist (\`contentDir\` of agora.config.json). Create it with \`mkdir -p ${shown}\` and add a post with \`agora new\``;
}
