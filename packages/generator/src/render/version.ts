/**
 * Version of the post renderer's output, part of every render-cache file. Bump it when
 * `renderMarkdown` changes what it produces. Kept apart from the renderer so reading
 * the cache does not load unified and the grammars. `post-4`: CJK-friendly emphasis
 * and strikethrough (issue 20). `post-5`: links and images with an unsafe URL scheme lose the URL.
 * `post-6`: a task list's checkboxes are named (`aria-label`); style notes for headings that skip a
 * level or repeat the title's level 1, and links without text. `post-7`: the links and images that may
 * point into the site, for `dead-link` (the HTML is unchanged).
 */
export const RENDERER_VERSION = 'post-7';
