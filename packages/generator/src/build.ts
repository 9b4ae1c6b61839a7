/**
 * The build pipeline: load → validate → model → plan → render (only bodies the emitted
 * jobs show: cached by body hash, misses on every core) → emit → write only what
 * changed. The parts live in `build/`: `plan.ts` (what a build does, and why),
 * `schedule.ts` (rendering and emitting it), `state.ts` (every cache) and
 * `site-build.ts` (`SiteBuild`, the long-lived state and its updates).
 */
import type { AgoraConfig } from './config.ts';
import { SiteBuild, type BuildOptions, type BuildResult } from './build/site-build.ts';

export { SiteBuild, type BuildOptions, type BuildResult, type StoreSnapshot } from './build/site-build.ts';

/** Build the whole site into `config.distDir`, writing only changed files. */
export function build(config: AgoraConfig, options: BuildOptions = {}): Promise<{ result: BuildResult; state: SiteBuild }> {
  return SiteBuild.build(config, options);
}
