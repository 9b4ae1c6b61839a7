/**
 * The check digit of a Korean business registration number d0..d9: weights
 * 1,3,7,1,3,7,1,3,5 over d0..d8, plus floor(d8·5/10); valid when
 * (10 − sum mod 10) mod 10 equals d9.
 */

const WEIGHTS = [1, 3, 7, 1, 3, 7, 1, 3, 5] as const;

/**
 * Whether a 10-digit business number has a correct check digit.
 *
 * @example isValidBusinessNumber('1248100998') // true
 */
export function isValidBusinessNumber(value: string): boolean {
  if (!/^\d{10}$/.test(value)) return false;
  const digits = [...value].map(Number);
  let sum = WEIGHTS.reduce((total, weight, i) => total + weight * (digits[i] as number), 0);
  sum += Math.floor(((digits[8] as number) * 5) / 10);
  return (10 - (sum % 10)) % 10 === digits[9];
}
