/**
 * How far V8 lets the heap grow past what the last full collection kept. V8 sizes
 * that from the heap limit: on a machine with 16 GB or more the limit is ~4 GB and
 * the old generation may reach up to 4× its live size before the next full collection.
 *
 * - A cold build makes much short-lived garbage that lives long enough to be promoted
 *   (each page's HTML until it is written), so its peak followed when V8 happened to
 *   collect: 497–730 MB at 10,000 posts with ~110 MB live at the end. Growing by at
 *   most 20 % gives 438–447 MB at the same speed within the noise.
 * - The writer under sustained comment load (10,000 posts, ~100,000 comments, two
 *   10 s loads of 50 clients back to back) grew to 936–1,009 MB RSS with V8's default
 *   and kept it; with 20 %, 719–738 MB, for 5–10 % of its comment and view rates in
 *   alternated runs (docs/performance.md, "heap growth" and the seventh session).
 *
 * A process-wide V8 flag, so only the CLI's commands set it (`build`, `start`,
 * `serve`, `dev`) and the benchmarks that run them: a library must not change its
 * host's collector. V8 reads the flag at each collection, so setting it at run time
 * works; `AGORA_HEAP_GROWING_PERCENT=0` leaves V8's default.
 */
import { setFlagsFromString } from 'node:v8';

/** The percentage `agora build` and `dev` use unless `AGORA_HEAP_GROWING_PERCENT` says otherwise. */
export const HEAP_GROWING_PERCENT = 20;

/**
 * The writer's (`agora start`, `serve`). Once it kept comment text for the posts used
 * last only (`build/comment-texts.ts`), its live heap at 10,000 posts and 104,000
 * comments fell from ~300 to ~160 MB, and 20 % of that made full collections frequent
 * enough to put their pauses into the comments' tail: comment → page + mirror p99
 * 70–88 ms against 41–52 ms with the text kept, three alternated pairs; with 40 %,
 * 44–52 ms against 43–60 ms, for ~45 MB more RSS after two 8 s loads (632 against
 * 586 MB; 743–749 MB with the text kept and 20 %). docs/performance.md, eighth session.
 */
export const WRITER_HEAP_GROWING_PERCENT = 40;

/**
 * Set V8's heap growing factor to 1 + percent/100 for this process and its worker
 * threads. Returns the percentage set, or null when V8's default is kept (`0`, or the
 * flag already given to Node by hand). Throws on a value that is not a whole number.
 */
export function limitHeapGrowth(env: NodeJS.ProcessEnv = process.env, percent = HEAP_GROWING_PERCENT): number | null {
  const asked = env.AGORA_HEAP_GROWING_PERCENT;
  if (asked !== undefined && asked !== '') {
    if (!/^\d{1,4}$/.test(asked)) throw new Error(`AGORA_HEAP_GROWING_PERCENT must be a whole number of percent (0 keeps V8's default), not "${asked}"`);
    percent = Number(asked);
  }
  if (percent === 0 || process.execArgv.some((a) => /^--heap[-_]growing[-_]percent/.test(a))) return null;
  setFlagsFromString(`--heap-growing-percent=${percent}`);
  return percent;
}
