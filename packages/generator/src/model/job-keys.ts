/**
 * Input keys of jobs: a job whose key is unchanged since the last build is skipped
 * without emitting anything. Per-post jobs depend on their post's source, comments
 * and views; aggregates depend on the whole site (one key for all of them). Every key
 * includes a fingerprint of the generator's own code, so a template change re-emits
 * everything.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import type { SiteModel } from '../types.ts';
import type { Job } from './plan.ts';
import { postTags } from './tags.ts';
import { tagKey } from '../paths.ts';

let fingerprint: string | undefined;

/** SHA-1 over the generator's source files (templates, emitters, renderer). */
export function codeFingerprint(): string {
  if (fingerprint) return fingerprint;
  const root = fileURLToPath(new URL('..', import.meta.url));
  const hash = createHash('sha1');
  const files = readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
  for (const file of files) hash.update(file.slice(root.length)).update(readFileSync(file));
  return (fingerprint = hash.digest('hex').slice(0, 16));
}

/** Stable id of a job in the manifest. */
export function jobId(job: Job): string {
  if ('slug' in job) return `${job.kind}:${job.slug}`;
  if ('category' in job) return `${job.kind}:${job.category}`;
  if ('model' in job) return `${job.kind}:${job.model}`;
  if ('tag' in job) return `${job.kind}:${job.tag}`;
  return job.kind;
}

/** A function giving each job of this site its input key. */
export function createJobKeyer(site: SiteModel): (job: Job) => string {
  const base = createHash('sha1').update(codeFingerprint()).update(JSON.stringify(site.config)).digest('hex').slice(0, 16);
  const comments = (slug: string) => (site.comments.get(slug) ?? []).map((c) => c.id).join(',');
  const hashOf = (slug: string) => site.bySlug.get(slug)?.hash ?? '';
  // One pass over the posts gives the key of the whole site and of each category and
  // model list, so an edit re-emits only the lists that contain the post.
  let groups: Map<string, string> | undefined;
  const group = (name: string) => {
    if (!groups) {
      const hashes = new Map<string, ReturnType<typeof createHash>>();
      const feed = (id: string, line: string) => {
        let h = hashes.get(id);
        if (!h) hashes.set(id, (h = createHash('sha1').update(base)));
        h.update(line);
      };
      feed('site', JSON.stringify(site.catalog));
      for (const p of site.posts) {
        const line = `${p.slug}\u0000${p.hash}\u0000${comments(p.slug)}\u0000${site.views.get(p.slug) ?? 0}\n`;
        feed('site', line);
        feed(`category:${p.category}`, line);
        feed(`model:${p.model}`, line);
        // Post feeds show content only: comments and views must not re-emit them.
        const content = `${p.slug}\u0000${p.hash}\n`;
        feed('content:site', content);
        feed(`content:category:${p.category}`, content);
        for (const key of new Set(postTags(p).map(tagKey))) {
          feed(`tag:${key}`, line);
          feed(`content:tag:${key}`, content);
        }
      }
      groups = new Map([...hashes].map(([id, h]) => [id, h.digest('hex')]));
    }
    return groups.get(name) ?? `${base}|empty`;
  };
  return (job) => {
    switch (job.kind) {
      case 'post-page':
        return `${base}|${hashOf(job.slug)}|${comments(job.slug)}`;
      case 'post-md':
        return `${base}|${hashOf(job.slug)}`;
      case 'api-post':
        return `${base}|${hashOf(job.slug)}|${site.comments.get(job.slug)?.length ?? 0}|${site.views.get(job.slug) ?? 0}`;
      case 'api-comments':
        return `${base}|${comments(job.slug)}`;
      case 'api-category':
      case 'category-page':
        return group(`category:${job.category}`);
      case 'api-model':
      case 'model-page':
        return group(`model:${job.model}`);
      case 'api-tag':
      case 'tag-page':
        return group(`tag:${job.tag}`);
      case 'site-feed':
        return group('content:site');
      case 'category-feed':
        return group(`content:category:${job.category}`);
      case 'tag-feed':
        return group(`content:tag:${job.tag}`);
      case 'post-comments-feed':
        return `${base}|${hashOf(job.slug)}|${comments(job.slug)}`;
      default:
        return group('site');
    }
  };
}
