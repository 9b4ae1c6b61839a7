/**
 * Read what a writer stored through the store interface (any engine), as a CLI tool
 * would (`openStore(config, 'tool')`): view counts and the number of comments.
 */
import { loadConfig } from '@agora/generator';
import { openStore } from '@agora/writer';

export async function readStore(root: string, env: Record<string, string>): Promise<{ views: Map<string, number>; comments: number }> {
  const config = loadConfig({ root, env, overrides: { site: { baseUrl: 'https://agora.example' } } });
  const store = await openStore(config, 'tool');
  try {
    return { views: await store.views.load(), comments: await store.comments.count() };
  } finally {
    await store.close();
  }
}

/** Acknowledged PUTs missing from the stored counts (per slug, never negative). */
export function lostViews(before: ReadonlyMap<string, number>, after: ReadonlyMap<string, number>, acked: ReadonlyMap<string, number>): number {
  let n = 0;
  for (const [slug, k] of acked) n += Math.max(0, k - ((after.get(slug) ?? 0) - (before.get(slug) ?? 0)));
  return n;
}
