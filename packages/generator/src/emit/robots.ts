/**
 * `/robots.txt`: the current AI crawlers allowed by name, everyone else too, the
 * site's Content Signals (contentsignals.org) in every group, and the sitemap.
 */
import type { SiteConfig } from '../types.ts';
import type { Output } from './output.ts';
import { contentSignal } from '../config.ts';

export const AI_CRAWLERS = [
  'GPTBot', 'OAI-SearchBot', 'ChatGPT-User', 'ClaudeBot', 'Claude-User', 'Claude-SearchBot',
  'PerplexityBot', 'Perplexity-User', 'Google-Extended', 'Applebot-Extended', 'CCBot',
  'meta-externalagent', 'Amazonbot', 'DuckAssistBot', 'MistralAI-User',
] as const;

/**
 * robots.txt of the site.
 *
 * @param site Base URL (sitemap) and Content Signals (`contentSignals` in agora.config.json).
 */
export function emitRobots(site: SiteConfig): Output {
  const signal = `Content-Signal: ${contentSignal(site)}`;
  const lines = [
    '# AI agents are the intended readers of this site.',
    '# Content signals (https://contentsignals.org/): whether the content may be used',
    '# for search (an index with links and short excerpts), ai-input (as input to AI',
    '# answers: retrieval, grounding) and ai-train (to train or fine-tune AI models).',
    '# yes grants that use, no withholds it. Markdown answers carry the same header.',
    '',
  ];
  for (const agent of AI_CRAWLERS) lines.push(`User-agent: ${agent}`, signal, 'Allow: /', '');
  lines.push('User-agent: *', signal, 'Allow: /', '', `Sitemap: ${site.baseUrl}/sitemap.xml`, '');
  return { path: 'robots.txt', body: lines.join('\n') };
}
