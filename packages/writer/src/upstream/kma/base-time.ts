/**
 * Which getVilageFcst run is the latest published at an instant: runs are issued at
 * 02, 05, 08, 11, 14, 17, 20 and 23 KST and appear about ten minutes later; before
 * 02:10 the latest is the previous day's 2300 run.
 */
import { fromKst, kstParts, pad } from '../kst.ts';

/** Issue hours of the short-term forecast, KST. */
export const VILAGE_ISSUE_HOURS = [2, 5, 8, 11, 14, 17, 20, 23] as const;

/** Minutes after the issue hour when a run is published. */
export const PUBLISH_DELAY_MINUTES = 10;

/** A forecast run and when the next one appears. */
export interface ForecastBase {
  /** YYYYMMDD, KST. */
  baseDate: string;
  /** HHMM, one of 0200 … 2300. */
  baseTime: string;
  /** When this run was published. */
  publishedAt: Date;
  /** When the following run is published (the cache of this run expires then). */
  nextPublishedAt: Date;
}

/**
 * The latest published short-term forecast run at `now`.
 *
 * @example latestVilageBase(new Date('2026-11-20T15:05:00Z')) // 00:05 KST → previous day 2300
 */
export function latestVilageBase(now: Date): ForecastBase {
  const p = kstParts(now);
  const published = (day: number, hour: number) => fromKst(p.year, p.month, day, hour, PUBLISH_DELAY_MINUTES);
  const runs = [-1, 0, 1].flatMap((offset) => VILAGE_ISSUE_HOURS.map((hour) => ({ day: p.day + offset, hour })));
  const index = runs.findLastIndex((run) => published(run.day, run.hour).getTime() <= now.getTime());
  const run = runs[index] as { day: number; hour: number };
  const next = runs[index + 1] as { day: number; hour: number };
  const issue = kstParts(fromKst(p.year, p.month, run.day, run.hour));
  return {
    baseDate: `${issue.year}${pad(issue.month)}${pad(issue.day)}`,
    baseTime: `${pad(run.hour)}00`,
    publishedAt: published(run.day, run.hour),
    nextPublishedAt: published(next.day, next.hour),
  };
}
