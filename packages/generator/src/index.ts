/** @module @agora/generator: load, validate, render and emit an Agora site. */
export { loadConfig, SAMPLE_API_KEY, type AgoraConfig, type LoadConfigOptions, type StoreConfig } from './config.ts';
export { build, SiteBuild, type BuildOptions, type BuildResult, type StoreSnapshot } from './build.ts';
export { check, postSlugs, type CheckResult } from './check.ts';
export { newPost, type NewPostOptions } from './new-post.ts';
export { watch, type WatchOptions } from './watch.ts';
export { formatMessage, sortMessages, ContentError, type Message, type Severity } from './messages.ts';
export { splitFrontMatter, type SplitDocument, type FrontMatterEntry } from './load/front-matter.ts';
export { writeFileAtomic, syncDir } from './emit/atomic-write.ts';
export { compareComments } from './model/site.ts';
export { toCommentRecord } from './model/records.ts';
export type { WriteResult } from './emit/write-outputs.ts';
export { CONTENT_TYPES } from './emit/headers.ts';
export { securityHeaders, contentSecurityPolicy, formatCsp, SECURITY_HEADERS, type CspDirectives } from './emit/security-headers.ts';
export { isIsoDate } from './validate/front-matter-rules.ts';
export { toFileName, toUrlSegment, postDir } from './paths.ts';
export { loadCatalog, type Catalog, type CatalogService, type Operation } from './catalog/index.ts';
export * from './comments/index.ts';
export * from './types.ts';
