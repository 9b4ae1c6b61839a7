/**
 * Version of the post renderer's output, part of every render-cache file. Bump it when
 * `renderMarkdown` changes what it produces. Kept apart from the renderer so reading
 * the cache does not load unified and the grammars.
 */
export const RENDERER_VERSION = 'post-3';
