/** Small numeric helpers for the bench. */

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))] as number;
}

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

export const round = (n: number, digits = 1): number => (Number.isFinite(n) ? Number(n.toFixed(digits)) : n);

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
