import { configuredTokens, type ConfiguredTokens } from './public-data/tokens.ts';
import { logLevel } from './logger.ts';

/** Writer settings beyond the site configuration, from the environment. */
export interface WriterSettings {
  corsOrigin: string;
  logLevel: string;
  /** Longest time before stored view counts are handed to their mirrors; with several nodes on PostgreSQL, also how often each re-reads the counts the others added (ms). */
  viewsFlushMs: number;
  /** Longest delay before site-wide outputs show a comment or view change (ms). */
  aggregateDelayMs: number;
  /** A site of at most this many posts writes its site-wide outputs before a comment's answer (0: never). */
  aggregateInlinePosts: number;
  /** Shortest time between two rewrites of the category, model and tag mirrors under a steady flow (ms). */
  listIntervalMs: number;
  /** Posts whose comment text the writer keeps in memory between uses (0: every post's). */
  commentTextPosts: number;
  /** After this long without a comment, the build state lets go of what it keeps for the next one (ms; 0: never). */
  releaseAfterMs: number;
  /** Extra `Host` names `/mcp` answers for (the base URL's and writer URL's hosts and loopback names always). */
  mcpHosts: string[];
  /** `AGORA_AGENT_DIRECTORY_ALLOW_LOOPBACK=1`: plain-http key directories on loopback (tests and local development only). */
  agentDirectoryAllowLoopback: boolean;
  /** Proxy tokens given as configuration (`AGORA_AGENT_TOKENS`), checked here so a weak one stops the start before the build. */
  agentTokens: ConfiguredTokens;
}

/** A whole number ≥ 0 from `env[name]` (unset or blank: `fallback`); anything else stops the start, naming the variable. */
function count(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = env[name]?.trim();
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`Unexpected ${name} ${JSON.stringify(env[name])}, expected a whole number ≥ 0 (default ${fallback}); see README "Configuration"`);
  return n;
}

/**
 * `AGORA_CORS_ORIGIN`: `*` (unset or blank: a blank line in an EnvironmentFile had sent an
 * empty `Access-Control-Allow-Origin`, which browsers refuse) or one origin as browsers
 * send it (punycode, no default port), a trailing slash forgiven. A path or a list is no value of the header: it
 * stops the start, where a browser would only have refused every cross-origin call.
 */
function corsOrigin(value: string | undefined): string {
  const given = value?.trim() ?? '';
  if (given === '' || given === '*') return '*';
  const origin = given.replace(/\/$/, '');
  let parsed: URL | undefined;
  try { parsed = new URL(origin); } catch { /* named below */ }
  // Judged by its parts, not by comparing texts: an IDN host (`bücher.example`) or a default port
  // (`:443`) is one origin too, answered as browsers send it (`https://xn--bcher-kva.example`).
  const afterScheme = /^https?:\/\/(.*)$/i.exec(origin)?.[1];
  if (!parsed || afterScheme === undefined || /[/?#@\s,]/.test(afterScheme)) {
    throw new Error(`Unexpected AGORA_CORS_ORIGIN ${JSON.stringify(value)}, expected * or one origin like https://app.example (scheme, host and port, no path or list); see README "Configuration"`);
  }
  return parsed.origin;
}

/**
 * `AGORA_MCP_HOSTS`: host names as a `Host` header names them (without its port). An entry
 * written as a URL or with a port (`https://agora.internal/`, `agora.internal:8443`) matched
 * no request, so `/mcp` refused that host while the setting seemed to allow it: it stops the start.
 */
function mcpHosts(value: string | undefined): string[] {
  const hosts = (value ?? '').split(',').map((h) => h.trim().toLowerCase()).filter((h) => h !== '');
  for (const host of hosts) {
    if (/^(\[[0-9a-f:.]+\]|[a-z0-9_]([a-z0-9_.-]*[a-z0-9_])?)$/.test(host)) continue;
    const bare = /^[a-z][a-z0-9+.-]*:\/\//.test(host) ? host : `http://${host}`;
    const name = URL.canParse(bare) ? new URL(bare).hostname : '';
    throw new Error(`Unexpected AGORA_MCP_HOSTS entry ${JSON.stringify(host)}, expected a host name alone${name ? ` such as \`${name}\`` : ' like `agora.internal`'} (no scheme, port or path; comma-separated); see README "Configuration"`);
  }
  return hosts;
}

export function loadWriterSettings(env: NodeJS.ProcessEnv = process.env): WriterSettings {
  return {
    corsOrigin: corsOrigin(env.AGORA_CORS_ORIGIN),
    logLevel: logLevel(env.LOG_LEVEL),
    viewsFlushMs: count(env, 'AGORA_VIEWS_FLUSH_MS', 1000),
    aggregateDelayMs: count(env, 'AGORA_AGGREGATE_DELAY_MS', 1000),
    aggregateInlinePosts: count(env, 'AGORA_AGGREGATE_INLINE_POSTS', 500),
    listIntervalMs: count(env, 'AGORA_LIST_INTERVAL_MS', 5000),
    commentTextPosts: count(env, 'AGORA_COMMENT_TEXT_POSTS', 500),
    releaseAfterMs: count(env, 'AGORA_RELEASE_AFTER_MS', 30_000),
    agentDirectoryAllowLoopback: env.AGORA_AGENT_DIRECTORY_ALLOW_LOOPBACK === '1',
    mcpHosts: mcpHosts(env.AGORA_MCP_HOSTS),
    agentTokens: configuredTokens(env.AGORA_AGENT_TOKENS),
  };
}
