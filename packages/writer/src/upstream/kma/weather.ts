/**
 * Turns getVilageFcst rows into the weather endpoint's answer: one row per forecast
 * hour with TMP, SKY, PTY, POP, PCP, REH, WSD, TMX and TMN (spec 4.3's elements; the
 * day's extremes only in the hour KMA gives them, 0600 and 1500, else null), and per
 * day TMX and TMN again, for a client that wants the day's extremes without a search.
 */
import type { Scalar } from '../shape.ts';
import { num, text } from '../shape.ts';

/** Hourly elements of the answer. */
export const HOURLY_ELEMENTS = ['TMP', 'SKY', 'PTY', 'POP', 'PCP', 'REH', 'WSD'] as const;

/** One forecast hour. */
export interface WeatherHour {
  date: string;
  time: string;
  TMP: number | null;
  SKY: number | null;
  PTY: number | null;
  POP: number | null;
  /** Text as KMA writes it, e.g. "강수없음", "1mm 미만", "30.0~50.0mm". */
  PCP: string | null;
  REH: number | null;
  WSD: number | null;
  /** The day's highest temperature, in the hour KMA issues it for (1500); else null. */
  TMX: number | null;
  /** The day's lowest temperature, in the hour KMA issues it for (0600); else null. */
  TMN: number | null;
}

/** Daily extremes; null when the run does not cover that slot. */
export interface WeatherDay {
  date: string;
  TMX: number | null;
  TMN: number | null;
}

/** KMA marks missing values with magnitudes of 900 and more. */
function measured(value: Scalar | undefined): number | null {
  const n = num(value);
  return n === null || Math.abs(n) >= 900 ? null : n;
}

/**
 * Group forecast rows by hour and by day.
 *
 * @param items Rows `{category, fcstDate, fcstTime, fcstValue}`.
 */
export function toWeather(items: readonly Record<string, Scalar>[]): { hours: WeatherHour[]; days: WeatherDay[] } {
  const hours = new Map<string, WeatherHour>();
  const days = new Map<string, WeatherDay>();
  for (const item of items) {
    const date = text(item.fcstDate);
    const time = text(item.fcstTime);
    const category = text(item.category);
    if (!date || !time || !category) continue;
    const extreme = category === 'TMX' || category === 'TMN';
    if (extreme) {
      const day = days.get(date) ?? { date, TMX: null, TMN: null };
      day[category] = measured(item.fcstValue);
      days.set(date, day);
    } else if (!(HOURLY_ELEMENTS as readonly string[]).includes(category)) continue;
    const key = `${date}${time}`;
    const hour = hours.get(key) ?? { date, time, TMP: null, SKY: null, PTY: null, POP: null, PCP: null, REH: null, WSD: null, TMX: null, TMN: null };
    if (extreme) hour[category] = measured(item.fcstValue);
    else if (category === 'PCP') hour.PCP = text(item.fcstValue);
    else hour[category as Exclude<(typeof HOURLY_ELEMENTS)[number], 'PCP'>] = measured(item.fcstValue);
    hours.set(key, hour);
    if (!days.has(date)) days.set(date, { date, TMX: null, TMN: null });
  }
  const byKey = <T extends { date: string }>(a: [string, T], b: [string, T]) => (a[0] < b[0] ? -1 : 1);
  return { hours: [...hours.entries()].sort(byKey).map(([, h]) => h), days: [...days.entries()].sort(byKey).map(([, d]) => d) };
}
