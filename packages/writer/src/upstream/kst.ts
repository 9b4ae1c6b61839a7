/**
 * Korea Standard Time helpers (UTC+9, no daylight saving): calendar day, clock
 * parts, and the seconds left until the next midnight, when daily quotas reset.
 */

const KST_OFFSET_MS = 9 * 60 * 60 * 1000;

/** Clock parts of an instant in KST. */
export interface KstParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

/** The instant's calendar and clock fields in KST. */
export function kstParts(instant: Date): KstParts {
  const shifted = new Date(instant.getTime() + KST_OFFSET_MS);
  return {
    year: shifted.getUTCFullYear(),
    month: shifted.getUTCMonth() + 1,
    day: shifted.getUTCDate(),
    hour: shifted.getUTCHours(),
    minute: shifted.getUTCMinutes(),
  };
}

/** The KST instant for a KST wall-clock time (fields may overflow, e.g. hour 26). */
export function fromKst(year: number, month: number, day: number, hour = 0, minute = 0): Date {
  return new Date(Date.UTC(year, month - 1, day, hour, minute) - KST_OFFSET_MS);
}

/** KST calendar day as `YYYY-MM-DD`. */
export function kstDay(instant: Date): string {
  const p = kstParts(instant);
  return `${p.year}-${pad(p.month)}-${pad(p.day)}`;
}

/** KST calendar day as `YYYYMMDD`. */
export function kstCompactDate(instant: Date): string {
  return kstDay(instant).replaceAll('-', '');
}

/** Whole seconds from `instant` to the next KST midnight (at least 1). */
export function secondsUntilKstMidnight(instant: Date): number {
  const p = kstParts(instant);
  const midnight = fromKst(p.year, p.month, p.day + 1);
  return Math.max(1, Math.ceil((midnight.getTime() - instant.getTime()) / 1000));
}

/** Two-digit zero padding. */
export function pad(value: number): string {
  return String(value).padStart(2, '0');
}
