/**
 * The comment rules a stored comment is checked by on every read of the embedded store
 * (`writer/src/store/embedded/comment-shape.ts`): a light entry point, since the store's
 * file threads load it and the generator's index would bring the renderer with it.
 */
export { isIsoDate } from '../validate/front-matter-rules.ts';
export { COMMENT_RULES } from './rules.ts';
