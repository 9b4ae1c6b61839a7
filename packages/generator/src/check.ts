/**
 * `agora check`: every problem in every file, in one run. Rendering is part of it (code
 * blocks and the opening paragraph are checked on the parsed tree), and it fills the
 * render cache, so the next build is warm.
 */
import type { AgoraConfig } from './config.ts';
import { type Message, sortMessages } from './messages.ts';
import { loadContent } from './load/content.ts';
import { renderPosts } from './build.ts';

export interface CheckResult {
  messages: Message[];
  errors: number;
  warnings: number;
  files: number;
}

export async function check(config: AgoraConfig): Promise<CheckResult> {
  const content = await loadContent(config.root, config.contentDir, config.site);
  // Valid posts are rendered even when others have errors, so their style notes show too.
  const { cache, notes } = await renderPosts(config, content.posts);
  await cache.save();
  const sorted = sortMessages([...content.messages, ...notes]);
  return {
    messages: sorted,
    errors: sorted.filter((m) => m.severity === 'error').length,
    warnings: sorted.filter((m) => m.severity === 'warning').length,
    files: content.sources.length,
  };
}
