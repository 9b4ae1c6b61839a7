/**
 * The files a post refers to (`./img/a.png`), copied into its folder at the same relative
 * path: `/{category}/{slug}/img/a.png`, where its page and its `post.md` both ask for them.
 * Which files, and why the others are not, is rule `local-file` (`validate/local-files.ts`).
 * Each file is read when its job is emitted (its size, time or inode changed, or the post
 * did); the sink writes it only when its bytes differ from what `dist/` holds.
 */
import { readFileSync } from 'node:fs';
import type { EmitContext } from './context.ts';
import type { Output } from './output.ts';
import { postDir, toFileName } from '../paths.ts';
import { MAX_LOCAL_FILE_BYTES } from '../validate/local-files.ts';

export function emitPostFiles(ctx: EmitContext, slug: string): Output[] {
  const post = ctx.site.bySlug.get(slug);
  if (!post) return [];
  const folder = postDir(post.category, slug);
  const out: Output[] = [];
  for (const file of ctx.postFiles?.(slug) ?? []) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(file.abs);
    } catch (error) {
      // Removed since it was looked at: the next build (or the watcher's next rebuild) sees it gone.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    // Grown since `agora check` judged it: refused here too, naming it.
    if (bytes.length > MAX_LOCAL_FILE_BYTES) {
      throw new Error(`Cannot publish \`${file.abs}\` beside post \`${slug}\`: ${bytes.length} bytes, over the ${MAX_LOCAL_FILE_BYTES} bytes a published file may be`);
    }
    // Every segment is one `toFileName` keeps as it is (rule `local-file` publishes no other).
    out.push({ path: `${folder}/${file.out.split('/').map(toFileName).join('/')}`, body: [bytes] });
  }
  return out;
}
