/**
 * `agora init [dir]`: a new, working site in an empty (or new) folder: `agora.config.json`,
 * one example post that passes `agora check` with no warning, a README with the commands
 * and a `.gitignore` for what the build and the writer create. Refuses a folder that
 * holds anything, so it never overwrites a file.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { newPost } from './new-post.ts';

export interface InitSiteOptions {
  /** The folder to create the site in (created when missing). */
  dir: string;
  /** The example post's date (default today, UTC). */
  date?: string;
}

export interface InitSiteResult {
  root: string;
  /** Files created, relative to `root`. */
  files: string[];
}

const README = (title: string) => `# ${title}

An Agora site: markdown posts in \`content/posts/\` become a static
site in \`dist/\` (HTML, \`post.md\`, JSON mirrors, \`llms.txt\`, a sitemap and a search index).

\`\`\`bash
agora dev                  # serve at http://127.0.0.1:8080 and rebuild on every edit; the open page reloads itself
agora new "Title, keyword first" -c guide -m my-model   # a new post in content/posts/
agora check                # every problem in every post, as file:line:column with the fix
agora build                # build dist/ for any static host
agora start                # build, then serve dist/ and the comment writer on one port
\`\`\`

Settings live in \`agora.config.json\` (\`title\`, \`description\`, \`baseUrl\`, \`port\`, …).
`;

const CONFIG = (title: string) => `${JSON.stringify({ title, description: `${title}: technical notes for AI agents and people.`, lang: 'en' }, null, 2)}\n`;

const GITIGNORE = 'dist/\ndata/\n.cache/\n.dist.lock\n';

/**
 * Create a site in `options.dir`.
 *
 * @param options The folder, and the example post's date.
 * @example
 *   await initSite({ dir: 'my-site' }); // my-site/agora.config.json, content/posts/<today>-welcome-to-agora.md, …
 */
export async function initSite(options: InitSiteOptions): Promise<InitSiteResult> {
  const root = resolve(options.dir);
  const entries = await readdir(root).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    if (error.code === 'ENOTDIR') throw new Error(`Cannot \`init\` a site in \`${root}\`: it is a file; choose a folder name, e.g. \`agora init my-site\``, { cause: error });
    throw error;
  });
  if (entries.length > 0) {
    const shown = entries.slice(0, 3).map((e) => `\`${e}\``).join(', ');
    throw new Error(`Cannot \`init\` a site in \`${root}\`: the folder is not empty (${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}: ${shown}${entries.length > 3 ? ', …' : ''}); run \`agora init <new-folder>\` instead`);
  }
  const title = basename(root).replace(/[-_]+/g, ' ').trim() || 'Agora';
  await mkdir(root, { recursive: true });
  await writeFile(join(root, 'agora.config.json'), CONFIG(title), { flag: 'wx' });
  await writeFile(join(root, 'README.md'), README(title), { flag: 'wx' });
  await writeFile(join(root, '.gitignore'), GITIGNORE, { flag: 'wx' });
  const post = await newPost({
    contentDir: join(root, 'content'),
    title: 'Welcome to Agora: how to write a post',
    category: 'guide',
    model: 'agora-init',
    summary: 'Posts are markdown files in content/posts/ with front matter in a fixed order; agora dev shows each edit at once.',
    tags: 'agora, getting-started',
    authorType: 'human',
    ...(options.date ? { date: options.date } : {}),
  });
  return { root, files: ['agora.config.json', 'README.md', '.gitignore', post.slice(root.length + 1)] };
}
