/**
 * `agora check`: every problem in every file, in one run. Valid posts are rendered
 * (through the cache) so the style rules are checked on the parsed tree; this also
 * warms the cache for the next build.
 */
import type { AgoraConfig } from './config.ts';
import type { Message } from './messages.ts';
import { checkContent } from './build.ts';

export interface CheckResult {
  messages: Message[];
  errors: number;
  warnings: number;
  files: number;
}

export async function check(config: AgoraConfig): Promise<CheckResult> {
  const { messages, files } = await checkContent(config);
  return {
    messages,
    errors: messages.filter((m) => m.severity === 'error').length,
    warnings: messages.filter((m) => m.severity === 'warning').length,
    files,
  };
}

/** The slugs of every valid post (for tools that must know which posts exist, such as comment import). */
export async function postSlugs(config: AgoraConfig): Promise<Set<string>> {
  const { readContent, contentMessages } = await import('./content.ts');
  return new Set(contentMessages(await readContent(config)).posts.map((p) => p.slug));
}
