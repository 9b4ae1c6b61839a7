/**
 * Load and validate all content: posts and the catalog. Returns every message found,
 * in every file, so `agora check` can report them in one run.
 */
import { join } from 'node:path';
import type { Message } from '../messages.ts';
import type { Post, SiteConfig } from '../types.ts';
import type { Catalog } from '../catalog/types.ts';
import { loadPostSources, type SourceFile } from './posts.ts';
import { parsePost } from '../validate/post.ts';
import { checkSite } from '../validate/site.ts';
import { loadCatalog } from '../catalog/load-catalog.ts';

export interface LoadedContent {
  sources: SourceFile[];
  posts: Post[];
  catalog: Catalog | null;
  messages: Message[];
}

/** Validate already-read sources (used by full builds and by `agora dev`). */
export function validateSources(sources: readonly SourceFile[]): { posts: Post[]; messages: Message[] } {
  const posts: Post[] = [];
  const messages: Message[] = [];
  for (const source of sources) {
    const parsed = parsePost(source);
    messages.push(...parsed.messages);
    if (parsed.post) posts.push(parsed.post);
  }
  messages.push(...checkSite(sources, posts));
  return { posts, messages };
}

export async function loadContent(root: string, contentDir: string, site: SiteConfig): Promise<LoadedContent> {
  const [sources, catalogResult] = await Promise.all([
    loadPostSources(join(contentDir, 'posts'), root),
    loadCatalog(contentDir, site.baseUrl),
  ]);
  const { posts, messages } = validateSources(sources);
  messages.push(...catalogResult.messages);
  return { sources, posts, catalog: catalogResult.catalog, messages };
}
