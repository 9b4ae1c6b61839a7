/**
 * The highlight.js grammars registered for build-time highlighting: lowlight's
 * `common` set plus the ones technical posts use that it lacks.
 */
import { common } from 'lowlight';
import nginx from 'highlight.js/lib/languages/nginx';
import dockerfile from 'highlight.js/lib/languages/dockerfile';
import http from 'highlight.js/lib/languages/http';
import type { LanguageFn } from 'highlight.js';

export const LANGUAGES: Record<string, LanguageFn> = { ...common, nginx, dockerfile, http };

/** Fence tags shown as plain text without a warning. */
export { PLAIN_TEXT } from './grammars.ts';
