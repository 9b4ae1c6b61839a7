/**
 * The build pipeline: load → validate → model → plan → render (only bodies the emitted
 * jobs show: cached by body hash, misses on every core) → emit → write only what
 * changed. The parts live in `build/`: `plan.ts` (what a build does, and why),
 * `run.ts` (one build or rebuild, start to end), `schedule.ts` (rendering while
 * emitting), `state.ts` (every cache) and `site-build.ts` (`SiteBuild`, the
 * long-lived state, its updates and their lock).
 */
import type { AgoraConfig } from './config.ts';
import { SiteBuild, type BuildOptions, type BuildResult } from './build/site-build.ts';

export { SiteBuild, type BuildOptions, type BuildResult, type PagesWritten, type StoreSnapshot } from './build/site-build.ts';
/** `agora check` lives in `check.ts`; re-exported for callers of the old path. */
export { checkContent } from './check.ts';

/** Build the whole site into `config.distDir`, writing only changed files. */
export function build(config: AgoraConfig, options: BuildOptions = {}): Promise<{ result: BuildResult; state: SiteBuild }> {
  return SiteBuild.build(config, options);
}
