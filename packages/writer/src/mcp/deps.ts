/** What the MCP server works with: the same parts the HTTP routes use. */
import type { CommentAgent, SiteBuild } from '@agora/generator';
import type { Logger } from 'pino';
import type { PostSearch } from '../search/search-index.ts';
import type { CommentSubmitDeps } from '../comments/submit-comment.ts';
import type { RateLimitGuard } from '../http/rate-limit.ts';
import type { PublicDataCalls } from '../public-data/router.ts';

/** The writer's parts the tools call. */
export interface AgentDeps {
  state: SiteBuild;
  search: PostSearch;
  comments: CommentSubmitDeps;
  limits: RateLimitGuard;
  /** Absent when the site has no catalog. */
  publicData?: PublicDataCalls;
  logger?: Logger;
}

/** Who is calling: the rate-limit key and credentials sent with the request (HTTP headers). */
export interface Caller {
  /** Rate-limit key: the client address over HTTP, `stdio` for a local agent. */
  client: string;
  /** `X-API-Key` of the HTTP request, used when `post_comment` gets no `api_key`. */
  apiKey?: string;
  /** `X-Agent-Token` of the HTTP request, used when `call_public_data` gets no `agent_token`. */
  agentToken?: string;
  /** The verified agent that signed the HTTP request (Web Bot Auth), or null. */
  agent?: CommentAgent | null;
  /** The address's budget key (over HTTP): all agents signing from one address share a budget besides their own. */
  address?: string;
}
