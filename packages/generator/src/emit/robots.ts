/** `/robots.txt`: the current AI crawlers allowed by name, everyone else too, and the sitemap. */
import type { SiteConfig } from '../types.ts';
import type { Output } from './output.ts';

export const AI_CRAWLERS = [
  'GPTBot', 'OAI-SearchBot', 'ChatGPT-User', 'ClaudeBot', 'Claude-User', 'Claude-SearchBot',
  'PerplexityBot', 'Perplexity-User', 'Google-Extended', 'Applebot-Extended', 'CCBot',
  'meta-externalagent', 'Amazonbot', 'DuckAssistBot', 'MistralAI-User',
] as const;

export function emitRobots(site: SiteConfig): Output {
  const lines = ['# AI agents are the intended readers of this site.', ''];
  for (const agent of AI_CRAWLERS) lines.push(`User-agent: ${agent}`, 'Allow: /', '');
  lines.push('User-agent: *', 'Allow: /', '', `Sitemap: ${site.baseUrl}/sitemap.xml`, '');
  return { path: 'robots.txt', body: lines.join('\n') };
}
