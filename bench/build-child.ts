/**
 * One Agora build in its own process: `node --import tsx --conditions=agora-source bench/build-child.ts <root> [--workers N]`.
 * Prints one JSON line: build time, the process's CPU time and peak RSS, files written.
 */
import { loadConfig, build, limitHeapGrowth } from '@agora/generator';

export interface BuildFigures {
  ok: boolean;
  error?: string;
  /** Time inside `build()`, ms. */
  buildMs: number;
  /** Process uptime at the end (includes tsx startup and imports), ms. */
  uptimeMs: number;
  userMs: number;
  sysMs: number;
  /** Peak resident set size of the whole process (all threads), MB. */
  maxRssMB: number;
  posts: number;
  rendered: number;
  outputs: number;
  written: number;
  unchanged: number;
  removed: number;
  /** Content messages (errors throw, so these are warnings). */
  warnings: number;
}

const [root, ...rest] = process.argv.slice(2);
const workersFlag = rest.indexOf('--workers');
const workers = workersFlag >= 0 ? Number(rest[workersFlag + 1]) : undefined;
if (!root) {
  console.error('usage: build-child.ts <root> [--workers N]');
  process.exit(2);
}

function usage(): Pick<BuildFigures, 'uptimeMs' | 'userMs' | 'sysMs' | 'maxRssMB'> {
  const ru = process.resourceUsage();
  return { uptimeMs: process.uptime() * 1000, userMs: ru.userCPUTime / 1000, sysMs: ru.systemCPUTime / 1000, maxRssMB: ru.maxRSS / 1024 };
}

// As `agora build` does (heap-growth.ts): what is measured is the CLI's build.
limitHeapGrowth();
const config = loadConfig({ root, env: {}, overrides: { port: 0, host: '127.0.0.1', site: { baseUrl: 'https://agora.example' } } });
const started = performance.now();
try {
  const { result } = await build(config, workers === undefined ? {} : { workers });
  const figures: BuildFigures = {
    ok: true, buildMs: performance.now() - started, ...usage(), posts: result.posts, rendered: result.rendered,
    outputs: result.outputs, written: result.written.length, unchanged: result.unchanged, removed: result.removed.length, warnings: result.messages.length,
  };
  console.log(JSON.stringify(figures));
} catch (error) {
  const figures: BuildFigures = { ok: false, error: (error as Error).message, buildMs: performance.now() - started, ...usage(), posts: 0, rendered: 0, outputs: 0, written: 0, unchanged: 0, removed: 0, warnings: 0 };
  console.log(JSON.stringify(figures));
  process.exitCode = 1;
}
